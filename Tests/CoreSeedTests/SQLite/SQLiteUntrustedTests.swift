import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// A connection hardened for a file that may be hostile runs none of its views or triggers and writes
/// nothing; a step that runs past its time limit is stopped; a backup blocked by a lock sleeps between
/// tries and gives up after its timeout.
@Suite struct SQLiteUntrustedTests {
    /// A store with a table `t` (3 rows), a view and a trigger, in a fresh folder.
    static func makeFile() throws -> (URL, String) {
        let directory = try TestPaths.temporaryDirectory()
        let path = directory.appendingPathComponent("file.sqlite").path
        let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        try database.execute("""
            CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT); INSERT INTO t (b) VALUES ('x'), ('y'), ('z');
            CREATE TABLE log (what TEXT);
            CREATE VIEW v AS SELECT * FROM t;
            CREATE TRIGGER logged AFTER INSERT ON t BEGIN INSERT INTO log VALUES ('inserted'); END;
            """)
        return (directory, path)
    }

    /// CPU seconds this thread has used.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @Test func aHardenedConnectionRunsNoViewAndWritesNothing() throws {
        let (directory, path) = try Self.makeFile()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A writable connection, so that only the hardening stops the writes.
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.hardenForUntrustedReading()
        #expect(try database.scalar("SELECT count(*) FROM t") == .integer(3))
        #expect(throws: SQLiteError(code: 1, message: "access to view \"v\" prohibited", sql: "SELECT count(*) FROM v", path: path)) {
            try database.scalar("SELECT count(*) FROM v")
        }
        #expect(throws: SQLiteError(code: 8, message: "attempt to write a readonly database", sql: "INSERT INTO t (b) VALUES ('w')", path: path)) {
            try database.execute("INSERT INTO t (b) VALUES ('w')")
        }
        #expect(throws: SQLiteError(code: 1, message: "table sqlite_master may not be modified", sql: "PRAGMA writable_schema = ON; DELETE FROM sqlite_master", path: path)) {
            try database.execute("PRAGMA writable_schema = ON; DELETE FROM sqlite_master")
        }
        #expect(try database.scalar("SELECT count(*) FROM log") == .integer(0))
    }

    @Test func aStepPastItsTimeLimitIsStopped() throws {
        let (directory, path) = try Self.makeFile()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try SQLiteDatabase(path: path, mode: .readOnly(immutable: false))
        database.limitStepDuration(to: .milliseconds(200))
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: SQLiteError(code: 9, message: "ran longer than 0.2 s, the time limit of one step", sql: endless, path: path)) {
            try database.scalar(endless)
        }
        #expect(clock.now - start < .seconds(3))
        // The clock starts anew with each step: rows read one by one are not cut short.
        let rows = try database.prepare("SELECT a FROM t")
        var count = 0
        while try rows.step() {
            usleep(120_000)
            count += 1
        }
        #expect(count == 3)
        // An error that is not the limit's keeps SQLite's own message.
        #expect(throws: SQLiteError(code: 1, message: "no such table: nowhere", sql: "SELECT * FROM nowhere", path: path)) {
            try database.scalar("SELECT * FROM nowhere")
        }
    }

    /// A source connection outside any transaction whose file another connection holds locked: the
    /// backup retries asleep and gives up after its timeout with SQLITE_BUSY.
    @Test func aBlockedBackupSleepsThenGivesUp() throws {
        let (directory, path) = try Self.makeFile()
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try SQLiteDatabase(path: path, mode: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        let source = try SQLiteDatabase(path: path, mode: .readOnly(immutable: false))
        let destination = try SQLiteDatabase(path: directory.appendingPathComponent("copy.sqlite").path, mode: .readWriteCreate)
        let clock = ContinuousClock()
        let start = clock.now, cpu = Self.threadCPUSeconds()
        #expect(throws: SQLiteError(code: 5, message: "still locked after 0.4 s (database is locked)", path: path)) {
            try source.backup(into: destination, timeout: .milliseconds(400))
        }
        #expect(clock.now - start >= .milliseconds(400))
        #expect(Self.threadCPUSeconds() - cpu < 0.2, "the retries sleep")
        try holder.execute("COMMIT")
        try source.backup(into: destination)
        #expect(try destination.scalar("SELECT count(*) FROM t") == .integer(3))
    }
}
