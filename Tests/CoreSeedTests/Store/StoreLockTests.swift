import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 24, item 14: `build --into` checks under its lock, before the rename, that the store has not
/// changed since the run began. The check was file identity, size and modification time (and the
/// `-wal`'s size) only: a commit that keeps the file's size within one tick of a coarse modification
/// time (FAT, SMB, a tool that restores the time) went unseen, and a WAL restarted after a
/// checkpoint keeps its size. SQLite's file change counter and the WAL header are compared too.
struct StoreLockTests {
    static func store() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coreseed-lock-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/S.sqlite"
        let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        try database.execute("CREATE TABLE T (V TEXT); INSERT INTO T VALUES ('aaaa')")
        return path
    }

    /// Sets the file's modification time back to `time` (as a coarse clock or `touch -r` would leave it).
    static func setModified(_ path: String, _ time: timespec) {
        var times = [time, time]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    @Test func aCommitThatKeepsSizeAndTimeIsSeen() throws {
        let path = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        var before = stat()
        #expect(stat(path, &before) == 0)
        let lock = try #require(try StoreLock.acquire(path, timeout: .seconds(1)))
        try lock.refuseIfChanged(path)  // unchanged: no complaint
        // Another process commits in rollback mode: same page count, same size.
        let other = try SQLiteDatabase(path: path, mode: .readWrite)
        try other.execute("UPDATE T SET V = 'bbbb'")
        var after = stat()
        #expect(stat(path, &after) == 0 && after.st_size == before.st_size)
        Self.setModified(path, before.st_mtim)
        #expect(throws: FileError.self) { try lock.refuseIfChanged(path) }
    }

    @Test func aRestartedWALOfTheSameSizeIsSeen() throws {
        let path = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let app = try SQLiteDatabase(path: path, mode: .readWrite)
        try app.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; UPDATE T SET V = 'bbbb'")
        try app.execute("PRAGMA wal_checkpoint(PASSIVE)")
        var before = stat(), wal = stat()
        #expect(stat(path, &before) == 0 && stat(path + "-wal", &wal) == 0)
        let lock = try #require(try StoreLock.acquire(path, timeout: .seconds(1)))
        // The next commit restarts the WAL from its start (new salts): its size stays, the database file is not written.
        try app.execute("UPDATE T SET V = 'cccc'")
        var walAfter = stat()
        #expect(stat(path + "-wal", &walAfter) == 0 && walAfter.st_size == wal.st_size)
        Self.setModified(path, before.st_mtim)
        #expect(throws: FileError.self) { try lock.refuseIfChanged(path) }
    }
}
