import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// End-to-end: `coreseed backup` on a WAL store whose committed rows are still only in its -wal.
@Suite(.serialized) struct BackupCommandTests {
    static let moodyModel = StoreOps.corpus.appendingPathComponent("objcio-moody1/model/Moody.xcdatamodeld").path

    /// Puts the store at `path` in WAL mode and commits three Mood rows (Z_ENT 4) that stay in the -wal.
    /// The returned connection must stay open while the -wal is to keep them (closing checkpoints).
    static func walWriter(_ path: String) throws -> (SQLiteDatabase, Int64) {
        let writer = try SQLiteDatabase(path: path, mode: .readWrite)
        try writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        guard case .integer(let max)? = try writer.scalar("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 4") else {
            throw FileError(path: path, message: "no Z_MAX for Mood")
        }
        try writer.execute("""
            BEGIN;
            INSERT INTO ZMOOD (Z_PK, Z_ENT, Z_OPT, ZCREATORID) VALUES (\(max + 1), 4, 1, 'wal-1'), (\(max + 2), 4, 1, 'wal-2'), (\(max + 3), 4, 1, 'wal-3');
            UPDATE Z_PRIMARYKEY SET Z_MAX = \(max + 3) WHERE Z_ENT = 4;
            COMMIT
            """)
        return (writer, max)
    }

    static func checkCopy(_ scratch: Scratch, _ name: String) throws {
        #expect(try scratch.query(name, "SELECT ZCREATORID FROM ZMOOD WHERE ZCREATORID LIKE 'wal-%' ORDER BY Z_PK") == [["wal-1"], ["wal-2"], ["wal-3"]])
        #expect(try scratch.query(name, "PRAGMA journal_mode") == [["delete"]])
        let verify = try scratch.run(["verify", name, "--model", moodyModel])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.hasSuffix("\(name): OK\n"))
    }

    @Test(.needsCorpus) func liveWALStoreIsReadInPlaceWithoutChangingItOrItsWAL() throws {
        let scratch = try Scratch()
        let live = scratch.url.appendingPathComponent("live")
        let source = try StoreOps.copyCorpusStore("objcio-moody1", into: live)
        let (writer, _) = try BackupCommandTests.walWriter(source)
        let walSize = (try FileManager.default.attributesOfItem(atPath: source + "-wal")[.size] as? Int) ?? 0
        #expect(walSize > 0)
        let before = try StoreOps.contents(of: live)
        #expect(before.keys.sorted() == ["store.sqlite", "store.sqlite-shm", "store.sqlite-wal"])
        // The rows are committed but not in the main file yet.
        let mainOnly = try SQLiteDatabase(path: source, mode: .readOnly(immutable: true))
        #expect(try StoreOps.rows(mainOnly, "SELECT count(*) FROM ZMOOD WHERE ZCREATORID LIKE 'wal-%'") == [["0"]])

        let result = try scratch.run(["backup", "live/store.sqlite", "out/copy.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(result.stdout.hasPrefix("out/copy.sqlite: ") && result.stdout.hasSuffix(" bytes, read live/store.sqlite in place\n"))
        let after = try StoreOps.contents(of: live)
        #expect(after.keys.sorted() == before.keys.sorted())
        #expect(after["store.sqlite"] == before["store.sqlite"])
        #expect(after["store.sqlite-wal"] == before["store.sqlite-wal"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("out")) == ["copy.sqlite"])
        try BackupCommandTests.checkCopy(scratch, "out/copy.sqlite")
        withExtendedLifetime(writer) {}
    }

    @Test(.needsCorpus) func walFilesWithoutTheirSHMAreReadFromAPrivateCopy() throws {
        let scratch = try Scratch()
        let live = scratch.url.appendingPathComponent("live")
        let source = try StoreOps.copyCorpusStore("objcio-moody1", into: live)
        let frozen = scratch.url.appendingPathComponent("frozen")
        try FileManager.default.createDirectory(at: frozen, withIntermediateDirectories: true)
        do {
            // Copy the store and its -wal while the writer is still open: the rows are only in the -wal copy.
            let (writer, _) = try BackupCommandTests.walWriter(source)
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: frozen.appendingPathComponent("store.sqlite" + suffix).path)
            }
            withExtendedLifetime(writer) {}
        }
        let before = try StoreOps.contents(of: frozen)
        let result = try scratch.run(["backup", "frozen/store.sqlite", "copy.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix(" bytes, read a private copy of frozen/store.sqlite (its -wal holds content but it has no -shm, which reading it in place would create beside it)\n"))
        #expect(try StoreOps.contents(of: frozen) == before)
        try BackupCommandTests.checkCopy(scratch, "copy.sqlite")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("copy.sqlite-wal")))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("copy.sqlite-shm")))
    }

    @Test func errorsSayWhatIsWrong() throws {
        let scratch = try Scratch()
        let missing = try scratch.run(["backup", "nope.sqlite", "copy.sqlite"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "nope.sqlite: error: no store at this path\n")
        try scratch.write("text.sqlite", "not a database")
        let notSQLite = try scratch.run(["backup", "text.sqlite", "copy.sqlite"])
        #expect(notSQLite.status == 1)
        #expect(notSQLite.stderr == "text.sqlite: error: not a SQLite database (no 'SQLite format 3' header)\n")
        let usage = try scratch.run(["backup", "only.sqlite"])
        #expect(usage.status == 64)
        #expect(usage.stderr.hasPrefix("error: missing DST\nUsage: coreseed backup SRC DST [--timeout SECONDS]\n"))
        _ = try SQLiteDatabase(path: scratch.path("store.sqlite"), mode: .readWriteCreate).execute("CREATE TABLE t (x)")
        let same = try scratch.run(["backup", "store.sqlite", "./store.sqlite"])
        #expect(same.status == 64)
        #expect(same.stderr == "./store.sqlite: error: the copy cannot replace the store it copies\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["store.sqlite", "text.sqlite"])
    }
}
