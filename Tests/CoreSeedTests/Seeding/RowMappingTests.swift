import Foundation
import Testing
@testable import CoreSeed

/// `RowMapping` on its own: records given in memory (`RecordInput`), the row batch read back, no
/// reader, no store and no binary. One model has every way a column is filled that a plain entity
/// has: the row's own columns, a String, a Date in a legacy pattern, an Integer and an external-storage
/// Binary whose values above 4 bytes go to files.
@Suite struct RowMappingTests {
    /// A value as the SQLite side binds it, decoded from a `RowBatch`.
    enum Bound: Equatable {
        case null, integer(Int64), real(Double), text(String), blob([UInt8])
        case external([UInt8], table: String, column: String, primaryKey: Int64)
    }

    static func bound(_ batch: RowBatch) -> [Bound] {
        batch.values.map { value in
            switch value {
            case .null: .null
            case .integer(let number): .integer(number)
            case .real(let number): .real(number)
            case .text(let start, let count): .text(String(decoding: batch.bytes[Int(start)..<Int(start + count)], as: UTF8.self))
            case .blob(let start, let count): .blob(Array(batch.bytes[Int(start)..<Int(start + count)]))
            case .external(let start, let count, let file):
                .external(Array(batch.bytes[Int(start)..<Int(start + count)]), table: batch.files[Int(file)].table,
                          column: batch.files[Int(file)].column, primaryKey: batch.files[Int(file)].primaryKey)
            }
        }
    }

    /// The plan of the `Photo` model and spec, with `attributes` and `onBlank` as given.
    static func plan(_ folder: SeedBuildTests.Folder, onBlank: String = "keep") throws -> BuildPlan {
        try folder.write("Library.xcdatamodeld/Library.xcdatamodel/contents", """
            <?xml version="1.0" encoding="UTF-8"?>
            <model userDefinedModelVersionIdentifier="">
              <entity name="Photo">
                <attribute name="code" attributeType="String"/>
                <attribute name="count" optional="YES" attributeType="Integer 32"/>
                <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <attribute name="taken" optional="YES" attributeType="Date"/>
              </entity>
            </model>
            """)
        try folder.write("photos.csv", "code,taken,count,image\n")
        try folder.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite", "sources": { "photos": { "csv": "photos.csv" } },
              "entities": { "Photo": { "from": "photos", "key": "code", "onBlank": "\(onBlank)",
                "attributes": { "taken": { "field": "taken", "date": "d-MMM-yy" }, "image": { "field": "image", "externalAbove": 4 } } } } }
            """)
        return try SeedBuildTests.plan(folder)
    }

    static func record(_ values: FieldValue..., line: Int = 2) -> RecordInput {
        RecordInput(record: Record(location: SourceLocation(file: "photos.csv", line: line), values: values))
    }

    /// The bound value of each named column for one mapped record (an insert unless `update`).
    static func map(_ mapping: RowMapping, _ input: RecordInput, ordinal: Int = 0, primaryKey: Int64 = 5,
                    numbers: EntityNumbers = EntityNumbers(slots: []), update: [Int32?]? = nil,
                    rejections: inout Rejections) throws -> [String: Bound] {
        var input = input, batch = RowBatch()
        let count = try mapping.map(&input, ordinal: ordinal, primaryKey: primaryKey, numbers: numbers, update: update, into: &batch, rejections: &rejections)
        let values = bound(batch)
        #expect(values.count == count)
        let bound = mapping.columns.indices.filter { offset in
            if let update { return update[offset] != nil }
            switch mapping.columns[offset] {
            case .entityNumber, .optimisticLock: return false
            case .primaryKey: return !mapping.numberedByInsertion
            default: return true
            }
        }
        return Dictionary(uniqueKeysWithValues: zip(bound.map { mapping.columnNames[$0] }, values))
    }

    static func kind(_ column: RowMapping.Column) -> String {
        switch column {
        case .primaryKey: "primaryKey"
        case .entityNumber: "entityNumber"
        case .optimisticLock: "optimisticLock"
        case .null: "null"
        case .value(let fill): "value(\(fill.attribute.name))"
        case .external(let fill, let above): "external(\(fill.attribute.name), above: \(above.map(String.init) ?? "nil"))"
        case .toOne(let slot): "toOne(\(slot))"
        case .toOneEntity(let slot): "toOneEntity(\(slot))"
        case .toOneOrder(let slot): "toOneOrder(\(slot))"
        }
    }

    /// The plan decides once how each column is filled; "is it external?" is the mapping's column, not the coercer's.
    @Test func eachColumnIsFilledOneWayDecidedFromThePlan() throws {
        let folder = try SeedBuildTests.Folder()
        let mapping = RowMapping.mappings(try Self.plan(folder), numberedByInsertion: [true])[0][0]
        let kinds = Dictionary(uniqueKeysWithValues: zip(mapping.columnNames, mapping.columns.map(Self.kind)))
        #expect(kinds == ["Z_PK": "primaryKey", "Z_ENT": "entityNumber", "Z_OPT": "optimisticLock", "ZCODE": "value(code)",
                          "ZCOUNT": "value(count)", "ZIMAGE": "external(image, above: 4)", "ZTAKEN": "value(taken)"])
        #expect(mapping.tableName == "ZPHOTO" && mapping.entityName == "Photo" && mapping.entityNumber == 1)
    }

    /// An insert binds the attributes (SQLite numbers the row and the statement holds Z_ENT and Z_OPT);
    /// without numbering by insertion, Z_PK too. The date is 2010-03-26 in UTC, seconds since 2001.
    @Test func anInsertBindsEachAttributeOnce() throws {
        let folder = try SeedBuildTests.Folder()
        let plan = try Self.plan(folder)
        var rejections = Rejections(limit: 0)
        let input = Self.record(.text("p1"), .text("26-Mar-10"), .text("7"), .text("abc"))
        let numbered = try Self.map(RowMapping.mappings(plan, numberedByInsertion: [true])[0][0], input, rejections: &rejections)
        #expect(numbered == ["ZCODE": .text("p1"), "ZTAKEN": .real(291_254_400), "ZCOUNT": .integer(7), "ZIMAGE": .blob([0x01] + Array("abc".utf8))])
        let keyed = try Self.map(RowMapping.mappings(plan, numberedByInsertion: [false])[0][0], input, primaryKey: 9, rejections: &rejections)
        #expect(keyed["Z_PK"] == .integer(9) && keyed.count == 5)
        #expect(rejections.errors.isEmpty)
    }

    /// The external-storage marker is added once, where the column value is made: 0x01 + the bytes
    /// inline up to `externalAbove`; above it the bytes themselves travel, with the file's table,
    /// column and Z_PK, for the store side to write; NULL stays NULL.
    @Test(arguments: [("abcd", Bound.blob([0x01] + Array("abcd".utf8))),
                      ("abcde", Bound.external(Array("abcde".utf8), table: "ZPHOTO", column: "ZIMAGE", primaryKey: 5)),
                      ("", Bound.null)])
    func anExternalValueIsInlineOrAFile(image: String, expected: Bound) throws {
        let folder = try SeedBuildTests.Folder()
        let mapping = RowMapping.mappings(try Self.plan(folder), numberedByInsertion: [true])[0][0]
        var rejections = Rejections(limit: 0)
        let row = try Self.map(mapping, Self.record(.text("p1"), .null, .null, .text(image)), rejections: &rejections)
        #expect(row["ZIMAGE"] == expected)
    }

    /// Whatever path a value takes (the byte path for the text, integer and date here, the general one
    /// for the rest), it is what the attribute-value rule gives for the record.
    @Test func theFastPathAgreesWithTheGeneralOne() throws {
        let folder = try SeedBuildTests.Folder()
        let mapping = RowMapping.mappings(try Self.plan(folder), numberedByInsertion: [true])[0][0]
        let records: [[FieldValue]] = [
            [.text("p1"), .text("26-Mar-10"), .text("7"), .text("abc")], [.text(" padded "), .text(" 1-Jan-00 "), .text(" -3 "), .null],
            [.text("p3"), .text(""), .text(""), .text("")], [.text("Zürich"), .null, .integer(2_147_483_647), .text("x")],
            [.text("n"), .text("26-mar-2010"), .text("12.000"), .blob([1, 2])]]
        for values in records {
            var rejections = Rejections(limit: 10)
            let input = RecordInput(record: Record(location: SourceLocation(file: "photos.csv", line: 2), values: values))
            let row = try Self.map(mapping, input, rejections: &rejections)
            for (offset, column) in mapping.columns.enumerated() {
                let general: SQLiteValue
                switch column {
                case .value(let fill), .external(let fill, _):
                    do { general = try fill.value(input.full) } catch { general = .null }
                default: continue
                }
                let expected: Bound = switch (column, general) {
                case (.external, .blob(let bytes)): .blob([0x01] + bytes)
                case (_, .null): .null
                case (_, .integer(let number)): .integer(number)
                case (_, .real(let number)): .real(number)
                case (_, .text(let text)): .text(text)
                case (_, .blob(let bytes)): .blob(bytes)
                }
                #expect(row[mapping.columnNames[offset]] == expected, "\(values) \(mapping.columnNames[offset])")
            }
        }
    }

    /// A value the rule refuses is rejected with its record's location and bound as NULL; one more than
    /// `--max-errors` fails the build.
    @Test func aRefusedValueIsRejectedAndBoundAsNull() throws {
        let folder = try SeedBuildTests.Folder()
        let mapping = RowMapping.mappings(try Self.plan(folder), numberedByInsertion: [true])[0][0]
        var tolerant = Rejections(limit: 1)
        let row = try Self.map(mapping, Self.record(.text("p1"), .text("31-Feb-10"), .text("7"), .null, line: 4), rejections: &tolerant)
        #expect(row["ZTAKEN"] == .null && row["ZCOUNT"] == .integer(7))
        #expect(tolerant.errors.map { "\($0.location.line ?? 0) \($0.entity).\($0.attribute) \($0.field)" } == ["4 Photo.taken taken"])
        var strict = Rejections(limit: 0)
        #expect(throws: BuildFailure.self) {
            _ = try Self.map(mapping, Self.record(.text("p1"), .text("31-Feb-10"), .null, .null), rejections: &strict)
        }
    }

    /// An update binds only the columns its statement names; with `onBlank: keep` a blank field binds
    /// NULL there (the update's COALESCE keeps the stored value), while a new row stores a String's
    /// blank text as it is.
    @Test func anUpdateBindsItsParametersAndKeepsBlanks() throws {
        let folder = try SeedBuildTests.Folder()
        let mapping = RowMapping.mappings(try Self.plan(folder), numberedByInsertion: [false])[0][0]
        #expect(mapping.keepsBlanks)
        let parameters = mapping.columnNames.map { ["ZCODE", "ZCOUNT"].contains($0) ? Int32(1) : nil }
        var rejections = Rejections(limit: 0)
        let input = Self.record(.text("  "), .null, .text("8"), .text("abc"))
        let updated = try Self.map(mapping, input, update: parameters, rejections: &rejections)
        #expect(updated == ["ZCODE": .null, "ZCOUNT": .integer(8)])
        let inserted = try Self.map(mapping, input, rejections: &rejections)
        #expect(inserted["ZCODE"] == .text("  ") && inserted.count == 5)
    }

    /// To-one columns come from the key pass's numbers (0 is NULL), or, numbered as read, from the same record.
    @Test func toOneColumnsComeFromTheEntityNumbers() throws {
        let folder = try SeedBuildTests.Folder()
        let plan = try SeedBuildTests.plan(folder)
        let book = try #require(plan.seedPlan.entities.firstIndex { $0.name == "Book" })
        let mapping = RowMapping.mappings(plan, numberedByInsertion: [false, false])[book][0]
        let slot = try #require(plan.seedPlan.entities[book].toOneSlots.firstIndex(of: "shelf"))
        var numbers = EntityNumbers(primaryKeys: [1, 2])
        numbers.toOneKeys = Array(repeating: [0, 0], count: slot + 1)
        numbers.toOneKeys[slot] = [0, 2]
        numbers.toOneEntities = Array(repeating: [], count: slot + 1)
        numbers.toOneOrders = Array(repeating: [], count: slot + 1)
        var rejections = Rejections(limit: 0)
        let input = RecordInput(record: Record(location: SourceLocation(file: "books.csv"), values: [.text("1"), .text("Alpha"), .text("A")]))
        for (ordinal, expected) in [(0, Bound.null), (1, Bound.integer(2))] {
            let row = try Self.map(mapping, input, ordinal: ordinal, primaryKey: Int64(ordinal + 1), numbers: numbers, rejections: &rejections)
            #expect(row["ZSHELF"] == expected)
        }
        // Numbered as read: the slot's row is the same record's (its ordinal + 1), from no key pass.
        let asRead = EntityNumbers(slots: Array(repeating: .sameRecord(entityNumber: 2), count: slot + 1))
        let row = try Self.map(mapping, input, ordinal: 6, primaryKey: 7, numbers: asRead, rejections: &rejections)
        #expect(row["ZSHELF"] == .integer(7))
    }
}
