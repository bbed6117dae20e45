import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Derived `@count` attributes (DESIGN §4b.12): the `Z_DA_` triggers CoreSeed derives equal the ones
/// Core Data wrote into `coredataplus-samplemodel2-v1`, for a model with the same entities, and the
/// store's counts agree with what CoreSeed computes and `verify` checks. Other derivations are refused.
@Suite struct DerivedCountLayoutTests {
    /// The part of CoreDataPlus's SampleModel2 (a programmatic model) that the triggers depend on.
    static let sampleModel2 = """
        <entity name="Book">
          <attribute name="pagesCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="pages.@count"/>
          <attribute name="title" attributeType="String"/>
          <relationship name="pages" optional="YES" toMany="YES" destinationEntity="Page" inverseName="book" inverseEntity="Page"/>
        </entity>
        <entity name="GraphicNovel" parentEntity="Book"><attribute name="isBlackAndWhite" optional="YES" attributeType="Boolean"/></entity>
        <entity name="Page">
          <attribute name="number" attributeType="Integer 32"/>
          <relationship name="book" maxCount="1" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/>
        </entity>
        """

    @Test(.needsCorpus) func triggersEqualTheCorpusStores() throws {
        let layout = try LayoutRuleTests.layout(Self.sampleModel2)
        let store = TestPaths.corpus.appendingPathComponent("coredataplus-samplemodel2-v1/store.sqlite")
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(path: TestPaths.copyStore(store, into: directory).path, mode: .readWrite)
        let stored = try database.rows("SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid").compactMap { row -> String? in if case .text(let sql) = row[0] { sql } else { nil } }
        #expect(stored.count == 5)
        #expect(layout.triggers == stored)
        // Core Data's counts are what CoreSeed computes: no row disagrees (52 books, 4,970 pages).
        #expect(try SameTableCountTests.disagreeing(database, Self.sampleModel2).isEmpty)
        #expect(try database.scalar("SELECT sum(ZPAGESCOUNT) FROM ZBOOK") == .integer(4970))
        // And the triggers run on a connection that registers Core Data's notification functions.
        try database.registerInertFunctions(DerivedCount.triggerFunctions)
        let before = try database.scalar("SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = 1")
        try database.execute("INSERT INTO ZPAGE (Z_PK, Z_ENT, Z_OPT, ZNUMBER, ZBOOK, Z1_BOOK) VALUES (100000, 4, 1, 1, 1, 1)")
        guard case .integer(let count)? = before else { Issue.record("no count"); return }
        #expect(try database.scalar("SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = 1") == .integer(count + 1))
    }

    @Test func theLayoutPlacesTheTriggersBeforeTheFixedTables() throws {
        let statements = try LayoutRuleTests.sql(Self.sampleModel2)
        let names = statements.compactMap { $0.hasPrefix("CREATE TRIGGER ") ? $0.split(separator: " ")[2] : nil }
        #expect(names == ["Z_DA_ZPAGE_Book_pagesCount_PARAMETER_INSERT", "Z_DA_ZPAGE_Book_pagesCount_PARAMETER_UPDATE_INCREMENT",
                          "Z_DA_ZPAGE_Book_pagesCount_PARAMETER_UPDATE_DECREMENT", "Z_DA_ZPAGE_Book_pagesCount_PARAMETER_DELETE",
                          "Z_DA_ZBOOK_Book_pagesCount_SOURCE_INSERT"])
        let firstTrigger = try #require(statements.firstIndex { $0.hasPrefix("CREATE TRIGGER") })
        #expect(statements[firstTrigger - 1].hasPrefix("CREATE INDEX"))
        #expect(statements[firstTrigger + 5].hasPrefix("CREATE TABLE Z_PRIMARYKEY"))
    }

    @Test(arguments: [
        ("pages.@sum.number", "the triggers Core Data generates for this form are not known"),
        ("title.lowercase", "'title' is not a relationship of 'Book'"),
        ("pages.number", "'pages' is a to-many relationship: of a to-many CoreSeed reproduces only '@count' (the triggers of its aggregates are not known)"),
        ("lowercase:(title)", "the triggers Core Data generates for this form are not known"),
        ("now()", "the triggers Core Data generates for this form are not known"),
        ("title.@count", "'title' is not a to-many relationship of 'Book'"),
    ])
    func otherDerivationsAreRefused(_ expression: String, _ reason: String) throws {
        let model = Self.sampleModel2.replacingOccurrences(of: "pages.@count", with: expression)
        #expect {
            try LayoutRuleTests.layout(model)
        } throws: { error in
            (error as? FileError)?.message == "attribute 'Book.pagesCount' is derived (\"\(expression)\"): \(reason), so a store for this model could hold values Core Data would not keep up to date; CoreSeed reproduces only '<to-many relationship>.@count' and '<to-one relationship>.<attribute>' (DESIGN §4b.12, docs/LAYOUT.md): remove the derivation or change it to one of those forms"
        }
    }

    @Test func aCountThroughAManyToManyIsRefused() throws {
        let model = """
            <entity name="Tag"><attribute name="n" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="posts.@count"/>
              <relationship name="posts" optional="YES" toMany="YES" destinationEntity="Post" inverseName="tags" inverseEntity="Post"/></entity>
            <entity name="Post"><relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="posts" inverseEntity="Tag"/></entity>
            """
        #expect(throws: FileError.self) { try LayoutRuleTests.layout(model) }
    }
}

/// A derived attribute's version hash: SHA-256 of its derivation's `predicateFormat` (`count:(pages)`),
/// proven on the Book entity of `coredataplus-samplemodel2-v1` (a model built in code, rebuilt here from
/// its source: CoreDataPlus `SampleModel2+V1.swift`). A wrong hash makes Core Data refuse the store.
@Suite struct DerivedAttributeHashTests {
    static let model = """
        <model>
        <entity name="Book">
          <attribute name="uniqueID" attributeType="UUID"/>
          <attribute name="title" attributeType="String"/>
          <attribute name="price" attributeType="Decimal"/>
          <attribute name="cover" attributeType="Transformable"/>
          <attribute name="publishedAt" attributeType="Date"/>
          <attribute name="pagesCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="pages.@count"/>
          <relationship name="author" minCount="1" maxCount="1" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
          <relationship name="pages" minCount="1" maxCount="10000" toMany="YES" destinationEntity="Page" inverseName="book" inverseEntity="Page"/>
          <uniquenessConstraints><uniquenessConstraint><constraint value="uniqueID"/></uniquenessConstraint></uniquenessConstraints>
        </entity>
        <entity name="Author"><relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>
        <entity name="Page">
          <attribute name="isBookmarked" attributeType="Boolean"/>
          <attribute name="number" attributeType="Integer 32"/>
          <attribute name="content" attributeType="Transformable"/>
          <relationship name="book" minCount="1" maxCount="1" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/>
        </entity>
        </model>
        """

    @Test(.needsCorpus) func bookHashEqualsTheCorpusStores() throws {
        let model = try ModelParser.parse(data: Data(Self.model.utf8), path: "SampleModel2", versionName: "V1")
        let hashes = ModelHashes.compute(for: model)
        let store = TestPaths.corpus.appendingPathComponent("coredataplus-samplemodel2-v1/store.sqlite")
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(path: TestPaths.copyStore(store, into: directory).path, mode: .readWrite)
        let (_, metadata) = try StoreMetadata.read(from: database)
        // Book (with the derived pagesCount) and Page (without): the store's own hashes.
        #expect(hashes.entities["Book"] == metadata.versionHashes["Book"])
        #expect(hashes.entities["Page"] == metadata.versionHashes["Page"])
    }

    @Test func derivationsAreHashedInCoreDatasFormat() {
        #expect(VersionHasher.derivationFormat("pages.@count") == "count:(pages)")
        #expect(VersionHasher.derivationFormat("lines.amount.@sum") == "sum:(lines.amount)")
        #expect(VersionHasher.derivationFormat("author.name") == "author.name")
    }
}
