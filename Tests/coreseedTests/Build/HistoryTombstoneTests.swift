import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 27: Core Data sizes a tracked store's `ACHANGE` for the model's tombstones, the attribute values a
/// delete change keeps (`preserveAfterDeletion`, the entity userInfo key
/// `NSPersistentHistoryTombstoneAttributes`): one `ZTOMBSTONE<i>` BLOB column per place, as many as the
/// entity that keeps the most (decompiled `_PFPersistentHistoryModel`, docs/LAYOUT.md). A store without
/// them would fail Core Data's first delete.
@Suite struct HistoryTombstoneTests {
    /// Book keeps isbn and title; its sub-entity Novel keeps those and genre (3); Shelf lists two names in
    /// its userInfo, one of them also preserved (2).
    static let entities = """
        <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64" preserveAfterDeletion="YES"/><attribute name="title" optional="YES" attributeType="String" preserveAfterDeletion="YES"/><attribute name="pages" optional="YES" attributeType="Integer 32"/></entity>
        <entity name="Novel" representedClassName="Novel" parentEntity="Book"><attribute name="genre" optional="YES" attributeType="String" preserveAfterDeletion="YES"/></entity>
        <entity name="Shelf" representedClassName="Shelf"><attribute name="label" optional="YES" attributeType="String"/><attribute name="name" attributeType="String" preserveAfterDeletion="YES"/><userInfo><entry key="NSPersistentHistoryTombstoneAttributes" value="name, label"/></userInfo></entity>
        """

    static func prepare(_ entities: String = entities) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Library", entities)
        try scratch.write("books.csv", "isbn,title\n1,Alpha\n2,Beta\n")
        try scratch.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite", "historyTracking": true,
              "sources": { "books": { "csv": "books.csv" } }, "entities": { "Book": { "from": "books", "key": "isbn" } } }
            """)
        return scratch
    }

    @Test func theChangeTableHasOneTombstoneColumnPerPlace() throws {
        let scratch = try Self.prepare()
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try scratch.query("Library.sqlite", "SELECT sql FROM sqlite_master WHERE name = 'ACHANGE'") == [[
            "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB, ZTOMBSTONE0 BLOB, ZTOMBSTONE1 BLOB, ZTOMBSTONE2 BLOB )",
        ]])
        // Inserts keep no tombstone.
        #expect(try scratch.query("Library.sqlite", "SELECT count(*), count(ZTOMBSTONE0) FROM ACHANGE") == [["2", "0"]])
        let verify = try scratch.run(["verify", "Library.sqlite", "--model", "Library.xcdatamodeld", "--strict"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// A store that lacks one (an older CoreSeed's) gets a warning naming the column, and fails `--strict`.
    @Test func verifyNamesAMissingTombstoneColumn() throws {
        let scratch = try Self.prepare()
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        do {
            let database = try SQLiteDatabase(path: scratch.path("Library.sqlite"), mode: .readWrite)
            try database.execute("ALTER TABLE ACHANGE DROP COLUMN ZTOMBSTONE2")
        }
        let verify = try scratch.run(["verify", "Library.sqlite", "--model", "Library.xcdatamodeld", "--strict"])
        #expect(verify.status != 0)
        #expect((verify.stdout + verify.stderr).contains("warning: persistent history: ACHANGE lacks ZTOMBSTONE2"), "\(verify.stdout)\(verify.stderr)")
    }

    /// No preserved attribute: the corpus store's table, without tombstones.
    @Test func aModelThatKeepsNothingHasNone() throws {
        let scratch = try Self.prepare("""
            <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64"/><attribute name="title" optional="YES" attributeType="String"/></entity>
            """)
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let columns = try scratch.query("Library.sqlite", "SELECT name FROM pragma_table_info('ACHANGE') WHERE name LIKE 'ZTOMBSTONE%'")
        #expect(columns.isEmpty)
    }

    /// More than 100 places in one entity is refused, as Core Data refuses it, before anything is written.
    @Test func moreThanAHundredIsRefused() throws {
        let attributes = (0..<101).map { "<attribute name=\"a\($0)\" optional=\"YES\" attributeType=\"String\" preserveAfterDeletion=\"YES\"/>" }.joined()
        let scratch = try Self.prepare("""
            <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64"/>\(attributes)</entity>
            """)
        let build = try scratch.run(["build", "spec.json"])
        #expect(build.status != 0)
        #expect(build.stderr.contains("entity 'Book' keeps 101 attributes in persistent history after deletion"), "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Library.sqlite")))
    }
}
