import Foundation
import Testing
@testable import CoreSeed

/// The key pass where two entities read the same records and are keyed alike (the tutorial's
/// one-to-one from one list): they share one key index until a record would make theirs differ, and
/// a link along the shared key finds the same record without a look-up. Each case pins the rows the
/// key pass gave before either shortcut existed.
@Suite struct KeyPassTests {
    /// `Info` 1–1 `Details`, both from `pairs.csv` keyed by `id`, under one duplicate policy.
    static func build(_ csv: String, key: String = "id", policy: String, maxErrors: Int) throws -> (info: [[SQLiteValue]], details: [[SQLiteValue]], lines: [Int]) {
        let folder = try SeedBuildTests.Folder()
        try folder.write("Pairs.xcdatamodeld/Pairs.xcdatamodel/contents", """
            <?xml version="1.0" encoding="UTF-8"?>
            <model userDefinedModelVersionIdentifier="">
              <entity name="Details">
                <attribute name="id" attributeType="Integer 64"/>
                <attribute name="size" optional="YES" attributeType="Integer 32"/>
                <relationship name="info" optional="YES" maxCount="1" destinationEntity="Info" inverseName="details" inverseEntity="Info"/>
              </entity>
              <entity name="Info">
                <attribute name="id" attributeType="Integer 64"/>
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="details" optional="YES" maxCount="1" destinationEntity="Details" inverseName="info" inverseEntity="Details"/>
              </entity>
            </model>
            """)
        try folder.write("pairs.csv", csv)
        try folder.write("spec.json", """
            { "model": "Pairs.xcdatamodeld", "output": "Pairs.sqlite", "sources": { "pairs": { "csv": "pairs.csv" } },
              "entities": {
                "Info": { "from": "pairs", "key": "\(key)", "onDuplicateKey": "\(policy)", "attributes": { "id": "id", "name": "name" },
                          "relationships": { "details": { "key": "\(key)" } } },
                "Details": { "from": "pairs", "key": "\(key)", "onDuplicateKey": "\(policy)", "attributes": { "id": "id", "size": "size" } } } }
            """)
        var options = SeedBuild.Options()
        options.maxErrors = maxErrors
        let report = try SeedBuild.run(specPath: folder.path("spec.json"), options: options)
        let store = try SQLiteDatabase(path: folder.path("Pairs.sqlite"), mode: .readOnly(immutable: true))
        return (try store.rows("SELECT Z_PK, ZID, ZNAME, ZDETAILS FROM ZINFO ORDER BY Z_PK"),
                try store.rows("SELECT Z_PK, ZID, ZSIZE, ZINFO FROM ZDETAILS ORDER BY Z_PK"),
                report.rejected.compactMap(\.location.line))
    }

    static func row(_ values: Any?...) -> [SQLiteValue] {
        values.map { value in
            switch value {
            case let number as Int: .integer(Int64(number))
            case let text as String: .text(text)
            default: .null
            }
        }
    }

    /// A value only `Details` rejects (line 3) parts the indexes: `Info` keeps the first record with
    /// id 2 and `Details` the later one (line 5), which `Info`'s id 2 then links to.
    @Test func aValueOneEntityRejectsPartsTheIndexes() throws {
        let built = try Self.build("id,name,size\n1,Alpha,10\n2,Beta,x\n3,Gamma,30\n2,Beta2,20\n1,Delta,40\n", policy: "first", maxErrors: 5)
        #expect(built.lines == [3])
        #expect(built.info == [Self.row(1, 1, "Alpha", 1), Self.row(2, 2, "Beta", 3), Self.row(3, 3, "Gamma", 2)])
        #expect(built.details == [Self.row(1, 1, 10, 1), Self.row(2, 3, 30, 3), Self.row(3, 2, 20, 2)])
    }

    /// A repeated key under `last`: both entities keep the last record of each id, linked to each other.
    @Test func aRepeatedKeyUnderLastKeepsTheLastRecordInBoth() throws {
        let built = try Self.build("id,name,size\n1,Alpha,10\n2,Beta,20\n1,Gamma,30\n", policy: "last", maxErrors: 0)
        #expect(built.lines.isEmpty)
        #expect(built.info == [Self.row(1, 2, "Beta", 1), Self.row(2, 1, "Gamma", 2)])
        #expect(built.details == [Self.row(1, 2, 20, 1), Self.row(2, 1, 30, 2)])
    }

    /// Text keys (no shared index: it holds integer keys only), no repeat: every record linked to its own pair.
    @Test func textKeysLinkRecordToRecord() throws {
        let built = try Self.build("id,name,size\n7,Alpha,1\n9,Beta,2\n8,Gamma,3\n", key: "name", policy: "first", maxErrors: 0)
        #expect(built.info == [Self.row(1, 7, "Alpha", 1), Self.row(2, 9, "Beta", 2), Self.row(3, 8, "Gamma", 3)])
        #expect(built.details == [Self.row(1, 7, 1, 1), Self.row(2, 9, 2, 2), Self.row(3, 8, 3, 3)])
    }
}
