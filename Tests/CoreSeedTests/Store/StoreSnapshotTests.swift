import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// How a store is read (`StoreSnapshot`): the route for what lies beside it, nothing created or left
/// behind, a closed store read again when it changed, a hot journal rolled back in a private copy,
/// hostile schemas and endless queries stopped, and locks waited for asleep and then refused.
@Suite struct StoreSnapshotTests {
    /// A small table `t` (200 rows) in a new store at `path` in `journal` mode ("delete" or "wal"); the
    /// connection is closed, so a WAL store is left checkpointed with no `-wal` or `-shm`.
    static func makeStore(_ path: String, journal: String) throws {
        let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        _ = try database.scalar("PRAGMA journal_mode = \(journal)")
        try database.execute("""
            CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) INSERT INTO t SELECT i, 'row ' || i FROM n;
            """)
    }

    /// Every file of `folder` with its bytes.
    static func contents(of folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }

    static func names(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    static func count(_ snapshot: StoreSnapshot) throws -> SQLiteValue? {
        try snapshot.database.scalar("SELECT count(*) FROM t")
    }

    /// CPU seconds this thread has used.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    @Test func aRollbackStoreIsReadInPlaceThroughItsLocks() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("rollback.sqlite").path
        try Self.makeStore(store, journal: "delete")
        let (route, count) = try StoreSnapshot.read(path: store) { ($0.route, try Self.count($0)) }
        #expect(route == .locked)
        #expect(count == .integer(200))
        #expect(try Self.names(in: directory) == ["rollback.sqlite"])
    }

    @Test func aClosedWALStoreIsReadImmutableAndNothingIsCreatedBesideIt() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("closed.sqlite").path
        try Self.makeStore(store, journal: "wal")
        #expect(try Self.names(in: directory) == ["closed.sqlite"])
        let (route, count) = try StoreSnapshot.read(path: store) { ($0.route, try Self.count($0)) }
        #expect(route == .closedInPlace)
        #expect(count == .integer(200))
        #expect(try Self.names(in: directory) == ["closed.sqlite"])
    }

    /// A closed WAL store whose file a writer changes during the read is read again, then through the
    /// writer's -wal and -shm while it stays open.
    @Test func aClosedStoreThatChangesDuringTheReadIsReadAgain() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("closed.sqlite").path
        try Self.makeStore(store, journal: "wal")
        var writer: SQLiteDatabase?
        var runs: [(StoreSnapshot.Route, SQLiteValue?)] = []
        let count = try StoreSnapshot.read(path: store) { snapshot in
            let count = try Self.count(snapshot)
            runs.append((snapshot.route, count))
            if writer == nil {
                // An app opens the store, commits, checkpoints into the file, and stays open.
                let app = try SQLiteDatabase(path: store, mode: .readWrite)
                try app.execute("INSERT INTO t (b) VALUES ('new'); PRAGMA wal_checkpoint(TRUNCATE)")
                writer = app
            }
            return count
        }
        #expect(runs.map(\.0) == [.closedInPlace, .locked])
        #expect(count == .integer(201))
        withExtendedLifetime(writer) {}
    }

    /// A WAL store whose -wal holds its last rows, beside no -shm: read from a private copy in $TMPDIR,
    /// removed when the read ends; nothing is created beside the store.
    @Test func aWALWithoutItsSHMIsReadFromAPrivateCopyThatIsRemoved() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = directory.appendingPathComponent("live.sqlite").path
        let frozen = directory.appendingPathComponent("frozen")
        try FileManager.default.createDirectory(at: frozen, withIntermediateDirectories: true)
        try Self.makeStore(live, journal: "wal")
        do {
            let writer = try SQLiteDatabase(path: live, mode: .readWrite)
            try writer.execute("PRAGMA wal_autocheckpoint = 0; INSERT INTO t (b) VALUES ('only in the wal')")
            for suffix in ["", "-wal"] {
                try FileManager.default.copyItem(atPath: live + suffix, toPath: frozen.appendingPathComponent("store.sqlite" + suffix).path)
            }
        }
        let store = frozen.appendingPathComponent("store.sqlite").path
        var copy = ""
        let (route, count) = try StoreSnapshot.read(path: store) { snapshot in
            copy = snapshot.database.path
            return (snapshot.route, try Self.count(snapshot))
        }
        #expect(route == .privateCopy(reason: "its -wal holds content but it has no -shm, which reading it in place would create beside it"))
        #expect(count == .integer(201))
        #expect(copy.hasPrefix(FileManager.default.temporaryDirectory.path))
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: copy).deletingLastPathComponent().path))
        #expect(try Self.names(in: frozen) == ["store.sqlite", "store.sqlite-wal"])
    }

    /// A rollback-journal store whose writer stopped mid-transaction (its pages half written into the file,
    /// a hot -journal beside it) is read from a private copy that SQLite rolls back: the last committed
    /// state, and the store and its -journal untouched.
    @Test func aHotJournalIsRolledBackInAPrivateCopy() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = directory.appendingPathComponent("live.sqlite").path
        let crashed = directory.appendingPathComponent("crashed")
        try FileManager.default.createDirectory(at: crashed, withIntermediateDirectories: true)
        try Self.makeStore(live, journal: "delete")
        do {
            // A writer whose tiny cache spills its changes into the file before it commits; the files are
            // copied as a crash would leave them.
            let writer = try SQLiteDatabase(path: live, mode: .readWrite)
            try writer.execute("PRAGMA cache_size = 1; BEGIN; UPDATE t SET b = hex(randomblob(300)); INSERT INTO t (b) VALUES ('never committed')")
            for suffix in ["", "-journal"] {
                try FileManager.default.copyItem(atPath: live + suffix, toPath: crashed.appendingPathComponent("store.sqlite" + suffix).path)
            }
            try writer.execute("ROLLBACK")
        }
        let store = crashed.appendingPathComponent("store.sqlite").path
        let before = try Self.contents(of: crashed)
        let (route, count, sample) = try StoreSnapshot.read(path: store) { snapshot in
            (snapshot.route, try Self.count(snapshot), try snapshot.database.scalar("SELECT b FROM t WHERE a = 7"))
        }
        #expect(route == .privateCopy(reason: "its -journal is hot (a writer stopped in the middle of a transaction), and only a connection that can write may roll it back"))
        #expect(count == .integer(200) && sample == .text("row 7"))
        #expect(try Self.contents(of: crashed) == before)
    }

    /// A store an app has open in WAL mode (its -wal and -shm beside it) is read in place, in one read
    /// transaction: rows the app commits meanwhile are not seen.
    @Test func aLiveWALStoreIsReadInOneTransaction() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("live.sqlite").path
        try Self.makeStore(store, journal: "wal")
        let app = try SQLiteDatabase(path: store, mode: .readWrite)
        try app.execute("INSERT INTO t (b) VALUES ('committed before')")
        let counts = try StoreSnapshot.read(path: store) { snapshot in
            let first = try Self.count(snapshot)
            try app.execute("INSERT INTO t (b) VALUES ('committed during the read')")
            return (snapshot.route, first, try Self.count(snapshot))
        }
        #expect(counts.0 == .locked)
        #expect(counts.1 == .integer(201) && counts.2 == .integer(201))
        #expect(try app.scalar("SELECT count(*) FROM t") == .integer(202))
    }

    /// Views and triggers never run, nothing can be written, and no step runs longer than its limit.
    @Test func aHostileSchemaRunsNothingAndAnEndlessQueryIsStopped() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("hostile.sqlite").path
        try Self.makeStore(store, journal: "delete")
        do {
            let database = try SQLiteDatabase(path: store, mode: .readWrite)
            try database.execute("""
                CREATE VIEW plain AS SELECT * FROM t;
                CREATE VIEW endless AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c
                """)
        }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: FileError(path: store, message: "cannot read the store: access to view \"plain\" prohibited (in SELECT count(*) FROM plain)")) {
            try StoreSnapshot.read(path: store) { try $0.database.scalar("SELECT count(*) FROM plain") }
        }
        // SQLite refuses the endless view too, if in words about its inner query.
        #expect(throws: FileError(path: store, message: "cannot read the store: no such table: main.c (in SELECT count(*) FROM endless)")) {
            try StoreSnapshot.read(path: store) { try $0.database.scalar("SELECT count(*) FROM endless") }
        }
        #expect(throws: FileError(path: store, message: "cannot read the store: attempt to write a readonly database (in DELETE FROM t)")) {
            try StoreSnapshot.read(path: store) { try $0.database.execute("DELETE FROM t") }
        }
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        #expect(throws: FileError(path: store, message: "a query ran longer than 0.3 s, the time limit of one step (in \(endless))")) {
            try StoreSnapshot.read(path: store, stepLimit: .milliseconds(300)) { try $0.database.scalar(endless) }
        }
        #expect(clock.now - start < .seconds(5))
        #expect(try StoreSnapshot.read(path: store) { try Self.count($0) } == .integer(200))
    }

    /// While another connection holds the store's exclusive lock, a backup waits asleep (not spinning),
    /// then gives up with "in use by another process" once its timeout has passed.
    @Test func aLockedStoreIsWaitedForAsleepThenRefused() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("locked.sqlite").path
        try Self.makeStore(store, journal: "delete")
        let holder = try SQLiteDatabase(path: store, mode: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        let clock = ContinuousClock()
        let start = clock.now, cpu = Self.threadCPUSeconds()
        #expect(throws: FileError(.unreadableInput, path: store, message: "store in use by another process: it stayed locked for 0.5 s (database is locked); try again when it is free, or wait longer with the `timeout` option")) {
            try StoreBackup.backup(from: store, to: directory.appendingPathComponent("copy.sqlite").path, timeout: .milliseconds(500))
        }
        let waited = clock.now - start
        #expect(waited >= .milliseconds(450) && waited < .seconds(5))
        #expect(Self.threadCPUSeconds() - cpu < 0.25, "the wait is asleep")
        try holder.execute("COMMIT")
        #expect(try Self.names(in: directory) == ["locked.sqlite"])
    }
}
