import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// `--mode sync` where a deleted row has join rows (a many-to-many) or an external file: both go with
/// the row, and the store equals a new build from the same sources (up to `Z_PK`, `Z_OPT`).
@Suite struct SyncJoinAndFileTests {
    /// Item.tags ↔ Tag.items, many-to-many, Nullify both ways (a count through a join table cannot be
    /// derived: CoreSeed refuses it, so the counts are read from the join table).
    static func prepareTags() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("T", """
            <entity name="Item"><attribute name="code" attributeType="String"/>
              <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/></entity>
            <entity name="Tag"><attribute name="label" attributeType="String"/>
              <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/></entity>
            """)
        try scratch.write("spec.json", """
            { "model": "T.xcdatamodeld", "output": "S.sqlite",
              "sources": { "i": { "csv": "items.csv" }, "t": { "csv": "tags.csv" } },
              "entities": { "Tag": { "from": "t", "key": "label" },
                            "Item": { "from": "i", "key": "code", "relationships": { "tags": { "key": "tags", "separator": " " } } } } }
            """)
        try scratch.write("tags.csv", "label\nred\ngreen\nblue\n")
        try scratch.write("items.csv", "code,tags\ni1,red green\ni2,green blue\ni3,red blue\ni4,blue\n")
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        return scratch
    }

    /// Every item with its tags and every tag with its number of items, as natural keys.
    static func links(_ scratch: Scratch, _ store: String) throws -> [[String]] {
        let (join, item, tag) = try Self.joinNames(scratch, store)
        return try scratch.query(store, """
            SELECT 'I', i.ZCODE, coalesce((SELECT group_concat(ZLABEL, ' ') FROM (SELECT t.ZLABEL FROM \(join) j JOIN ZTAG t ON t.Z_PK = j.\(tag) WHERE j.\(item) = i.Z_PK ORDER BY 1)), '') FROM ZITEM i
            UNION ALL SELECT 'T', t.ZLABEL, (SELECT count(*) FROM \(join) j WHERE j.\(tag) = t.Z_PK) FROM ZTAG t ORDER BY 1, 2
            """)
    }

    /// The join table and its two key columns, read from the store (their names are Core Data's choice).
    static func joinNames(_ scratch: Scratch, _ store: String) throws -> (String, String, String) {
        let table = try scratch.query(store, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z!_%' ESCAPE '!' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')")
        #expect(table.count == 1, "\(table)")
        let name = table[0][0]
        let columns = try scratch.query(store, "SELECT name FROM pragma_table_info('\(name)') ORDER BY cid").map { $0[0] }
        let item = columns.first { $0.hasSuffix("ITEMS") }!, tag = columns.first { $0.hasSuffix("TAGS") }!
        return (name, item, tag)
    }

    @Test func aManyToManyLosesRowsOnBothSides() throws {
        let scratch = try Self.prepareTags()
        // i2 goes (its join rows with green and blue go); red goes (its join rows with i1 and i3 go).
        try scratch.write("tags.csv", "label\ngreen\nblue\n")
        try scratch.write("items.csv", "code,tags\ni1,green\ni3,blue\ni4,blue\n")
        let sync = try scratch.run(["build", "spec.json", "--into", "S.sqlite", "--mode", "sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("2 deleted (Item 1; Tag 1)"), "\(sync.stdout)")
        let (join, _, _) = try Self.joinNames(scratch, "S.sqlite")
        #expect(try scratch.query("S.sqlite", "SELECT count(*) FROM \(join)") == [["3"]])
        #expect(try Self.links(scratch, "S.sqlite") == [["I", "i1", "green"], ["I", "i3", "blue"], ["I", "i4", "blue"],
                                                        ["T", "blue", "2"], ["T", "green", "1"]])
        #expect(try scratch.run(["build", "spec.json", "--output", "F.sqlite", "--quiet"]).status == 0)
        #expect(try Self.links(scratch, "S.sqlite") == Self.links(scratch, "F.sqlite"))
        let verify = try scratch.run(["verify", "S.sqlite", "--model", "T.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func aDeletedRowsExternalFileGoes() throws {
        let scratch = try Scratch()
        try scratch.writeModel("R", """
            <entity name="Recipe"><attribute name="name" attributeType="String"/>
              <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/></entity>
            """)
        try scratch.write("spec.json", """
            { "model": "R.xcdatamodeld", "output": "out/R.sqlite", "externalAbove": 4, "sources": { "r": { "csv": "r.csv" } },
              "entities": { "Recipe": { "from": "r", "key": "name", "attributes": { "photo": { "field": "photo", "base64": true } } } } }
            """)
        try scratch.write("r.csv", "name,photo\nA,AAECAwQFBgcICQ==\nB,AAECAwQFBgcICQoL\nC,AAEC\n")
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let folder = "out/.R_SUPPORT/_EXTERNAL_DATA"
        let files = { ((try? FileManager.default.contentsOfDirectory(atPath: scratch.path(folder))) ?? []).sorted() }
        #expect(files().count == 2)
        let referenceOfA = try scratch.query("out/R.sqlite", "SELECT hex(ZPHOTO) FROM ZRECIPE WHERE ZNAME = 'A'")[0][0]
        try scratch.write("r.csv", "name,photo\nA,AAECAwQFBgcICQ==\nC,AAEC\n")
        let sync = try scratch.run(["build", "spec.json", "--into", "out/R.sqlite", "--mode", "sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("1 deleted (Recipe 1)"), "\(sync.stdout)")
        // B's file is gone; A's stays, still referenced by the same bytes.
        #expect(files().count == 1)
        #expect(try scratch.query("out/R.sqlite", "SELECT hex(ZPHOTO) FROM ZRECIPE WHERE ZNAME = 'A'")[0][0] == referenceOfA)
        let verify = try scratch.run(["verify", "out/R.sqlite", "--model", "R.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        // A dry run of the next deletion keeps the file.
        try scratch.write("r.csv", "name,photo\nC,AAEC\n")
        #expect(try scratch.run(["build", "spec.json", "--into", "out/R.sqlite", "--mode", "sync", "--dry-run", "--allow-deletes"]).status == 0)
        #expect(files().count == 1)
    }
}
