import Foundation

/// A consistent, read-only view of an existing store, read through SQLite: how every command that reads
/// a store opens it (`verify`, `inspect`, `export`, `backup`, an upsert's copy of its target). The store
/// and its sidecars are never written, and nothing is created beside it.
///
/// How depends on what lies beside the store when it is opened (`Route`):
/// - `locked`: a rollback-journal store, or a WAL store with its `-wal` and `-shm` (an app has it open, or
///   had). Opened in place read-only (`mode=ro`, not immutable), so SQLite honours other processes' locks
///   and replays the WAL into its read view; every read runs in one read transaction (`BEGIN`, a first
///   read, …, `COMMIT`), so it sees one committed state however an app writes meanwhile. A lock another
///   process holds (a rollback-journal writer committing) is waited for up to `timeout`, asleep in SQLite's
///   busy handler; then the store is "in use by another process".
/// - `closedInPlace`: a WAL store that no process has open with a WAL to join — no `-wal`, or one without
///   frames and no `-shm` — so all its content is in the store file. A `mode=ro` open would create a
///   `-wal` and a `-shm` beside it and leave them there (a read-only connection cannot remove them), in a
///   folder that may be shared or read-only; so it is opened with `immutable=1`, which creates nothing and
///   takes no lock. Such a read is consistent only while no process writes the store file, and a writer
///   can change it only by checkpointing a WAL that it must first create: so the file is looked at
///   (`stat`: size, modification and change times) before and after, and `read` reads again when it
///   changed (by then through the writer's `-wal` and `-shm`), at most 3 times. What this cannot see: a
///   writer that opens, commits, checkpoints and closes again within one tick of the file system's clock
///   (a few milliseconds) after the file's previous change.
/// - `privateCopy`: a WAL store whose `-wal` holds frames beside no `-shm` (copied without it, or left so
///   by a crash): no process has it open (an open WAL connection keeps a `-shm`), and reading it in place
///   would create the `-shm`. The store and its `-wal` are copied into a private folder in `$TMPDIR`,
///   which is removed when the snapshot ends and on SIGINT or SIGTERM (`InterruptCleanup`); the copy is
///   opened read-write, so SQLite replays the WAL into it. A copy taken while the files changed is taken
///   again, within `timeout`. Also the fallback when SQLite cannot use a WAL store's `-shm` in place (it
///   copes with a read-only `-shm` itself; an unreadable one fails): there an app may be writing, and its
///   writes make the copy be taken again until `timeout`, then "in use".
///
/// A rollback-journal store with a hot `-journal` (its writer stopped mid-transaction, so no process holds
/// its lock) is read from a private copy too, store and `-journal`, which SQLite rolls back: a read-only
/// connection cannot, and the store itself is never written.
///
/// Every connection is hardened for a store that may be hostile (`hardenForUntrustedReading`: defensive,
/// untrusted schema, views and triggers off, `query_only`), and no step of a query runs longer than
/// `stepLimit` (30 s, plus 1 s per 4 MiB of store).
///
/// The route is chosen from the file's first 100 bytes (`StoreFileHeader`, plain file I/O) and its
/// sidecars (`stat`). POSIX drops every lock a process holds on a file when it closes any descriptor of
/// it: a process that has the store open through another SQLite connection would lose that connection's
/// locks here, so it verifies through that connection (`StoreVerifier.verify(_:into:)`) instead.
///
/// Not `Sendable`: it owns an open connection. `end()` (or deinit) commits the read transaction, closes
/// the connection and removes a private copy.
public final class StoreSnapshot {
    /// How the store is read.
    public enum Route: Sendable, Equatable {
        /// In place, read-only, honouring locks, in one read transaction.
        case locked
        /// In place, immutable: a closed WAL store, checked unchanged after the read.
        case closedInPlace
        /// From a private copy in `$TMPDIR`, for the reason given.
        case privateCopy(reason: String)
    }

    /// How long a lock held by another process is waited for, by default.
    public static let defaultTimeout: Duration = .seconds(10)
    /// How many times `read` reads a closed store that changed while it was read.
    static let attempts = 3

    /// The longest one step of a query may run on a store of `size` bytes: 30 s, plus 1 s per 4 MiB.
    public static func defaultStepLimit(storeSize size: Int) -> Duration {
        SQLiteDatabase.defaultStepLimit(databaseSize: size)
    }

    /// The store as the user named it.
    public let originalPath: String
    /// Sidecar files that existed beside the store when it was opened (`-wal`, `-shm`, `-journal`) and their sizes.
    public let sidecars: [(name: String, size: Int)]
    /// How the store is read.
    public private(set) var route: Route
    /// How long a lock held by another process is waited for.
    public let timeout: Duration
    private let before: StoreFiles
    private var connection: SQLiteDatabase?
    private var copyFolder: String?
    private var cleanup: InterruptCleanup.Registration?

    /// The connection to the store (or to its private copy), inside its read transaction. Not after `end()`.
    public var database: SQLiteDatabase {
        guard let connection else { preconditionFailure("StoreSnapshot.database used after end()") }
        return connection
    }

    /// Runs `body` on a snapshot of the store at `path` and ends it. When the store was read in place
    /// immutable (`closedInPlace`) and its file changed meanwhile, `body` runs again on a new snapshot.
    /// SQLite errors about the store become `FileError`s that name it and say what to do.
    public static func read<T>(path: String, timeout: Duration = defaultTimeout, stepLimit: Duration? = nil,
                               _ body: (StoreSnapshot) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            let snapshot = try StoreSnapshot(path: path, timeout: timeout, stepLimit: stepLimit)
            let outcome = Result { try body(snapshot) }
            let source = snapshot.database.path
            if snapshot.end() {
                do {
                    return try outcome.get()
                } catch let error as SQLiteError where error.path == source || error.path == nil {
                    throw StoreSnapshot.fileError(error, store: path, timeout: timeout)
                }
            }
            if attempt == attempts {
                throw FileError(.unreadableInput, path: path, message: "store in use by another process: its file changed while it was read, \(attempts) times; try again when it is free, or wait longer with \(RunOption.timeout)")
            }
        }
    }

    /// Opens a snapshot of the store at `path`. Throws `FileError` when the file is missing, not a
    /// database, or in use beyond `timeout`. A caller that does not go through `read` calls `end()`, and
    /// reads again when it returns false.
    public init(path: String, timeout: Duration = defaultTimeout, stepLimit: Duration? = nil) throws {
        let header = try StoreFileHeader(path: path)
        let files = StoreFiles(path)
        let limit = stepLimit ?? StoreSnapshot.defaultStepLimit(storeSize: files.store?.size ?? 0)
        self.originalPath = path
        self.timeout = timeout
        self.before = files
        self.sidecars = files.sidecars(of: path)
        let isWAL = header.journalMode == .wal || files.wal != nil
        var route: Route = .locked
        if isWAL && (files.wal == nil || (files.shm == nil && !files.walHasFrames)) {
            route = .closedInPlace
        } else if isWAL && files.shm == nil {
            route = .privateCopy(reason: "its -wal holds content but it has no -shm, which reading it in place would create beside it")
        }
        self.route = route
        do {
            switch route {
            case .locked:
                let inPlace = Result { () throws(SQLiteError) in
                    try StoreSnapshot.open(path, .readOnly(immutable: false), timeout: timeout, stepLimit: limit)
                }
                switch inPlace {
                case .success(let database):
                    connection = database
                case .failure(let error) where isWAL && StoreSnapshot.cannotShareWAL(error):
                    self.route = .privateCopy(reason: "its -shm cannot be used in place (\(error.message))")
                    connection = try openCopy(of: path, sidecar: .wal, timeout: timeout, stepLimit: limit)
                case .failure(let error) where !isWAL && error.code == .readOnlyRollback:
                    self.route = .privateCopy(reason: "its -journal is hot (a writer stopped in the middle of a transaction), and only a connection that can write may roll it back")
                    connection = try openCopy(of: path, sidecar: .journal, timeout: timeout, stepLimit: limit)
                case .failure(let error):
                    throw error
                }
            case .closedInPlace:
                connection = try StoreSnapshot.open(path, .readOnly(immutable: true), timeout: timeout, stepLimit: limit)
            case .privateCopy:
                connection = try openCopy(of: path, sidecar: .wal, timeout: timeout, stepLimit: limit)
            }
        } catch let error as SQLiteError {
            removeCopy()
            throw StoreSnapshot.fileError(error, store: path, timeout: timeout)
        } catch {
            removeCopy()
            throw error
        }
    }

    deinit {
        connection = nil
        removeCopy()
    }

    /// Ends the read: commits the read transaction, closes the connection, removes a private copy.
    /// Returns whether the read saw one committed state: always, except when a closed store read in
    /// place (immutable) had its file changed meanwhile, when what was read may mix two states.
    @discardableResult
    public func end() -> Bool {
        if let connection { try? connection.execute("COMMIT") }
        connection = nil
        removeCopy()
        guard route == .closedInPlace else { return true }
        return StoreFiles.status(originalPath) == before.store
    }

    /// Opens `path` for reading, hardened, with the busy timeout and step limit, and starts the read
    /// transaction with a first read (which takes the lock, or waits for it).
    private static func open(_ path: String, _ mode: SQLiteDatabase.Mode, timeout: Duration,
                             stepLimit: Duration) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path, mode: mode)
        try database.hardenForUntrustedReading()
        database.setBusyTimeout(timeout)
        database.limitStepDuration(to: stepLimit)
        try database.execute("BEGIN")
        _ = try database.scalar("SELECT count(*) FROM sqlite_master")
        return database
    }

    /// Whether a failed in-place open of a WAL store failed for want of a usable `-shm` (a read-only folder
    /// or file), which a private copy avoids.
    private static func cannotShareWAL(_ error: SQLiteError) -> Bool {
        error.code.primary == .cantOpen || (error.code.primary == .readOnly && error.code != .readOnlyRollback)
    }

    /// Copies the store and its `sidecar` (`-wal` or `-journal`) into a private folder in `$TMPDIR`
    /// (registered for removal on SIGINT/SIGTERM), again while the files change during the copy, then
    /// opens the copy read-write: SQLite replays the WAL, or rolls the hot journal back, into the copy.
    private func openCopy(of path: String, sidecar: StoreLocations.Sidecar, timeout: Duration, stepLimit: Duration) throws -> SQLiteDatabase {
        let manager = FileManager.default
        let clock = ContinuousClock()
        let giveUp = clock.now.advanced(by: timeout)
        while true {
            let before = StoreFiles(path)
            let folder = manager.temporaryDirectory.appendingPathComponent("coreseed-snapshot-\(UUID().uuidString)").path
            let copy = folder + "/" + URL(fileURLWithPath: path).lastPathComponent
            copyFolder = folder
            cleanup = InterruptCleanup.register(store: copy, folder: folder)
            do {
                try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try manager.copyItem(atPath: path, toPath: copy)
                let from = StoreLocations.sidecar(sidecar, of: path)
                if manager.fileExists(atPath: from) { try manager.copyItem(atPath: from, toPath: StoreLocations.sidecar(sidecar, of: copy)) }
            } catch {
                removeCopy()
                guard StoreFiles(path) != before else {
                    throw FileError(.unreadableInput, path: path, message: "cannot copy the store: \(error.localizedDescription)")
                }
            }
            if copyFolder != nil, StoreFiles(path) == before {
                return try StoreSnapshot.open(copy, .readWrite, timeout: timeout, stepLimit: stepLimit)
            }
            removeCopy()
            guard clock.now < giveUp else {
                throw FileError(.unreadableInput, path: path, message: "store in use by another process: its files kept changing while they were copied for \(SQLiteDatabase.seconds(timeout)) s; try again when it is free, or wait longer with \(RunOption.timeout)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    private func removeCopy() {
        if let copyFolder { try? FileManager.default.removeItem(atPath: copyFolder) }
        if let cleanup { InterruptCleanup.unregister(cleanup) }
        copyFolder = nil
        cleanup = nil
    }

    /// An SQLite error about the store at `path` as the user should read it.
    static func fileError(_ error: SQLiteError, store path: String, timeout: Duration) -> FileError {
        if error.isBusy {
            return FileError(.unreadableInput, path: path, message: "store in use by another process: it stayed locked for \(SQLiteDatabase.seconds(timeout)) s (\(error.message)); try again when it is free, or wait longer with \(RunOption.timeout)")
        }
        if error.code.primary == .interrupt {
            return FileError(path: path, message: "a query \(error.description)")
        }
        if error.isCorruption {
            return FileError(path: path, message: "not a readable SQLite store: \(error.description)")
        }
        return FileError(path: path, message: "cannot read the store: \(error.description)")
    }
}
