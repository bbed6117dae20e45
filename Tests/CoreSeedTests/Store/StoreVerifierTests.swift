import Foundation
import Testing
@testable import CoreSeed

@Suite struct StoreVerifierTests {
    @Test(arguments: CorpusStore.withXMLModel)
    func everyCorpusStoreVerifiesAndNamesItsVersion(_ entry: CorpusStore) throws {
        let versions = try ModelVersions.load(path: entry.modelPath)
        let report = try StoreVerifier(versions: versions).verify(storeAt: entry.storeURL.path)
        #expect(report.differences == [])
        #expect(report.matchedVersion.map { $0 + ".xcdatamodel" } == entry.modelVersion)
        #expect(report.frameworkVersion == entry.frameworkVersion)
    }

    @Test func verifyLeavesAWALStoreAndItsSidecarsUntouched() throws {
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
    static func verifyAltered(_ name: String, _ change: (SQLiteDatabase) throws -> Void) throws -> StoreVerifier.Report {
        let entry = try #require(CorpusStore.withXMLModel.first { $0.name == name })
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try TestPaths.copyStore(entry.storeURL, into: directory)
        do {
            let db = try SQLiteDatabase(path: store.path, mode: .readWrite)
            try change(db)
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        return try StoreVerifier(versions: try ModelVersions.load(path: entry.modelPath)).verify(storeAt: store.path)
    }

    @Test func alteredSchemaIsNamed() throws {
        let report = try Self.verifyAltered("failedbankcd-beepscore") { db in
            try db.execute("DROP INDEX ZFAILEDBANKINFO_ZDETAILS_INDEX")
        }
        #expect(report.matchedVersion == "FailedBankCD")
        #expect(report.differences == ["schema: missing CREATE INDEX ZFAILEDBANKINFO_ZDETAILS_INDEX ON ZFAILEDBANKINFO (ZDETAILS)"])
    }

    @Test func alteredEntityListIsNamed() throws {
        let report = try Self.verifyAltered("bnr-coredatastack-testmodel") { db in
            try db.execute("UPDATE Z_PRIMARYKEY SET Z_NAME = 'Writer' WHERE Z_ENT = 1")
        }
        #expect(report.differences == ["Z_PRIMARYKEY: Z_ENT 1 is Writer with Z_SUPER 0, expected Author with Z_SUPER 0"])
    }

    @Test func alteredHashIsNamed() throws {
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

    @Test func danglingKeysAndBadEntityNumbersAreNamed() throws {
        let report = try Self.verifyAltered("failedbankcd-beepscore") { db in
            try db.execute("UPDATE ZFAILEDBANKINFO SET ZDETAILS = 99999 WHERE Z_PK = 1; UPDATE ZFAILEDBANKDETAILS SET Z_ENT = 7 WHERE Z_PK = 2")
        }
        #expect(report.differences.contains("ZFAILEDBANKINFO.ZDETAILS: 1 dangling key(s) (FailedBankInfo.details → FailedBankDetails)"))
        #expect(report.differences.contains("ZFAILEDBANKDETAILS: 1 row(s) with a Z_ENT that is not a concrete entity of this table (1)"))
    }
}
