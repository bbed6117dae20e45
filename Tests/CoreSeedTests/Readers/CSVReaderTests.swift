import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

@Suite struct CSVReaderTests {
    func texts(_ records: [Record]) -> [[String]] {
        records.map { $0.values.map { if case .text(let s) = $0 { return s } else { return "?" } } }
    }

    @Test func banklistHasTheSixHeaderFieldsAnd233Records() throws {
        let reader = try CSVReader(path: TestPaths.inputs.appendingPathComponent("fdic-2011/banklist.csv").path)
        #expect(reader.fieldNames == ["Bank Name", "City", "State", "CERT #", "Closing Date", "Updated Date"])
        let records = try reader.all()
        #expect(records.count == 233)
        #expect(records[0].values == [.text("Desert Hills Bank"), .text("Phoenix"), .text("AZ"), .text("57060"), .text("26-Mar-10"), .text("26-Mar-10")])
        #expect(records[0].location.line == 2 && records[0].location.column == 1)
        #expect(records[232].location.line == 234)
    }

    @Test(arguments: ["\n", "\r\n", "\r"])
    func lineEnds(_ end: String) throws {
        let scratch = try Scratch()
        let path = try scratch.file("a.csv", "a,b\(end)1,2\(end)\"x\(end)y\",3\(end)4,\(end)\(end)")
        let reader = try CSVReader(path: path)
        let records = try reader.all()
        #expect(texts(records) == [["1", "2"], ["x\(end)y", "3"], ["4", ""]])
        #expect(records.map { $0.location.line } == [2, 3, 5])
        #expect(records[1].fieldColumns == [1, 4])  // "3" is on the record's second line
    }

    @Test func quotesDoubledAndDelimitersInside() throws {
        let scratch = try Scratch()
        let path = try scratch.file("q.csv", "name,note\n\"Smith, J\",\"say \"\"hi\"\"\"\n\"\",\n")
        let records = try CSVReader(path: path).all()
        #expect(texts(records) == [["Smith, J", "say \"hi\""], ["", ""]])
    }

    @Test func unquotedEmptyIsNullOnlyWhenAsked() throws {
        let scratch = try Scratch()
        let path = try scratch.file("n.csv", "a,b,c\n,\"\",x\n")
        #expect(try CSVReader(path: path).all().map(\.values) == [[.text(""), .text(""), .text("x")]])
        var options = CSVOptions()
        options.nullIfUnquotedEmpty = true
        #expect(try CSVReader(path: path, options: options).all().map(\.values) == [[.null, .text(""), .text("x")]])
    }

    @Test func projectionLeavesUnwantedFieldsUnreadButStillChecked() throws {
        let scratch = try Scratch()
        let path = try scratch.file("p.csv", "a,b\n1,2\n")
        let reader = try CSVReader(path: path)
        reader.project([false, true])
        #expect(try reader.all().map(\.values) == [[.null, .text("2")]])
        // An invalid byte in an unwanted field is still an error: a projection never hides one.
        let bad = try scratch.file("bad.csv", Array("a,b\n".utf8) + [0xE9] + Array(",2\n".utf8))
        let badReader = try CSVReader(path: bad)
        badReader.project([false, true])
        #expect(throws: ReaderError.self) { _ = try badReader.all() }
    }

    @Test func byteOrderMarkIsRemoved() throws {
        let scratch = try Scratch()
        let path = try scratch.file("bom.csv", [0xEF, 0xBB, 0xBF] + Array("City,Zip\nParis,75001\n".utf8))
        let reader = try CSVReader(path: path)
        #expect(reader.fieldNames == ["City", "Zip"])
        #expect(texts(try reader.all()) == [["Paris", "75001"]])
    }

    @Test func windows1252IsTranscoded() throws {
        let scratch = try Scratch()
        let path = try scratch.file("w.csv", Array("a,b\nCaf".utf8) + [0xE9, 0x2C, 0x80, 0x0A])
        let reader = try CSVReader(path: path, options: CSVOptions(encoding: .windows1252))
        #expect(texts(try reader.all()) == [["Café", "€"]])
        let latin = try CSVReader(path: path, options: CSVOptions(encoding: .isoLatin1))
        #expect(texts(try latin.all()) == [["Café", "\u{80}"]])
    }

    @Test func utf16LittleEndianWithBOMAndBigEndianDeclared() throws {
        let scratch = try Scratch()
        let text = "név,😀\n\"a\nb\",é\n"
        let le: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let reader = try CSVReader(path: try scratch.file("le.csv", le))
        #expect(reader.fieldNames == ["név", "😀"])
        #expect(texts(try reader.all()) == [["a\nb", "é"]])
        let be: [UInt8] = text.utf16.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let bigEndian = try CSVReader(path: try scratch.file("be.csv", be), options: CSVOptions(encoding: .utf16BE))
        #expect(texts(try bigEndian.all()) == [["a\nb", "é"]])
    }

    @Test func tabDelimiterNoHeaderAndTrim() throws {
        let scratch = try Scratch()
        let path = try scratch.file("t.tsv", " a \t \"b \" \n1\t2\n")
        let reader = try CSVReader(path: path, options: CSVOptions(delimiter: 9, header: false, trim: .values))
        #expect(reader.fieldNames == ["1", "2"])
        let records = try reader.all()
        #expect(texts(records) == [["a", "b "], ["1", "2"]])
        #expect(records[0].fieldColumns == [2, 6])
    }

    @Test func smallBufferGivesTheSameRecordsAsALargeOne() throws {
        let scratch = try Scratch()
        var text = "id,text,more\r\n"
        for i in 0..<500 { text += "\(i),\"line one, é\r\nline \"\"two\"\"\",plain \(i)\r\n" }
        let path = try scratch.file("big.csv", text)
        let small = try CSVReader(path: path, bufferSize: 64).all()
        let large = try CSVReader(path: path).all()
        #expect(small == large)
        #expect(small.count == 500)
        #expect(small[499].location.line == 2 + 499 * 2)
        #expect(small[3].values[1] == .text("line one, é\r\nline \"two\""))
    }

    /// The build's byte path: every record read with `nextRaw()` has the fields `next()` gives (text as
    /// bytes, NULL as nil), the same `Record` on demand, and the same error at the same place.
    @Test(arguments: [false, true])
    func rawFieldsEqualTheRecords(trimmedWithNulls: Bool) throws {
        var options = CSVOptions(trim: trimmedWithNulls ? .both : .none)
        options.nullIfUnquotedEmpty = trimmedWithNulls
        let scratch = try Scratch()
        var text = "id,text,more\r\n"
        let pad = trimmedWithNulls ? " " : ""
        for i in 0..<300 { text += "\(i),\(pad)\"a \"\"b\"\", é\r\nc\"\(pad),\(i % 3 == 0 ? "" : "plain \(i)")\r\n" }
        let path = try scratch.file("raw.csv", text + "x,y\n")
        let records = try CSVReader(path: path, options: options, bufferSize: 64)
        let raw = try CSVReader(path: path, options: options, bufferSize: 64)
        #expect(raw.readsRaw)
        for _ in 0..<300 {
            let record = try #require(try records.next())
            #expect(try raw.nextRaw())
            for (index, value) in record.values.enumerated() {
                let bytes = raw.rawField(index).map { String(decoding: $0, as: UTF8.self) }
                if case .text(let text) = value { #expect(bytes == text) } else { #expect(value == .null && bytes == nil) }
            }
            #expect(try raw.currentRecord() == record)
        }
        #expect(readerError { _ = try raw.nextRaw() }?.diagnosticLines == readerError { _ = try records.next() }?.diagnosticLines)
        #expect(readerError { _ = try raw.nextRaw() } != nil)
    }

    /// `comment`: lines that begin with it are skipped, before the header too, whatever they hold (a
    /// lone quote, a CR line end), and records keep their own line numbers; in a small buffer too.
    @Test(arguments: [64, 1 << 20])
    func commentLinesAreSkipped(bufferSize: Int) throws {
        let scratch = try Scratch()
        let path = try scratch.file("c.tab", "# tzdb\r\n#\na,b\n#x,\"y\n1,2\n" + String(repeating: "#" + String(repeating: "z", count: 90) + "\n", count: 3) + "3,4\n# end")
        var options = CSVOptions()
        options.comment = UInt8(ascii: "#")
        let reader = try CSVReader(path: path, options: options, bufferSize: bufferSize)
        #expect(reader.fieldNames == ["a", "b"])
        let records = try reader.all()
        #expect(records.map(\.values) == [[.text("1"), .text("2")], [.text("3"), .text("4")]])
        #expect(records.map { $0.location.line } == [5, 9])
        // Without `comment`, the first line is the header.
        #expect(try CSVReader(path: path).fieldNames == ["# tzdb"])
    }

    /// `ragged`: a short row reads NULL for the fields it lacks, by `next()` and in place; a long one is an error.
    @Test func raggedRowsReadNullForMissingFields() throws {
        let scratch = try Scratch()
        let path = try scratch.file("r.csv", "a,b,c\n1\n1,2\n1,2,3\n1,2,3,4\n")
        var options = CSVOptions()
        options.ragged = true
        let reader = try CSVReader(path: path, options: options)
        var records: [[FieldValue]] = []
        let error = readerError { while let record = try reader.next() { records.append(record.values) } }
        let expected: [[FieldValue]] = [[.text("1"), .null, .null], [.text("1"), .text("2"), .null], [.text("1"), .text("2"), .text("3")]]
        #expect(records == expected)
        #expect(error?.diagnosticLines.first == "\(path):5:1: error: row has 4 fields, expected 3 (as in the header)")
        let raw = try CSVReader(path: path, options: options)
        var rawRecords: [[FieldValue]] = []
        for _ in 0..<3 {
            #expect(try raw.nextRaw())
            rawRecords.append((0..<3).map { raw.rawField($0).map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null })
            #expect(try raw.currentRecord().values == rawRecords.last)
        }
        #expect(rawRecords == expected)
        #expect(readerError { _ = try raw.nextRaw() } != nil)
        // Without `ragged`, the short row is the error.
        #expect(readerError { _ = try CSVReader(path: path).all() }?.diagnosticLines.first == "\(path):2:1: error: row has 1 field, expected 3 (as in the header)")
    }

    /// `"header": [names]`: the fields are named by the spec and the first row is data, read in place too.
    @Test func headerAsAListNamesTheFields() throws {
        let scratch = try Scratch()
        let path = try scratch.file("h.tab", "1\t2\n3\n")
        let options = try JSONDecoder().decode(SourceSpec.self, from: Data(#"{"csv": "h.tab", "delimiter": "\t", "header": ["x", "y"], "ragged": true, "comment": ";"}"#.utf8))
        guard case .csv(_, let csv) = options else { Issue.record("not a CSV source"); return }
        #expect(csv.names == ["x", "y"] && !csv.header && csv.ragged && csv.comment == UInt8(ascii: ";"))
        let reader = try CSVReader(path: path, options: csv)
        #expect(reader.fieldNames == ["x", "y"])
        #expect(reader.readsRaw)
        #expect(try reader.all().map(\.values) == [[.text("1"), .text("2")], [.text("3"), .null]])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SourceSpec.self, from: Data(#"{"csv": "h.tab", "header": ["x", "x"]}"#.utf8)) }
    }

    // MARK: errors

    func expectError(_ name: String, _ bytes: [UInt8], options: CSVOptions = CSVOptions(),
                     _ lines: @escaping (String) -> [String]) throws {
        let scratch = try Scratch()
        let path = try scratch.file(name, bytes)
        let error = readerError {
            let reader = try CSVReader(path: path, options: options)
            _ = try reader.all()
        }
        #expect(error?.diagnosticLines == lines(path))
        #expect(error?.kind == .invalid)  // exit 1
    }

    @Test func unterminatedQuotePointsAtTheQuote() throws {
        try expectError("u.csv", Array("a,b\n1,2\nxy,\"open\nmore\n".utf8)) {
            ["\($0):3:4: error: unterminated quoted field (the quote opens here)"]
        }
    }

    @Test func fieldCountAgainstHeaderAndFirstRow() throws {
        try expectError("n.csv", Array("a,b,c\n1,2,3\n4,5\n".utf8)) {
            ["\($0):3:1: error: row has 2 fields, expected 3 (as in the header)",
             "note: quote fields that contain the delimiter or a line break"]
        }
        try expectError("m.csv", Array("1,2\n3\n".utf8), options: CSVOptions(header: false)) {
            ["\($0):2:1: error: row has 1 field, expected 2 (as in the first row)",
             "note: quote fields that contain the delimiter or a line break"]
        }
    }

    @Test func invalidUTF8NamesTheByteAndSuggestsAnEncoding() throws {
        try expectError("old.csv", Array("name,city\n\"x\ny\",Caf".utf8) + [0xE9] + Array("\n".utf8)) {
            ["\($0):3:7: error: invalid UTF-8 byte 0xE9",
             "note: declare the file's encoding, e.g. \"encoding\": \"windows-1252\""]
        }
    }

    @Test func duplicateHeaderName() throws {
        try expectError("x.csv", Array("City,State,City\n".utf8)) {
            ["\($0):1:12: error: duplicate header name 'City'"]
        }
    }

    @Test func characterAfterClosingQuote() throws {
        try expectError("c.csv", Array("a,b\n\"x\"y,2\n".utf8)) {
            ["\($0):2:4: error: unexpected 'y' after a closing quote",
             "note: a quote inside a quoted field is written twice (\"\")"]
        }
    }

    @Test func emptyFileWithHeader() throws {
        try expectError("e.csv", []) {
            ["\($0):1:1: error: the file is empty, expected a header row",
             "note: set \"header\": false for a file without a header row"]
        }
    }

    @Test func unpairedSurrogateInUTF16() throws {
        let bytes: [UInt8] = [0xFF, 0xFE, 0x61, 0, 0x0A, 0, 0x62, 0, 0x00, 0xD8, 0x63, 0]
        try expectError("s.csv", bytes) { ["\($0):2:2: error: invalid UTF-16: unpaired surrogate 0xD800"] }
    }

    @Test func missingFileExits66() throws {
        let error = readerError { _ = try CSVReader(path: "/nonexistent/dir/none.csv") }
        #expect(error?.diagnosticLines == ["/nonexistent/dir/none.csv: error: no such file"])
        #expect(error?.kind == .unreadableInput)  // exit 66
    }

    @Test func failureIsSticky() throws {
        let scratch = try Scratch()
        let path = try scratch.file("s.csv", "a,b\n1,2\n3\n5,6\n")
        let reader = try CSVReader(path: path)
        #expect(try reader.next() != nil)
        let first = readerError { _ = try reader.next() }
        let second = readerError { _ = try reader.next() }
        #expect(first != nil && first == second)
    }
}
