import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

@Suite struct StoreVerifierTests {
    @Test(.needsCorpus, arguments: CorpusStore.withXMLModel)
    func everyCorpusStoreVerifiesAndNamesItsVersion(_ entry: CorpusStore) throws {
        let versions = try ModelVersions.load(path: entry.modelPath)
        let report = try StoreVerifier(versions: versions).verify(storeAt: entry.storeURL.path)
        #expect(report.differences == [])
        #expect(report.matchedVersion.map { $0 + ".xcdatamodel" } == entry.modelVersion)
        #expect(report.frameworkVersion == entry.frameworkVersion)
    }

    @Test(.needsCorpus) func verifyLeavesAWALStoreAndItsSidecarsUntouched() throws {
        let entry = try #require(CorpusStore.withXMLModel.first { $0.name == "objcio-moody1" })
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try TestPaths.copyStore(entry.storeURL, into: directory)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let bytes = try Data(contentsOf: store)
        _ = try StoreVerifier(versions: try ModelVersions.load(path: entry.modelPath)).verify(storeAt: store.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
        #expect(try Data(contentsOf: store) == bytes)
    }

    /// Both checks find a b-tree page overwritten on disk: the full one (`verify`) and the quick one
    /// (the build's own check), each naming itself.
    @Test func damagedPageFailsTheQuickAndTheFullCheck() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("damaged.sqlite").path
        do {
            let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
            try database.execute("""
                CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT); CREATE INDEX t_b ON t (b);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
                INSERT INTO t SELECT i, printf('row %05d', i) FROM n;
                """)
            #expect(try StoreVerifier.integrityProblems(database, quick: true) == [])
        }
        // Page 5 is an interior or leaf page of the table: scribble over its cell area.
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: 4 * 4096 + 200)
        handle.write(Data(repeating: 0xA5, count: 2000))
        try handle.close()
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        let quick = try StoreVerifier.integrityProblems(database, quick: true)
        let full = try StoreVerifier.integrityProblems(database)
        #expect(!quick.isEmpty && quick.allSatisfy { $0.hasPrefix("quick_check: ") })
        #expect(!full.isEmpty && full.allSatisfy { $0.hasPrefix("integrity_check: ") })
    }

    /// A private copy of a corpus store, altered by `change`, then verified.
    static func verifyAltered(_ name: String, standard: StoreVerifier.Standard = .runTime,
                              _ change: (SQLiteDatabase) throws -> Void) throws -> StoreVerifier.Report {
        let entry = try #require(CorpusStore.withXMLModel.first { $0.name == name })
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try TestPaths.copyStore(entry.storeURL, into: directory)
        do {
            let db = try SQLiteDatabase(path: store.path, mode: .readWrite)
            try change(db)
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return try StoreVerifier(versions: try ModelVersions.load(path: entry.modelPath), standard: standard)
            .verify(storeAt: store.path)
    }

    @Test(.needsCorpus) func alteredSchemaIsNamed() throws {
        let report = try Self.verifyAltered("failedbankcd-beepscore") { db in
            try db.execute("DROP INDEX ZFAILEDBANKINFO_ZDETAILS_INDEX")
        }
        #expect(report.matchedVersion == "FailedBankCD")
        #expect(report.differences == ["schema: missing CREATE INDEX ZFAILEDBANKINFO_ZDETAILS_INDEX ON ZFAILEDBANKINFO (ZDETAILS)"])
    }

    @Test(.needsCorpus) func alteredEntityListIsNamed() throws {
        let report = try Self.verifyAltered("bnr-coredatastack-testmodel") { db in
            try db.execute("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Writer' WHERE Z_ENT = 1")
        }
        #expect(report.differences == ["Z_PRIMARYKEY: Z_ENT 1 is Writer with Z_SUPER 0, expected Author with Z_SUPER 0"])
    }

    @Test(.needsCorpus) func alteredHashIsNamed() throws {
        let report = try Self.verifyAltered("iqtodolist") { db in
            let (_, metadata) = try StoreMetadata.read(from: db)
            var changed = metadata
            changed.versionHashes["ToDoItem"] = [UInt8](repeating: 0, count: 32)
            let statement = try db.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
            try statement.bind([.blob(changed.binaryPropertyList())])
            try statement.step()
        }
        #expect(report.matchedVersion == nil)
        #expect(report.differences.first == "no version of the model matches the store's version hashes (versions: IQToDoList, IQToDoList 2)")
        #expect(report.differences.dropFirst().contains { $0.hasPrefix("entity ToDoItem: store hash AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= differs from model version") })
    }

    /// Dangling keys fail a store CoreSeed builds; in a store Core Data wrote they are warnings (§4b.9:
    /// real stores hold them). A wrong `Z_ENT` fails both.
    @Test(.needsCorpus, arguments: [StoreVerifier.Standard.freshStore, .runTime])
    func danglingKeysAndBadEntityNumbersAreNamed(_ standard: StoreVerifier.Standard) throws {
        let report = try Self.verifyAltered("failedbankcd-beepscore", standard: standard) { db in
            try db.execute("UPDATE ZFAILEDBANKINFO SET ZDETAILS = 99999 WHERE Z_PK = 1; UPDATE ZFAILEDBANKDETAILS SET Z_ENT = 7 WHERE Z_PK = 2")
        }
        let dangling = "ZFAILEDBANKINFO.ZDETAILS: 1 dangling key(s) (FailedBankInfo.details → FailedBankDetails)"
        if standard == .freshStore {
            #expect(report.differences.contains(dangling))
        } else {
            #expect(report.warnings.contains { $0.hasPrefix(dangling + " (Core Data does not enforce foreign keys") })
            #expect(!report.differences.contains { $0.contains("dangling") })
        }
        #expect(report.differences.contains("ZFAILEDBANKDETAILS: 1 row(s) with a Z_ENT that is not a concrete entity of this table (1)"))
    }

    /// A misnamed join table (the shape of a wrong many-to-many visit) is named with the expected and the
    /// found table, never as an SQLite error.
    @Test(.needsCorpus) func misnamedJoinTableNamesExpectedAndFound() throws {
        let report = try Self.verifyAltered("ddg-bookmarks-v4") { db in
            try db.execute("ALTER TABLE Z_1FAVORITES RENAME TO Z_1FAVORITEFOLDERS")
        }
        #expect(report.matchedVersion == "BookmarksModel 4")
        #expect(report.differences.contains("schema: expected join table Z_1FAVORITES (Z_1FAVORITEFOLDERS, Z_1FAVORITES, Z_FOK_1FAVORITES) for BookmarkEntity.favorites ↔ BookmarkEntity.favoriteFolders, found Z_1FAVORITEFOLDERS (Z_1FAVORITEFOLDERS, Z_1FAVORITES, Z_FOK_1FAVORITES)"))
        #expect(!report.differences.contains { $0.contains("no such") || $0.contains("SQLite") })
    }

    @Test(.needsCorpus) func misnamedJoinColumnIsNamed() throws {
        let report = try Self.verifyAltered("carekit-samplestore2.0") { db in
            try db.execute("ALTER TABLE Z_4TASK RENAME COLUMN Z_11TASK TO Z_10TASK")
        }
        #expect(report.differences.contains("schema: table Z_4TASK (OCKCDNote.task ↔ OCKCDTask.notes): expected column Z_11TASK INTEGER, found Z_10TASK INTEGER"))
        #expect(!report.differences.contains { $0.contains("no such") })
    }

    @Test(.needsCorpus) func renumberedEntityIsNamed() throws {
        let report = try Self.verifyAltered("bnr-coredatastack-testmodel") { db in
            try db.execute("UPDATE Z_PRIMARYKEY SET Z_ENT = 9 WHERE Z_ENT = 2")
        }
        #expect(report.differences.contains { $0.hasPrefix("Z_PRIMARYKEY: entity Book is Z_ENT 9, expected Z_ENT 2") })
        #expect(!report.isMatch)
    }

    /// A store migrated in place: its history is named in notes, and it passes.
    @Test(.needsCorpus) func migratedStoreHistoryIsNoted() throws {
        let entry = try #require(CorpusStore.withXMLModel.first { $0.name == "wire-store2-85-0" })
        let report = try StoreVerifier(versions: try ModelVersions.load(path: entry.modelPath)).verify(storeAt: entry.storeURL.path)
        #expect(report.differences == [])
        #expect(report.notes.contains("migrated in place: table Z_15USERS: renamed (its name is quoted); its columns are the model's"))
        #expect(report.notes.contains("migrated in place: table ZCONVERSATION: columns added with ALTER TABLE … ADD COLUMN; its columns are the model's"))
        #expect(report.notes.contains { $0.hasPrefix("migrated in place: stale index ZADDRESSBOOKENTRY_ZLOCALIDENTIFIER_INDEX") })
        let renamed = try #require(CorpusStore.withXMLModel.first { $0.name == "coredataplus-2018-samplemodel-v2" })
        let second = try StoreVerifier(versions: try ModelVersions.load(path: renamed.modelPath)).verify(storeAt: renamed.storeURL.path)
        #expect(second.differences == [])
        #expect(second.notes.contains("migrated in place: Z_PRIMARYKEY names entity LuxuryCar (Z_ENT 3) by its renaming identifier 'ExpensiveSportCar'"))
        // The same history fails the standard CoreSeed holds its own builds to.
        let fresh = try StoreVerifier(versions: try ModelVersions.load(path: entry.modelPath), standard: .freshStore)
            .verify(storeAt: entry.storeURL.path)
        #expect(!fresh.isMatch)
    }
}
