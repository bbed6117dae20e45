import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// `verify` checks derived values, inverse consistency and `Z_FOK_` orders with code of its own
/// (issue 23, item 3): a store is built, one row is changed behind CoreSeed's back with plain SQL for
/// each check, and the report must name that row (its table, the entity or relationship, its `Z_PK`).
@Suite struct VerifyIndependenceTests {
    /// Items on ordered shelves (with a derived count), books with tags (many-to-many, ordered on the tag side),
    /// people with a favourite item (a destination with sub-entities), a book they read and a passport (one-to-one).
    static let model = """
        <?xml version="1.0" encoding="UTF-8"?>
        <model userDefinedModelVersionIdentifier="">
          <entity name="Item" isAbstract="YES">
            <attribute name="code" attributeType="String"/>
            <relationship name="shelf" optional="YES" maxCount="1" destinationEntity="Shelf" inverseName="items" inverseEntity="Shelf"/>
            <relationship name="admirers" optional="YES" toMany="YES" destinationEntity="Person" inverseName="favorite" inverseEntity="Person"/>
          </entity>
          <entity name="Book" parentEntity="Item">
            <relationship name="readers" optional="YES" toMany="YES" destinationEntity="Person" inverseName="reading" inverseEntity="Person"/>
            <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
          </entity>
          <entity name="Film" parentEntity="Item"/>
          <entity name="Shelf">
            <attribute name="label" attributeType="String"/>
            <attribute name="itemCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.@count"/>
            <relationship name="items" optional="YES" toMany="YES" ordered="YES" destinationEntity="Item" inverseName="shelf" inverseEntity="Item"/>
          </entity>
          <entity name="Tag">
            <attribute name="name" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" ordered="YES" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
          </entity>
          <entity name="Person">
            <attribute name="name" attributeType="String"/>
            <relationship name="favorite" optional="YES" maxCount="1" destinationEntity="Item" inverseName="admirers" inverseEntity="Item"/>
            <relationship name="reading" optional="YES" maxCount="1" destinationEntity="Book" inverseName="readers" inverseEntity="Book"/>
            <relationship name="passport" optional="YES" maxCount="1" destinationEntity="Passport" inverseName="owner" inverseEntity="Passport"/>
          </entity>
          <entity name="Passport">
            <attribute name="number" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="passport" inverseEntity="Person"/>
          </entity>
        </model>
        """

    /// A built store: ZITEM 1 B1, 2 B2 (books), 3 F1 (film); ZSHELF 1 Front (B2, B1), 2 Back (F1);
    /// ZTAG 1 sf (B1), 2 classic (B1, B2); ZPERSON 1 Ada (favourite F1, reads B1, passport 1), 2 Bob (B2, B2, 2).
    static func built(seedVersion: Bool) throws -> URL {
        let url = try TestPaths.temporaryDirectory()
        try TestPaths.write(model, to: "Library.xcdatamodeld/Library.xcdatamodel/contents", in: url)
        try TestPaths.write("code,tags\nB1,sf;classic\nB2,classic\n", to: "books.csv", in: url)
        try TestPaths.write("code\nF1\n", to: "films.csv", in: url)
        try TestPaths.write("id,label,order\nS1,Front,B2 B1\nS2,Back,F1\n", to: "shelves.csv", in: url)
        try TestPaths.write("tag\nsf\nclassic\n", to: "tags.csv", in: url)
        try TestPaths.write("name,favorite,reading,passport\nAda,F1,B1,P1\nBob,B2,B2,P2\n", to: "people.csv", in: url)
        try TestPaths.write("number\nP1\nP2\n", to: "passports.csv", in: url)
        try TestPaths.write("""
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite", \(seedVersion ? "\"seedVersion\": \"1\"," : "")
              "sources": { "books": { "csv": "books.csv" }, "films": { "csv": "films.csv" }, "shelves": { "csv": "shelves.csv" },
                           "tags": { "csv": "tags.csv" }, "people": { "csv": "people.csv" }, "passports": { "csv": "passports.csv" } },
              "entities": {
                "Book": { "from": "books", "key": "code", "relationships": { "tags": { "key": "tags", "separator": ";" } } },
                "Film": { "from": "films", "key": "code" },
                "Shelf": { "from": "shelves", "key": "id", "relationships": { "items": { "key": "order", "separator": " " } } },
                "Tag": { "from": "tags", "key": "tag", "attributes": { "name": "tag" } },
                "Person": { "from": "people", "key": "name",
                            "relationships": { "favorite": "favorite", "reading": "reading", "passport": "passport" } },
                "Passport": { "from": "passports", "key": "number" } } }
            """, to: "spec.json", in: url)
        _ = try SeedBuild.run(specPath: url.appendingPathComponent("spec.json").path)
        return url
    }

    /// The report for a copy of the store with `sql` applied on a connection that stands in for Core
    /// Data's trigger functions (an edit of a counted row fires the `Z_DA_` triggers).
    static func verify(_ url: URL, after sql: String) throws -> StoreVerifier.Report {
        let copy = url.appendingPathComponent("edited-\(UUID().uuidString).sqlite")
        try FileManager.default.copyItem(at: url.appendingPathComponent("Library.sqlite"), to: copy)
        do {
            let database = try SQLiteDatabase(path: copy.path, mode: .readWriteCreate)
            try database.registerInertFunctions(DerivedCount.triggerFunctions)
            try database.execute(sql)
        }
        let versions = try ModelVersions.load(path: url.appendingPathComponent("Library.xcdatamodeld").path)
        return try StoreVerifier(versions: versions).verify(storeAt: copy.path)
    }

    static let edits: [(sql: String, expected: [String])] = [
        // A derived count (the triggers do not fire on a write to the count itself).
        ("UPDATE ZSHELF SET ZITEMCOUNT = 5 WHERE Z_PK = 2",
         ["ZSHELF.ZITEMCOUNT: 1 value(s) that disagree with the rows of ZITEM pointing at them (Z_PK 2): Shelf.itemCount is derived (\"items.@count\")"]),
        // The counts moved with the triggers dropped: what a store written without them holds.
        ("DROP TRIGGER Z_DA_ZITEM_Shelf_itemCount_PARAMETER_UPDATE_INCREMENT; DROP TRIGGER Z_DA_ZITEM_Shelf_itemCount_PARAMETER_UPDATE_DECREMENT; UPDATE ZITEM SET ZSHELF = 2, Z_FOK_SHELF = 2 WHERE Z_PK = 2",
         ["ZSHELF.ZITEMCOUNT: 2 value(s) that disagree with the rows of ZITEM pointing at them (Z_PK 1, 2): Shelf.itemCount is derived (\"items.@count\")"]),
        // One side of a one-to-one re-pointed: neither person nor passport agrees with its other side.
        ("UPDATE ZPASSPORT SET ZOWNER = 2 WHERE Z_PK = 1",
         ["ZPASSPORT.ZOWNER: 1 row(s) whose one-to-one Passport.owner is not pointed back at by ZPERSON.ZPASSPORT (Z_PK 1)",
          "ZPERSON.ZPASSPORT: 1 row(s) whose one-to-one Person.passport is not pointed back at by ZPASSPORT.ZOWNER (Z_PK 1)"]),
        // A to-one naming a row of another entity of the same table (a film for a book).
        ("UPDATE ZPERSON SET ZREADING = 3 WHERE Z_PK = 1",
         ["ZPERSON.ZREADING: 1 key(s) naming a row that is not a Book (Person.reading) (Z_PK 1)"]),
        // The destination's entity number beside a key, wrong.
        ("UPDATE ZPERSON SET Z1_FAVORITE = 2 WHERE Z_PK = 1",
         ["ZPERSON.Z1_FAVORITE: 1 value(s) that are not the Z_ENT of the row ZFAVORITE names (Person.favorite) (Z_PK 1)"]),
        // A join row whose tag is gone; a join row pairing a film (not a book) with a tag.
        ("DELETE FROM ZTAG WHERE Z_PK = 1",
         ["Z_2TAGS.Z_7TAGS: 1 dangling key(s) (→ Tag) (Z_2BOOKS 1 with Z_7TAGS 1)"]),
        ("UPDATE Z_2TAGS SET Z_2BOOKS = 3 WHERE Z_7TAGS = 1",
         ["Z_2TAGS: 1 row(s) that do not pair a Book with a Tag (Z_2BOOKS 3 with Z_7TAGS 1)"]),
        // Two shelf positions the same; a tag's ordered items with a position repeated.
        ("UPDATE ZITEM SET Z_FOK_SHELF = 1 WHERE Z_PK = 1",
         ["ZITEM.Z_FOK_SHELF: 1 owner(s) whose ordered Shelf.items has missing or repeated positions (owner Z_PK 1)"]),
        ("UPDATE Z_2TAGS SET Z_FOK_2BOOKS = 1 WHERE Z_7TAGS = 2",
         ["Z_2TAGS.Z_FOK_2BOOKS: 1 owner(s) whose ordered Tag.books has missing or repeated positions (owner Z_PK 2)"]),
    ]

    /// On main verify had none of these checks except the count (computed from the build's own
    /// `DerivedCount` columns): every other edited store was OK.
    @Test func eachCheckNamesTheRowChangedBehindCoreSeedsBack() throws {
        let url = try Self.built(seedVersion: true)
        defer { try? FileManager.default.removeItem(at: url) }
        let clean = try Self.verify(url, after: "SELECT 1")
        #expect(clean.differences == [] && clean.warnings == [], "\(clean)")
        for (sql, expected) in Self.edits {
            let report = try Self.verify(url, after: sql)
            #expect(report.differences.filter { !$0.hasPrefix("schema: ") } == expected, "\(sql)")
        }
    }

    /// Positions with a gap (what an upsert or Core Data itself may leave) are a note on a store CoreSeed
    /// wrote; a key dropped by `"onUnresolved": "skip"` leaves none (on main: positions 1, 3).
    @Test func gapsInPositionsAreANoteAndASkippedKeyLeavesNone() throws {
        let url = try Self.built(seedVersion: true)
        defer { try? FileManager.default.removeItem(at: url) }
        let report = try Self.verify(url, after: "UPDATE ZITEM SET Z_FOK_SHELF = 5 WHERE Z_PK = 1")
        #expect(report.differences == [])
        #expect(report.notes == ["ZITEM.Z_FOK_SHELF: 1 owner(s) whose ordered Shelf.items positions are not 1…n as a fresh CoreSeed build writes them (owner Z_PK 1); Core Data reads only their order"])
        try TestPaths.write("id,label,order\nS1,Front,B2 X1 B1\nS2,Back,F1\n", to: "shelves.csv", in: url)
        let spec = try String(contentsOf: url.appendingPathComponent("spec.json"), encoding: .utf8)
        try TestPaths.write(spec.replacingOccurrences(of: #""key": "order", "separator": " ""#, with: #""key": "order", "separator": " ", "onUnresolved": "skip""#),
                            to: "spec.json", in: url)
        _ = try SeedBuild.run(specPath: url.appendingPathComponent("spec.json").path)
        let database = try SQLiteDatabase(path: url.appendingPathComponent("Library.sqlite").path, mode: .readOnly(immutable: false))
        #expect(try database.rows("SELECT ZCODE, Z_FOK_SHELF FROM ZITEM WHERE ZSHELF = 1 ORDER BY Z_FOK_SHELF") == [[.text("B2"), .integer(1)], [.text("B1"), .integer(2)]])
        #expect(try Self.verify(url, after: "SELECT 1").notes == [])
    }

    /// A store CoreSeed did not write: broken links are warnings; a gap in positions is what Core Data
    /// itself writes (it spaces them 1024 apart), so it is no finding at all.
    @Test func anotherStoreGetsWarningsAndMayHaveGaps() throws {
        let url = try Self.built(seedVersion: false)
        defer { try? FileManager.default.removeItem(at: url) }
        let report = try Self.verify(url, after: "UPDATE ZPERSON SET ZREADING = 3 WHERE Z_PK = 1; UPDATE ZITEM SET Z_FOK_SHELF = Z_FOK_SHELF * 1024")
        #expect(report.differences == [])
        #expect(report.warnings == ["ZPERSON.ZREADING: 1 key(s) naming a row that is not a Book (Person.reading) (Z_PK 1) (Core Data would read these links wrongly)"])
    }
}
