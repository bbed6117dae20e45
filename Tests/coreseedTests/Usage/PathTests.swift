import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Paths a user really has — spaces, non-ASCII, `#`, `?`, `%` — work for every command and every
/// source kind (issue 16: a non-ASCII path failed after the whole build, SQLite sources under one
/// could not be read, and `backup` fell back to an unsafe copy).
@Suite struct PathTests {
    static let folder = "José & Zoë #1 ?%"

    @Test func everyCommandWorksUnderAnAwkwardPath() throws {
        let scratch = try Scratch()
        let dir = Self.folder
        try scratch.write("\(dir)/Library é.xcdatamodeld/Library é.xcdatamodel/contents", """
            <?xml version="1.0" encoding="UTF-8"?>
            <model userDefinedModelVersionIdentifier="">
            <entity name="Book">
              <attribute name="isbn" attributeType="Integer 64"/>
              <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Note">
              <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Tag">
              <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
            </model>
            """)
        try scratch.write("\(dir)/books ü.csv", "isbn,title\n1,Alpha\n2,Bêta\n")
        try scratch.write("\(dir)/tags ø.xml", "<tags><tag name=\"a\"/><tag name=\"ß\"/></tags>\n")
        do {
            let legacy = try SQLiteDatabase(path: scratch.path("\(dir)/notes ñ.sqlite3"), mode: .readWriteCreate)
            try legacy.execute("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('one'), ('two'), ('three')")
        }
        try scratch.write("\(dir)/spec é.json", """
            { "model": "Library é.xcdatamodeld", "output": "Store é #?%.sqlite",
              "sources": { "books": { "csv": "books ü.csv" },
                           "notes": { "sqlite": "notes ñ.sqlite3", "query": "SELECT text FROM notes" },
                           "tags": { "xml": "tags ø.xml", "records": "/tags/tag", "fields": { "name": "@name" } } },
              "entities": { "Book": { "from": "books", "key": "isbn" }, "Note": { "from": "notes" }, "Tag": { "from": "tags" } } }
            """)
        let store = "\(dir)/Store é #?%.sqlite", model = "\(dir)/Library é.xcdatamodeld"
        let build = try scratch.run(["build", "\(dir)/spec é.json"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try scratch.query(store, "SELECT count(*) FROM ZBOOK") == [["2"]])
        #expect(try scratch.query(store, "SELECT count(*) FROM ZNOTE") == [["3"]])
        #expect(try scratch.query(store, "SELECT ZNAME FROM ZTAG ORDER BY Z_PK") == [["a"], ["ß"]])
        let preview = try scratch.run(["preview", "\(dir)/spec é.json", "notes", "--limit", "1"])
        #expect(preview.status == 0, "\(preview.stderr)")
        let verify = try scratch.run(["verify", store, "--model", model])
        #expect(verify.status == 0, "\(verify.stderr)")
        let inspect = try scratch.run(["inspect", store])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let backup = try scratch.run(["backup", store, "\(dir)/Copie ü.sqlite"])
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(try scratch.query("\(dir)/Copie ü.sqlite", "SELECT count(*) FROM ZNOTE") == [["3"]])
        let export = try scratch.run(["export", store, "--model", model, "--output", "\(dir)/export ä"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("\(dir)/export ä/Book.csv")))
    }

    @Test func uriSpecialBytesArePercentEncodedOnce() {
        #expect(SQLiteDatabase.percentEncodedPath("/a/José #?%.sqlite") == "/a/Jos%C3%A9%20%23%3F%25.sqlite")
    }
}
