import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// `coreseed verify` on real stores: every corpus store passes and names its model version; altered
/// copies fail with one line naming what was expected and what was found, never an SQLite error.
@Suite struct VerifyCorpusTests {
    /// One entry of the corpus index.
    struct Entry: Sendable, CustomStringConvertible {
        let name: String, model: String, modelVersion: String, framework: Int, migrated: Bool
        var description: String { name }
    }

    static let entries: [Entry] = {
        let url = StoreOps.corpus.appendingPathComponent("index.json")
        guard let data = try? Data(contentsOf: url),
              let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return array.compactMap { entry in
            guard entry["xmlModel"] as? Bool == true, let name = entry["name"] as? String, let model = entry["model"] as? String,
                  let version = entry["modelVersion"] as? String, let framework = entry["frameworkVersion"] as? Int else { return nil }
            return Entry(name: name, model: StoreOps.corpus.appendingPathComponent(model).path,
                         modelVersion: String(version.dropLast(".xcdatamodel".count)), framework: framework,
                         migrated: entry["migrated"] as? Bool ?? false)
        }
    }()

    @Test(.needsCorpus) func theCorpusIsThere() {
        #expect(Self.entries.count >= 29, "expected the corpus at \(StoreOps.corpus.path)")
    }

    @Test(.needsCorpus, arguments: entries)
    func everyCorpusStoreVerifies(_ entry: Entry) throws {
        let scratch = try Scratch()
        let store = try StoreOps.copyCorpusStore(entry.name, into: scratch.url)
        let result = try scratch.run(["verify", store, "--model", entry.model])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(store): written by model version '\(entry.modelVersion)' (framework \(entry.framework))\n"))
        #expect(result.stdout.hasSuffix("\(store): OK\n"))
        #expect(!result.stderr.contains("error:"))
        if entry.migrated, entry.name.hasPrefix("wire-store2-85") {
            #expect(result.stdout.contains("\(store): note: migrated in place: table Z_15USERS: renamed (its name is quoted); its columns are the model's\n"))
        }
    }

    /// Alters a copy of a corpus store with `sql`, then runs `verify`.
    static func verifyAltered(_ name: String, _ sql: String, strict: Bool = false) throws -> (BinaryRunner.Result, String) {
        let scratch = try Scratch()
        let store = try StoreOps.copyCorpusStore(name, into: scratch.url)
        do {
            let database = try SQLiteDatabase(path: store, mode: .readWrite)
            try database.execute(sql)
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let model = try #require(entries.first { $0.name == name }).model
        return (try scratch.run(["verify", store, "--model", model] + (strict ? ["--strict"] : [])), store)
    }

    @Test(.needsCorpus) func renamedJoinTableNamesExpectedAndFound() throws {
        let (result, store) = try Self.verifyAltered("ddg-bookmarks-v4", "ALTER TABLE Z_1FAVORITES RENAME TO Z_1FAVORITEFOLDERS")
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(store): error: schema: expected join table Z_1FAVORITES (Z_1FAVORITEFOLDERS, Z_1FAVORITES, Z_FOK_1FAVORITES) for BookmarkEntity.favorites ↔ BookmarkEntity.favoriteFolders, found Z_1FAVORITEFOLDERS (Z_1FAVORITEFOLDERS, Z_1FAVORITES, Z_FOK_1FAVORITES)\n"))
        #expect(!result.stderr.contains("no such") && !result.stderr.contains("SQLite"))
    }

    @Test(.needsCorpus) func renamedColumnNamesExpectedAndFound() throws {
        let (result, store) = try Self.verifyAltered("wire-store2-30-0", "ALTER TABLE Z_11USERS RENAME COLUMN Z_17USERS1 TO Z_17USERS")
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(store): error: schema: table Z_11USERS (SystemMessage.users ↔ User.systemMessages): expected column Z_17USERS1 INTEGER, found Z_17USERS INTEGER\n"))
        #expect(!result.stderr.contains("no such") && !result.stderr.contains("SQLite"))
    }

    @Test(.needsCorpus) func renamedEntityTableColumnIsNamed() throws {
        let (result, store) = try Self.verifyAltered("objcio-moody1", "ALTER TABLE ZMOOD RENAME COLUMN ZCOLORS TO ZCOLOURS")
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(store): error: schema: table ZMOOD (entity Mood): expected column ZCOLORS BLOB, found ZCOLOURS BLOB\n"))
        #expect(!result.stderr.contains("no such") && !result.stderr.contains("SQLite"))
    }

    @Test(.needsCorpus) func renumberedEntityFails() throws {
        let (result, store) = try Self.verifyAltered("carekit-samplestore2.0", "UPDATE Z_PRIMARYKEY SET Z_ENT = 40 WHERE Z_ENT = 4")
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(store): error: Z_PRIMARYKEY: entity OCKCDNote is Z_ENT 40, expected Z_ENT 4 (Core Data would read its rows as another entity)\n"))
    }

    @Test(.needsCorpus) func droppedTableIsAMissingTableNotAnSQLiteError() throws {
        let (result, store) = try Self.verifyAltered("bnr-coredatastack-testmodel", "DROP TABLE Z_1BOOKS; DROP TABLE ZBOOK")
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(store): error: schema: missing join table Z_1BOOKS (Z_1AUTHORS, Z_2BOOKS) for Author.books ↔ Book.authors\n"))
        #expect(result.stderr.contains("\(store): error: schema: missing table ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) for entity Book\n"))
        #expect(!result.stderr.contains("no such") && !result.stderr.contains("SQLite"))
    }

    @Test(.needsCorpus) func danglingKeysWarnAndFailOnlyWhenStrict() throws {
        let (plain, store) = try Self.verifyAltered("wire-store1-27", "SELECT 1")
        #expect(plain.status == 0)
        #expect(plain.stderr.contains("\(store): warning: ZCONVERSATION.ZCREATOR: 4 dangling key(s) (Conversation.creator → User) (Core Data does not enforce foreign keys; a store it wrote may hold these)\n"))
        let (strict, _) = try Self.verifyAltered("wire-store1-27", "SELECT 1", strict: true)
        #expect(strict.status == 1)
        #expect(!strict.stdout.contains("OK"))
    }

    @Test func schemaReproducesEachEra() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Era", """
            <entity name="Item">
              <attribute name="code" attributeType="String" indexed="YES"/>
              <attribute name="rank" optional="YES" attributeType="Integer 32"/>
              <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            """)
        let legacy = try scratch.run(["schema", "Era.xcdatamodeld", "--framework-version", "754"])
        #expect(legacy.status == 0)
        #expect(legacy.stdout.contains("CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRANK INTEGER, ZCODE VARCHAR, CONSTRAINT ZCODE UNIQUE (ZCODE));\nCREATE INDEX ZITEM_ZCODE_INDEX ON ZITEM (ZCODE);\n"))
        let modern = try scratch.run(["schema", "Era.xcdatamodeld", "--framework-version", "836"])
        #expect(modern.stdout.contains("CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRANK INTEGER, ZCODE VARCHAR );\n"))
        #expect(modern.stdout.contains("CREATE UNIQUE INDEX Z_Item_UNIQUE_code ON ZITEM (ZCODE COLLATE BINARY ASC);\n"))
        #expect(modern.stdout.contains("CREATE INDEX Z_Item_code ON ZITEM (ZCODE COLLATE BINARY ASC);\n"))
        let newest = try scratch.run(["schema", "Era.xcdatamodeld"])
        #expect(newest.stdout == modern.stdout)
    }
}

/// `verify` on files that are not Core Data stores: one line each, no SQLite or Swift internals.
@Suite struct VerifyNonStoreTests {
    static let model = BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/Carriers.xcdatamodeld").path

    @Test func aPlainSQLiteDatabaseIsNotACoreDataStore() throws {
        let scratch = try Scratch()
        do {
            let database = try SQLiteDatabase(path: scratch.path("plain.sqlite"), mode: .readWriteCreate)
            try database.execute("CREATE TABLE t (x)")
        }
        let result = try scratch.run(["verify", "plain.sqlite", "--model", Self.model])
        #expect(result.status == 1)
        #expect(result.stderr == "plain.sqlite: error: no Z_METADATA table with Z_UUID and Z_PLIST: not a Core Data store (tables: t)\n")
    }

    @Test(.needsCorpus) func aBrokenMetadataPlistIsNamedWithoutATemporaryPath() throws {
        let (result, store) = try VerifyCorpusTests.verifyAltered("bnr-coredatastack-testmodel", "UPDATE Z_METADATA SET Z_PLIST = x'00'")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(store): error: Z_METADATA: Z_PLIST is not a property list"))
        #expect(!result.stderr.contains("coreseed-snapshot") && !result.stderr.contains("FileError"))
    }

    @Test(.needsCorpus) func aViewInPlaceOfAnEntityTableIsNamed() throws {
        let (result, store) = try VerifyCorpusTests.verifyAltered("bnr-coredatastack-testmodel",
            "DROP TABLE ZBOOK; CREATE VIEW ZBOOK AS SELECT 1 AS Z_PK, 2 AS Z_ENT, 1 AS Z_OPT, 'x' AS ZTITLE")
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(store): error: schema: missing table ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) for entity Book\n"))
        #expect(result.stderr.contains("\(store): error: schema: unexpected view ZBOOK: CREATE VIEW ZBOOK"))
    }
}
