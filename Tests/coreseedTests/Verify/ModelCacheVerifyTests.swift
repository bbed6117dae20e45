import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 3: `verify` notes a `Z_MODELCACHE` that disagrees with the model version whose hashes
/// the store has, or cannot be read: a warning (`--strict` fails on it); the build's own check of a
/// fresh store counts it as a difference.
@Suite struct ModelCacheVerifyTests {
    static let library = """
        <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64"/><attribute name="title" optional="YES" attributeType="String"/></entity>
        <entity name="Shelf" representedClassName="Shelf"><attribute name="name" attributeType="String"/></entity>
        """

    /// A store of `entities` at framework 1344 (where a build writes the cache).
    static func build(_ scratch: Scratch, _ entities: String, model: String, output: String) throws {
        try scratch.writeModel(model, entities)
        try scratch.write("books.csv", "isbn,title\n1,Alpha\n2,Beta\n")
        try scratch.write("\(model).json", """
            { "model": "\(model).xcdatamodeld", "output": "\(output)", "frameworkVersion": 1344,
              "sources": { "books": { "csv": "books.csv" } }, "entities": { "Book": { "from": "books", "key": "isbn" } } }
            """)
        let result = try scratch.run(["build", "\(model).json"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    static func setCache(_ path: String, _ sql: String) throws {
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute(sql)
    }

    @Test func aStoresOwnCacheAgrees() throws {
        let scratch = try Scratch()
        try Self.build(scratch, Self.library, model: "Library", output: "Library.sqlite")
        #expect(try scratch.query("Library.sqlite", "SELECT count(*) FROM Z_MODELCACHE") == [["1"]])
        let result = try scratch.run(["verify", "Library.sqlite", "--model", "Library.xcdatamodeld", "--strict"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("Z_MODELCACHE"), "\(result.stdout)")
    }

    /// The cache of another model (Book without `title`, no Shelf, an Author).
    @Test func anotherModelsCacheIsAWarning() throws {
        let scratch = try Scratch()
        try Self.build(scratch, Self.library, model: "Library", output: "Library.sqlite")
        try Self.build(scratch, """
            <entity name="Author" representedClassName="Author"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64"/></entity>
            """, model: "Other", output: "Other.sqlite")
        let other = try #require(try scratch.query("Other.sqlite", "SELECT hex(Z_CONTENT) FROM Z_MODELCACHE").first?.first)
        try Self.setCache(scratch.path("Library.sqlite"), "UPDATE Z_MODELCACHE SET Z_CONTENT = x'\(other)'")
        let result = try scratch.run(["verify", "Library.sqlite", "--model", "Library.xcdatamodeld"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("Library.sqlite: warning: Z_MODELCACHE: holds another model than version Library, whose hashes the store has (Author not in the model, Book with another version hash, Shelf missing); Core Data reads this cached model when an app lacks model version Library (a migration's source)\n"), "\(result.stderr)")
        #expect(try scratch.run(["verify", "Library.sqlite", "--model", "Library.xcdatamodeld", "--strict"]).status != 0)
    }

    @Test func aCacheThatIsNotAnArchiveIsAWarning() throws {
        let scratch = try Scratch()
        try Self.build(scratch, Self.library, model: "Library", output: "Library.sqlite")
        try Self.setCache(scratch.path("Library.sqlite"), "UPDATE Z_MODELCACHE SET Z_CONTENT = x'0001020304'")
        let result = try scratch.run(["verify", "Library.sqlite", "--model", "Library.xcdatamodeld"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("Library.sqlite: warning: Z_MODELCACHE: not a raw-deflated archive ("), "\(result.stderr)")
        #expect(try scratch.run(["verify", "Library.sqlite", "--model", "Library.xcdatamodeld", "--strict"]).status != 0)
    }

    /// A store Core Data wrote: a cache that is no model is a warning, and `--strict` fails on it.
    @Test(.needsCorpus) func inAnAppsStoreItIsAWarning() throws {
        let scratch = try Scratch()
        let store = try StoreOps.copyCorpusStore("iqtodolist", into: scratch.url)
        let model = try #require(CorpusStore.withXMLModel.first { $0.name == "iqtodolist" }).modelPath
        let clean = try scratch.run(["verify", store, "--model", model, "--strict"])
        #expect(clean.status == 0, "\(clean.stdout)")
        do {
            let database = try SQLiteDatabase(path: store, mode: .readWrite)
            try database.execute("UPDATE Z_MODELCACHE SET Z_CONTENT = zeroblob(16); PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let result = try scratch.run(["verify", store, "--model", model])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stderr.contains("warning: Z_MODELCACHE: not a raw-deflated archive ("), "\(result.stderr)")
        #expect(try scratch.run(["verify", store, "--model", model, "--strict"]).status != 0)
    }
}
