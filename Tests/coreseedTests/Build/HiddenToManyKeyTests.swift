import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// §4c.4 end to end: a to-many relationship with no inverse (`Album.documents`) is seeded from a list
/// of destination keys as any to-many, stored in the destination's hidden `Z1DOCUMENTS` column, checked
/// by `verify`, exported and rebuilt row for row.
@Suite struct HiddenToManyKeyTests {
    static let model = """
        <entity name="Album">
          <attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="documents" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Document"/>
          <relationship name="pages" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Document"/>
        </entity>
        <entity name="Document">
          <attribute name="slug" optional="YES" attributeType="String"/>
          <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="documents" inverseEntity="Owner"/>
        </entity>
        <entity name="Owner">
          <attribute name="name" optional="YES" attributeType="String"/>
          <relationship name="documents" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Document" inverseName="owner" inverseEntity="Document"/>
        </entity>
        """

    static func prepare(albums: String, documents: String) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Folio", model)
        try scratch.write("owners.csv", "name\nann\nbob\n")
        try scratch.write("documents.csv", documents)
        try scratch.write("albums.json", albums)
        try scratch.write("seed.json", """
            { "model": "Folio.xcdatamodeld", "output": "Folio.sqlite",
              "sources": { "albums": { "json": "albums.json", "records": "/*" }, "documents": { "csv": "documents.csv" }, "owners": { "csv": "owners.csv" } },
              "entities": {
                "Owner": { "from": "owners", "key": "name" },
                "Document": { "from": "documents", "key": "slug", "relationships": { "owner": { "key": "owner" } } },
                "Album": { "from": "albums", "key": "name",
                           "relationships": { "documents": { "key": "documents" }, "pages": { "key": "pages" } } } } }
            """)
        return scratch
    }

    static let documents = "slug,owner\nd1,ann\nd2,bob\nd3,ann\nd4,\nd5,bob\n"
    static let albums = """
        [ { "name": "red", "documents": ["d3", "d1"], "pages": ["d5", "d2"] },
          { "name": "blue", "documents": ["d2"], "pages": ["d4"] },
          { "name": "empty", "documents": [], "pages": [] } ]
        """

    @Test func buildsFromJSONAndVerifies() throws {
        let scratch = try Self.prepare(albums: Self.albums, documents: Self.documents)
        let build = try scratch.run(["build", "seed.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        // Each document holds its album's Z_PK, and its place in the ordered `pages`; albums red 1, blue 2.
        #expect(try scratch.query("Folio.sqlite", "SELECT ZSLUG, ZOWNER, Z1DOCUMENTS, Z1PAGES, Z_FOK_1PAGES FROM ZDOCUMENT ORDER BY Z_PK") == [
            ["d1", "1", "1", "NULL", "NULL"],
            ["d2", "2", "2", "1", "2"],
            ["d3", "1", "1", "NULL", "NULL"],
            ["d4", "NULL", "NULL", "2", "1"],
            ["d5", "2", "NULL", "1", "1"],
        ])
        #expect(try scratch.query("Folio.sqlite", "SELECT name FROM sqlite_master WHERE name GLOB 'Z_*' AND type = 'table' ORDER BY name")
                == [["Z_METADATA"], ["Z_MODELCACHE"], ["Z_PRIMARYKEY"]])
        let verify = try scratch.run(["verify", "Folio.sqlite", "--model", "Folio.xcdatamodeld"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func buildsFromCSVWithASeparator() throws {
        let scratch = try Self.prepare(albums: "[]", documents: Self.documents)
        try scratch.write("albums.csv", "name,documents,pages\nred,d3 d1,d5 d2\nblue,d2,d4\n")
        try scratch.write("seed.json", try String(contentsOfFile: scratch.path("seed.json"), encoding: .utf8)
            .replacingOccurrences(of: #""albums": { "json": "albums.json", "records": "/*" }"#, with: #""albums": { "csv": "albums.csv" }"#)
            .replacingOccurrences(of: #""documents": { "key": "documents" }, "pages": { "key": "pages" }"#,
                                  with: #""documents": { "key": "documents", "separator": " " }, "pages": { "key": "pages", "separator": " " }"#))
        let build = try scratch.run(["build", "seed.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try scratch.query("Folio.sqlite", "SELECT Z1DOCUMENTS, Z1PAGES, Z_FOK_1PAGES FROM ZDOCUMENT ORDER BY Z_PK") == [
            ["1", "NULL", "NULL"], ["2", "1", "2"], ["1", "NULL", "NULL"], ["NULL", "2", "1"], ["NULL", "1", "1"],
        ])
    }

    @Test func aDocumentInTwoAlbumsIsAnErrorNamingBoth() throws {
        let scratch = try Self.prepare(albums: """
            [ { "name": "red", "documents": ["d1"], "pages": [] },
              { "name": "blue", "documents": ["d2", "d1"], "pages": [] } ]
            """, documents: Self.documents)
        let build = try scratch.run(["build", "seed.json"])
        #expect(build.status == 1)
        #expect(build.stderr == "seed.json: error: entities.Album.relationships.documents: the Document record at documents.csv:2:1 is listed by the Album records at albums.json:1:3 and albums.json:2:3; 'documents' has no inverse, so Core Data keeps one Album per Document (a hidden key on its row): list each Document once, or give the relationship an inverse\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("Folio.sqlite")))
    }

    @Test func verifyNamesAHiddenKeyPointingNowhere() throws {
        let scratch = try Self.prepare(albums: Self.albums, documents: Self.documents)
        #expect(try scratch.run(["build", "seed.json", "--quiet"]).status == 0)
        let database = try SQLiteDatabase(path: scratch.path("Folio.sqlite"), mode: .readWrite)
        try database.execute("UPDATE ZDOCUMENT SET Z1DOCUMENTS = 99 WHERE ZSLUG = 'd1'")
        let verify = try scratch.run(["verify", "Folio.sqlite", "--model", "Folio.xcdatamodeld"])
        #expect(verify.stderr.contains("ZDOCUMENT.Z1DOCUMENTS: 1 dangling key(s) (the Album whose documents holds the row)"), "\(verify.stderr)")
    }

    @Test func exportRebuildsRowForRow() throws {
        let scratch = try Self.prepare(albums: Self.albums, documents: Self.documents)
        #expect(try scratch.run(["build", "seed.json", "--quiet"]).status == 0)
        let export = try scratch.run(["export", "Folio.sqlite", "--model", "Folio.xcdatamodeld", "--output", "export", "--spec"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stderr == "")
        let albums = try String(contentsOfFile: scratch.path("export/Album.csv"), encoding: .utf8)
        #expect(albums == "pk,name,documents,pages\r\n1,red,1;3,5;2\r\n2,blue,2,4\r\n3,empty,,\r\n")
        let rebuild = try scratch.run(["build", "export/seed.json", "--output", "rebuilt.sqlite", "--quiet"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        for table in ["ZALBUM", "ZDOCUMENT", "ZOWNER", "Z_PRIMARYKEY"] {
            #expect(try ExportRoundTripTests.differences(scratch.path("Folio.sqlite"), scratch.path("rebuilt.sqlite"), table: table) == [0, 0], "\(table)")
        }
    }
}
