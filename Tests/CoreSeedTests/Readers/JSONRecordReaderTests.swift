import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// The JSON and JSON Lines reader (issue 14): records by path, fields by key path, nested arrays as
/// lists, exact error locations, UTF-8 and duplicate keys checked as the CSV reader checks them.
@Suite struct JSONRecordReaderTests {
    static func reader(_ text: String, records: String? = "/items/*", fields: [String: String]? = nil) throws -> JSONRecordReader {
        let scratch = try Scratch()
        let path = try scratch.file("in.json", text)
        return try withExtendedLifetime(scratch) {
            try JSONRecordReader(path: path, file: "in.json", records: records,
                                 fields: fields.map { $0.sorted { $0.key < $1.key }.map { SourceField(name: $0.key, path: $0.value) } })
        }
    }

    @Test func fieldsByKeyPathFromNestedValues() throws {
        let reader = try Self.reader("""
            {"skip": [1, {"a": [2]}], "items": [
              {"id": 7, "price": 1.50, "ok": true, "address": {"city": "Lyon"}, "tags": ["a", "b"], "lines": [{"sku": "x"}, {"sku": "y"}], "none": null},
              {"id": 8, "tags": []}
            ], "after": {"ignored": true}}
            """, fields: ["id": "id", "price": "price", "ok": "ok", "city": "address.city", "tags": "tags", "first": "tags[0]",
                          "skus": "lines[].sku", "none": "none", "n": "#"])
        #expect(reader.fieldNames == ["city", "first", "id", "n", "none", "ok", "price", "skus", "tags"])
        let records = try reader.all()
        #expect(records.map(\.values) == [
            [.text("Lyon"), .text("a"), .integer(7), .integer(1), .null, .text("true"), .text("1.50"), .list([.text("x"), .text("y")]), .list([.text("a"), .text("b")])],
            [.null, .null, .integer(8), .integer(2), .null, .null, .null, .null, .list([])],
        ])
        #expect(records[0].location.description == "in.json:2:3")
        #expect(records[0].fieldLines?[0] == 2 && records[0].fieldColumns?[0] == 60)  // "Lyon"
    }

    /// A path of `fields` that no record has is an error at the end of the records, on both paths (issue
    /// 23): a typo would otherwise give NULL in every row. A path only some records have is a sparse
    /// field, read as NULL where it is absent; an empty source has nothing to check.
    @Test func aFieldPathNoRecordHasIsAnError() throws {
        let text = #"{"items": [{"id": 1, "geo": {"lat": 2}}, {"id": 2, "note": null}]}"#
        for raw in [false, true] {
            let reader = try Self.reader(text, fields: ["id": "id", "note": "note", "alt": "geo.alt"])
            #expect(reader.readsRaw)
            let error = readerError {
                if raw { while try reader.nextRaw() {} } else { _ = try reader.all() }
            }
            #expect(error?.message == "field 'alt': none of the 2 records has a value at 'geo.alt'")
            #expect(error?.location.description == "in.json")
            #expect(error?.note?.contains("case-sensitive") == true)
        }
        let tree = try Self.reader(text, fields: ["first": "tags[0]", "id": "id"])
        #expect(readerError { _ = try tree.all() }?.message == "field 'first': none of the 2 records has a value at 'tags[0]'")
        let sparse = try Self.reader(text, fields: ["note": "note", "lat": "geo.lat", "n": "#"])
        #expect(try sparse.all().map(\.values) == [[.integer(2), .integer(1), .null], [.null, .integer(2), .null]])
        let empty = try Self.reader(#"{"items": []}"#, fields: ["alt": "geo.alt"])
        #expect(try empty.all().isEmpty)
    }

    @Test func recordsFromAnObjectsValuesWithTheirKeysAndParents() throws {
        let reader = try Self.reader("""
            {"users": {"u1": {"name": "Ann", "pets": [{"kind": "cat"}]}, "u2": {"name": "Bob", "pets": [{"kind": "dog"}, {"kind": "eel"}]}}}
            """, records: "/users/*/pets/*", fields: ["kind": "kind", "owner": "../name", "uid": "../$key", "n": "#", "un": "../#"])
        #expect(try reader.all().map(\.values) == [
            [.text("cat"), .integer(1), .text("Ann"), .text("u1"), .integer(1)],
            [.text("dog"), .integer(1), .text("Bob"), .text("u2"), .integer(2)],
            [.text("eel"), .integer(2), .text("Bob"), .text("u2"), .integer(2)],
        ])
    }

    /// Every record's keys, in the order they first appear: `note` and `geo.alt` only in the second record.
    @Test func withoutFieldsEveryRecordsKeysAreTheFields() throws {
        let text = "[{\"id\": 1, \"geo\": {\"lat\": 2, \"lon\": 3}, \"rows\": [{\"a\": 1}]}, {\"id\": 2, \"note\": \"x\", \"geo\": {\"alt\": [9]}}, {\"id\": 3}]"
        let reader = try Self.reader(text, records: "/*")
        #expect(reader.fieldNames == ["id", "geo.lat", "geo.lon", "note", "geo.alt"])
        let expected: [[FieldValue]] = [[.integer(1), .integer(2), .integer(3), .null, .null],
                                        [.integer(2), .null, .null, .text("x"), .list([.integer(9)])],
                                        [.integer(3), .null, .null, .null, .null]]
        #expect(try reader.all().map(\.values) == expected)
        // The build's in-place path reads the same.
        let raw = try Self.reader(text, records: "/*")
        #expect(raw.readsRaw)
        var records: [[FieldValue]] = []
        while try raw.nextRaw() { records.append(try raw.currentRecord().values) }
        #expect(records == expected)
    }

    /// The key pass skips records of known keys in one pass over the buffer and reads the others in
    /// full: a key first seen in record 700 of 1000 (after keys in another order, escapes, nesting) is a field.
    @Test func theKeyPassFindsAKeyFirstSeenLate() throws {
        var lines: [String] = []
        for i in 1...1000 {
            switch i {
            case 300: lines.append("{\"b\": \"x\\\"y\", \"a\": \(i)}")
            case 500: lines.append("{\"a\": \(i), \"geo\": {\"lat\": 1}}")
            case 700: lines.append("{\"a\": \(i),\n \"late\": null, \"b\": true}")
            default: lines.append("{\"a\": \(i), \"b\": \"t\\u00e9 \(i)\"}".replacingOccurrences(of: "\\u00e9", with: i % 2 == 0 ? "é" : "e"))
            }
        }
        let reader = try Self.reader("[" + lines.joined(separator: ",\n") + "]", records: "/*")
        #expect(reader.fieldNames == ["a", "b", "geo.lat", "late"])
        let records = try reader.all()
        #expect(records.count == 1000)
        #expect(records[699].values == [.integer(700), .text("true"), .null, .null])
        #expect(records[299].values == [.integer(300), .text("x\"y"), .null, .null])
        #expect(records[999].location.line == 1001)
    }

    @Test func jsonLinesReadsOneValuePerLine() throws {
        let reader = try Self.reader("{\"id\": 1}\n\n{\"id\": 2, \"x\": \"é\\u00e9\\ud83c\\udfe6\"}\n", records: nil)
        #expect(reader.fieldNames == ["id", "x"])
        let records = try reader.all()
        #expect(records.map(\.values) == [[.integer(1), .null], [.integer(2), .text("éé🏦")]])
        #expect(records[1].location.description == "in.json:3:1")
    }

    @Test(arguments: [
        ("{\"items\": [{\"a\": 1,}]}", "in.json:1:20: error: JSON error: expected a key in double quotes, found '}'"),
        ("{\"items\": [{\"a\": 1, \"a\": 2}]}", "in.json:1:21: error: key 'a' is given twice in one object"),
        ("{\"items\": [{\"a\": \"x\u{1}\"}]}", "in.json:1:20: error: JSON error: a control character (byte 0x01) inside a string: write it as an escape such as \\n"),
        ("{\"items\": [{\"a\": tru}]}", "in.json:1:18: error: JSON error: 'tru' is not a JSON value (strings are in double quotes)"),
        ("{\"items\": [{\"a\": 01}]}", "in.json:1:18: error: JSON error: '01' is not a JSON value (strings are in double quotes)"),
        ("{\"items\": [{\"a\": \"x}]}", "in.json:1:18: error: JSON error: unterminated string (it opens here)"),
        ("{\"items\": [{\"a\": \"\\q\"}]}", "in.json:1:19: error: JSON error: unknown escape \\'q'"),
        ("{\"items\": [{\"a\": \"\\ud800\"}]}", "in.json:1:19: error: JSON error: a lone UTF-16 surrogate \\ud800"),
        ("{\"items\": [{\"a\": 1}]} x", "in.json:1:23: error: JSON error: unexpected 'x' after the end of the document"),
        ("{\"items\": [{\"a\": {\"b\": 1}}]}", "in.json:1:18: error: field 'a' is an object, not a value"),
    ])
    func badDocumentsAreLocated(text: String, expected: String) throws {
        let error = readerError { _ = try Self.reader(text, fields: ["a": "a"]).all() }
        #expect(error?.diagnosticLines.first == expected)
    }

    @Test func invalidUTF8IsLocated() throws {
        let scratch = try Scratch()
        let path = try scratch.file("bad.jsonl", Array("{\"a\": 1}\n{\"a\": \"x".utf8) + [0xC3, 0x28] + Array("\"}\n".utf8))
        let error = readerError { _ = try JSONRecordReader(path: path, file: "bad.jsonl", records: nil, fields: nil).all() }
        #expect(error?.diagnosticLines == ["bad.jsonl:2:9: error: invalid UTF-8 byte 0xC3",
                                           "note: JSON text is UTF-8 (RFC 8259): convert the file, e.g. iconv -f windows-1252 -t utf-8"])
    }

    @Test(arguments: ["items/*", "/items", "/items//*", "/"])
    func recordsPathMustEndInAStar(records: String) throws {
        let error = readerError { _ = try Self.reader("{}", records: records, fields: ["a": "a"]) }
        #expect(error?.message.hasPrefix("records path '\(records)' must start with / and end with /*") == true)
    }

    @Test(arguments: ["a[x]", "a[-1]", "", "a..b", "[", "a]"])
    func badFieldPathsAreRefused(path: String) throws {
        let error = readerError { _ = try Self.reader("{}", fields: ["f": path]) }
        #expect(error?.message == "field 'f': unsupported path '\(path)'")
    }
}

/// The in-place path shows the same records as `next()` and fails with the same errors.
@Suite struct JSONInPlaceTests {
    static func both(_ text: String, fields: [String: String]) throws -> (records: [Record], raw: [Record], error: String?, rawError: String?) {
        let scratch = try Scratch()
        let path = try scratch.file("in.json", text)
        let specs = fields.sorted { $0.key < $1.key }.map { SourceField(name: $0.key, path: $0.value) }
        let reader = try JSONRecordReader(path: path, file: "in.json", records: "/items/*", fields: specs)
        let inPlace = try JSONRecordReader(path: path, file: "in.json", records: "/items/*", fields: specs)
        #expect(inPlace.readsRaw)
        var records: [Record] = [], raw: [Record] = []
        var failure: String?, rawFailure: String?
        do { while let record = try reader.next() { records.append(record) } } catch { failure = error.description }
        do {
            while try inPlace.nextRaw() {
                let record = try inPlace.currentRecord()
                for (index, value) in record.values.enumerated() {
                    switch (inPlace.fieldView(index), value) {
                    case (.text(let bytes), .text(let text)): #expect(bytes.elementsEqual(text.utf8))
                    case (.integer(let a), .integer(let b)): #expect(a == b)
                    case (.null, .null), (.other, .list): break
                    default: Issue.record("field \(index) shows otherwise than \(value)")
                    }
                }
                raw.append(record)
            }
        } catch { rawFailure = error.description }
        return (records, raw, failure, rawFailure)
    }

    @Test(arguments: [
        "{\"items\": [{\"id\": 7, \"name\": \"Ann \\\"A\\\"\", \"ok\": false, \"x\": {\"y\": [1, 2]}, \"geo\": {\"lat\": 1.5}, \"tags\": [\"a\"]}, {\"id\": 8}, 3, {}]}",
        "{\"items\": [{\"id\": 1, \"skip\": {\"a\": 1, \"a\": 2}}]}",
        "{\"items\": [{\"id\": 1, \"id\": 2}]}",
        "{\"items\": [{\"geo\": {\"lat\": {\"deep\": 1}}}]}",
        "{\"items\": [{\"tags\": [{\"a\": 1}]}]}",
        "{\"items\": [{\"name\": \"\\ud800\"}]}",
        "{\"items\": [{\"name\": \"\", \"geo\": {\"lat\": \"\"}}]}",  // empty text: no storage to copy from
    ])
    func inPlaceAgreesWithNext(text: String) throws {
        let result = try Self.both(text, fields: ["id": "id", "name": "name", "ok": "ok", "lat": "geo.lat", "tags": "tags"])
        #expect(result.raw == result.records)
        #expect(result.rawError == result.error)
    }
}

/// The flat fast path (records of plain members read from the buffer in one pass) against `next()`:
/// each case either stays on it or falls back to the general path, with the same records and errors.
@Suite struct JSONFlatPathTests {
    @Test(arguments: [
        "{\"items\": [{\"id\": 7, \"name\": \"Ann\", \"ok\": true, \"n\": null, \"x\": 1.5e3}, {\"id\": -0, \"name\": \"Zoë 東京\"}]}",
        "{\"items\": [{\"id\": 92233720368547758070, \"name\": \"big\"}, {\"id\": -9223372036854775808}, {\"id\": 1.0}]}",
        "{\"items\": [{\"name\": \"a\\\"b\\n\"}, {\"name\": \"\\u00e9\"}]}",
        "{\"items\": [{\"id\": 1, \"skip\": [1, {\"a\": 2}], \"name\": \"after\"}]}",
        "{\"items\": [{\"id\": 1, \"id\": 2}]}",
        "{\"items\": [{\"id\": 1,\n  \"name\":\n \"two lines\"}]}",
        "{\"items\": [{\"id\": tru}]}",
        "{\"items\": [{\"id\": 01}]}",
        "{\"items\": [{\"\": 1, \"id\": 3}, {}]}",
        "{\"items\": [{\"id\": 1} , {\"id\" : 2 } ]}",
        "{\"items\": [{\"name\": \"x\u{7}\"}]}",
        "{\"items\": [{\"name\": {\"a\": 1}}]}",
    ])
    func flatRecordsAgreeWithNext(text: String) throws {
        let result = try JSONInPlaceTests.both(text, fields: ["id": "id", "name": "name", "ok": "ok", "n": "n"])
        #expect(result.raw == result.records)
        #expect(result.rawError == result.error)
    }
}
