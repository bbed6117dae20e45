import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 3: a new store gets `Z_MODELCACHE` where the archive is proven to be Core Data's
/// (`ModelArchiver.storeCache`), the same bytes on every run; elsewhere the table stays empty, and
/// `build --into` leaves a store's cache as it is.
@Suite struct ModelCacheBuildTests {
    static func prepare(framework: Int?, entities: String? = nil) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Library", entities ?? """
            <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64"/><attribute name="title" optional="YES" attributeType="String"/><relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/></entity>
            <entity name="Shelf" representedClassName="Shelf"><attribute name="name" attributeType="String"/><relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/></entity>
            """)
        try scratch.write("books.csv", "isbn,title\n1,Alpha\n2,Beta\n")
        let version = framework.map { "\"frameworkVersion\": \($0), " } ?? ""
        try scratch.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite", \(version)
              "sources": { "books": { "csv": "books.csv" } }, "entities": { "Book": { "from": "books", "key": "isbn" } } }
            """)
        return scratch
    }

    /// The store's `Z_MODELCACHE` rows.
    static func cacheRows(_ path: String) throws -> [[UInt8]] {
        let database = try SQLiteDatabase(path: path, mode: .readOnly(immutable: true))
        return try database.rows("SELECT Z_CONTENT FROM Z_MODELCACHE").compactMap { row in
            if case .blob(let bytes) = row[0] { return bytes }
            return nil
        }
    }

    /// Every framework from 637; above 1344 (CoreSeed's default, 1518, among them: `nil`), 1344's form.
    @Test(arguments: [637, 866, 1044, 1344, 1518, nil] as [Int?])
    func aProvenModelGetsItsArchive(_ given: Int?) throws {
        let scratch = try Self.prepare(framework: given)
        let framework = given ?? FrameworkVersion.newest.rawValue
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = try Self.cacheRows(scratch.path("Library.sqlite"))
        #expect(rows.count == 1)
        let model = try ModelVersions.load(path: scratch.path("Library.xcdatamodeld")).current
        #expect(ModelArchiver.unprovenFeature(model) == nil)
        #expect(try RawDeflate.inflate(rows.first ?? []) == ModelArchiver.archive(model, framework: min(framework, 1344)))
        // The store reads as its own model: hashes and schema as the source's.
        let cached = try ModelVersions.load(path: scratch.path("Library.sqlite")).current
        #expect(ModelHashes.compute(for: cached) == ModelHashes.compute(for: model))
        let layout = FrameworkVersion(framework)
        #expect(try StoreLayout(model: cached, framework: layout).statements == StoreLayout(model: model, framework: layout).statements)
        let verify = try scratch.run(["verify", "Library.sqlite"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// Builds at 1344 and reads the store's own model back: the cache is the model's archive, and the
    /// model it holds hashes as the source. Returns the source model and the cached one.
    static func buildAndReadBack(_ scratch: Scratch) throws -> (Model, Model) {
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 0, "\(result.stderr)")
        let model = try ModelVersions.load(path: scratch.path("Library.xcdatamodeld")).current
        #expect(ModelArchiver.unprovenFeature(model) == nil)
        #expect(try cacheRows(scratch.path("Library.sqlite")).map { try RawDeflate.inflate($0) } == [ModelArchiver.archive(model, framework: 1344)])
        let cached = try ModelVersions.load(path: scratch.path("Library.sqlite")).current
        #expect(ModelHashes.compute(for: cached) == ModelHashes.compute(for: model))
        return (model, cached)
    }

    /// Transformable attributes (with a transformer and without) and an external-storage Binary
    /// attribute, proven object for object (ModelArchiverAttributeEvidenceTests).
    @Test func transformableAndExternalStorageAttributesAreArchived() throws {
        let scratch = try Self.prepare(framework: 1344, entities: """
            <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64"/><attribute name="title" optional="YES" attributeType="String"/><attribute name="cover" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/><attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/><attribute name="extra" optional="YES" attributeType="Transformable"/></entity>
            """)
        let (_, cached) = try Self.buildAndReadBack(scratch)
        let book = try #require(cached.entity(named: "Book"))
        #expect(book.attribute(named: "cover")?.storesExternally == true)
        #expect(book.attribute(named: "tags")?.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(try scratch.run(["verify", "Library.sqlite", "--strict"]).status == 0)
    }

    /// A derived count (`books.@count`) and a UUID attribute preserved after deletion, proven object for
    /// object against `coredataplus-samplemodel2-v1` and `coredataplus-samplemodel-v1`
    /// (ModelArchiverAttributeEvidenceTests): the store has the cache, and reads back as its own model.
    @Test func derivedCountAndUUIDAttributesAreArchived() throws {
        let scratch = try Self.prepare(framework: 1344, entities: """
            <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64"/><attribute name="id" optional="YES" attributeType="UUID" usesScalarValueType="NO" preserveAfterDeletion="YES"/><attribute name="title" optional="YES" attributeType="String"/><relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/></entity>
            <entity name="Shelf" representedClassName="Shelf"><attribute name="bookCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="books.@count" usesScalarValueType="YES"/><attribute name="name" attributeType="String"/><relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/></entity>
            <entity name="Corner" representedClassName="Corner" parentEntity="Shelf"/>
            """)
        let (model, cached) = try Self.buildAndReadBack(scratch)
        #expect(try StoreLayout(model: cached, framework: FrameworkVersion(1344)).statements == StoreLayout(model: model, framework: FrameworkVersion(1344)).statements)
        #expect(cached.entity(named: "Corner")?.attribute(named: "bookCount") == nil, "inherited, not redeclared")
        #expect(cached.entity(named: "Shelf")?.attribute(named: "bookCount")?.derivationExpression == "books.@count")
        #expect(cached.entity(named: "Book")?.attribute(named: "id")?.preserveAfterDeletion == true)
        #expect(try scratch.run(["verify", "Library.sqlite", "--strict"]).status == 0)
    }

    /// An indexed attribute and a legacy compound index (Carriers' form, Wire's caches), and fetch
    /// indexes of one and two elements (ddg-bookmarks, coredataplus-2018-samplemodel-v2, matched byte
    /// for byte in ModelArchiverCorpusTests): the cache holds them as fetch indexes, and the store reads
    /// back to the same statements and indexes.
    @Test(arguments: ["""
        <attribute name="isbn" attributeType="Integer 64" indexed="YES"/><attribute name="title" optional="YES" attributeType="String"/><attribute name="year" optional="YES" attributeType="Integer 16"/><compoundIndexes><compoundIndex><index value="title"/><index value="year"/></compoundIndex></compoundIndexes>
        """, """
        <attribute name="isbn" attributeType="Integer 64"/><attribute name="title" optional="YES" attributeType="String"/><attribute name="year" optional="YES" attributeType="Integer 16"/><fetchIndex name="byISBN"><fetchIndexElement property="isbn" type="Binary" order="ascending"/></fetchIndex><fetchIndex name="byTitleAndYear"><fetchIndexElement property="title" type="Binary" order="ascending"/><fetchIndexElement property="year" type="Binary" order="ascending"/></fetchIndex>
        """])
    func indexesAreArchived(_ book: String) throws {
        let scratch = try Self.prepare(framework: 1344, entities: """
            <entity name="Book" representedClassName="Book">\(book)</entity>
            <entity name="Shelf" representedClassName="Shelf"><attribute name="name" attributeType="String"/></entity>
            """)
        let (model, cached) = try Self.buildAndReadBack(scratch)
        let layout = FrameworkVersion(1344)
        #expect(try StoreLayout(model: cached, framework: layout).statements == StoreLayout(model: model, framework: layout).statements)
        let (source, held) = (try #require(model.entity(named: "Book")), try #require(cached.entity(named: "Book")))
        #expect(held.compoundIndexes == source.compoundIndexes)
        #expect(held.fetchIndexes == source.fetchIndexes)
        #expect(held.attributes.map(\.isIndexed) == source.attributes.sorted { $0.name < $1.name }.map(\.isIndexed))
        #expect(try scratch.query("Library.sqlite", "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'Z_Book_%'") == [[book.contains("fetchIndex") ? "3" : "2"]])
        #expect(try scratch.run(["verify", "Library.sqlite", "--strict"]).status == 0)
    }

    @Test func theStoreIsTheSameOnEveryRun() throws {
        let scratch = try Self.prepare(framework: 1344)
        #expect(try scratch.run(["build", "spec.json"]).status == 0)
        let first = try Data(contentsOf: scratch.url.appendingPathComponent("Library.sqlite"))
        #expect(try scratch.run(["build", "spec.json", "--output", "Again.sqlite"]).status == 0)
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("Again.sqlite")) == first)
    }

    /// Not proven: a framework before the cache (481), indexes before their fetch-index form (754), or
    /// a model feature no corpus cache has (an index declared on a sub-entity; a derivation other than a
    /// count, here a to-one key path).
    @Test(arguments: [(481, nil), (754, """
        <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64" indexed="YES"/><attribute name="title" optional="YES" attributeType="String"/></entity>
        """), (1344, """
        <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64"/><attribute name="title" optional="YES" attributeType="String"/></entity>
        <entity name="Novel" representedClassName="Novel" parentEntity="Book"><attribute name="genre" optional="YES" attributeType="String" indexed="YES"/></entity>
        """), (1344, """
        <entity name="Book" representedClassName="Book"><attribute name="isbn" attributeType="Integer 64"/><attribute name="shelfName" optional="YES" attributeType="String" derived="YES" derivationExpression="shelf.name"/><relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/></entity>
        <entity name="Shelf" representedClassName="Shelf"><attribute name="name" optional="YES" attributeType="String"/><relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/></entity>
        """)] as [(Int?, String?)])
    func otherwiseTheCacheStaysEmpty(_ framework: Int?, _ entities: String?) throws {
        let scratch = try Self.prepare(framework: framework, entities: entities)
        let result = try scratch.run(["build", "spec.json"])
        #expect(result.status == 0, "\(result.stderr)")
        if framework ?? 0 < 637 {
            #expect(try scratch.query("Library.sqlite", "SELECT count(*) FROM sqlite_master WHERE name = 'Z_MODELCACHE'") == [["0"]])
        } else {
            #expect(try Self.cacheRows(scratch.path("Library.sqlite")).isEmpty)
        }
    }

    @Test func buildIntoKeepsTheCache() throws {
        let scratch = try Self.prepare(framework: 1344)
        #expect(try scratch.run(["build", "spec.json"]).status == 0)
        let before = try Self.cacheRows(scratch.path("Library.sqlite"))
        try scratch.write("books.csv", "isbn,title\n1,Alpha\n2,Beta\n3,Gamma\n")
        let update = try scratch.run(["build", "spec.json", "--into", "Library.sqlite", "--mode", "upsert"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try Self.cacheRows(scratch.path("Library.sqlite")) == before)
    }

    /// A store with an empty `Z_MODELCACHE` (an older CoreSeed's) gets its model's archive from an
    /// update; one whose cache holds anything is left as it is, even a cache CoreSeed would not write.
    @Test func buildIntoWritesAMissingCacheAndKeepsAnother() throws {
        let scratch = try Self.prepare(framework: 1344)
        #expect(try scratch.run(["build", "spec.json"]).status == 0)
        let written = try Self.cacheRows(scratch.path("Library.sqlite"))
        /// Alters the store's cache with `sql`, then updates it with one more book.
        func update(after sql: String, books: Int) throws {
            do {
                let database = try SQLiteDatabase(path: scratch.path("Library.sqlite"), mode: .readWrite)
                try database.execute(sql)
            }
            try scratch.write("books.csv", "isbn,title\n" + (1...books).map { "\($0),Book \($0)\n" }.joined())
            let result = try scratch.run(["build", "spec.json", "--into", "Library.sqlite", "--mode", "upsert"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        try update(after: "DELETE FROM Z_MODELCACHE", books: 3)
        #expect(try Self.cacheRows(scratch.path("Library.sqlite")) == written)
        try update(after: "UPDATE Z_MODELCACHE SET Z_CONTENT = x'00010203'", books: 4)
        #expect(try Self.cacheRows(scratch.path("Library.sqlite")) == [[0, 1, 2, 3]])
    }
}
