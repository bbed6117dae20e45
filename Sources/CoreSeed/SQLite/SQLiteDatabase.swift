import CSQLite

/// An open SQLite connection; closed on deinit.
///
/// Not `Sendable`: a connection is used from one thread at a time.
public final class SQLiteDatabase {
    /// How a database is opened.
    public enum Mode: Sendable {
        /// Read-only, never creating or modifying anything (`SQLITE_OPEN_READONLY`).
        /// With `immutable`, SQLite also ignores `-wal`/`-shm` files and never writes them.
        case readOnly(immutable: Bool)
        /// Read-write, created when missing.
        case readWriteCreate
        /// Read-write, must exist.
        case readWrite
    }

    let handle: OpaquePointer
    /// The file this connection opened.
    public let path: String
    /// The time limit of one step, when one is set (`limitStepDuration(to:)`); armed by every step.
    var stepDeadline: StepDeadline?

    /// Opens `path` (`sqlite3_open_v2`). A URI filename is used for read-only opens so that
    /// `immutable=1` can be passed.
    public init(path: String, mode: Mode) throws(SQLiteError) {
        _ = SQLiteDatabase.configured
        var flags: Int32 = SQLITE_OPEN_NOMUTEX
        var name = path
        switch mode {
        case .readOnly(let immutable):
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + SQLiteDatabase.percentEncodedPath(path) + (immutable ? "?immutable=1" : "?mode=ro")
        case .readWriteCreate:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite:
            flags |= SQLITE_OPEN_READWRITE
        }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(name, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message, path: path)
        }
        sqlite3_extended_result_codes(db, 1)
        self.handle = db
        self.path = path
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Process-wide settings applied once, before the first connection (`sqlite3_config`).
    private static let configured: Void = {
        _ = coreseed_sqlite_config_memstatus_off()
    }()

    /// Runs one or more statements that return no rows we need (`sqlite3_exec`).
    public func execute(_ sql: String) throws(SQLiteError) {
        stepDeadline?.arm()
        // SAFETY: SQLite allocates the message; it is copied to a String, then freed with sqlite3_free, once.
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? lastErrorMessage
            sqlite3_free(errorMessage)
            throw SQLiteError(code: rc, message: stepDeadline?.message(for: rc) ?? message, sql: sql, path: path)
        }
    }

    /// Prepares a statement (`sqlite3_prepare_v2`).
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// All rows of a query, each as an array of values. For small result sets only.
    public func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var result: [[SQLiteValue]] = []
        while try statement.step() {
            result.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return result
    }

    /// The first column of the first row, or nil when there is no row.
    public func scalar(_ sql: String, _ arguments: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
        try rows(sql, arguments).first?.first
    }

    /// Waits up to `milliseconds` for a lock held by another connection (`sqlite3_busy_timeout`).
    public func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Waits up to `duration` for a lock held by another connection.
    public func setBusyTimeout(_ duration: Duration) {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        setBusyTimeout(milliseconds: Int32(clamping: milliseconds))
    }

    /// Registers functions named `names` that take any arguments and return NULL
    /// (`sqlite3_create_function_v2`): for triggers that call functions their writer registered to be
    /// told of a change (Core Data's `Z_DA_` triggers), so that the triggers' updates still run here.
    public func registerInertFunctions(_ names: [String]) throws(SQLiteError) {
        for name in names {
            let rc = sqlite3_create_function_v2(handle, name, -1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                                                { context, _, _ in sqlite3_result_null(context) }, nil, nil, nil)
            guard rc == SQLITE_OK else { throw error(rc, sql: nil) }
        }
    }

    /// The rowid of the last insert (`sqlite3_last_insert_rowid`).
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last statement (`sqlite3_changes64`).
    public var changes: Int64 { sqlite3_changes64(handle) }

    var lastErrorMessage: String { String(cString: sqlite3_errmsg(handle)) }

    func error(_ code: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: code, message: stepDeadline?.message(for: code) ?? lastErrorMessage, sql: sql, path: path)
    }

    /// Copies this whole database into `destination` with SQLite's online backup API
    /// (`sqlite3_backup_init` / `_step` / `_finish`), a consistent snapshot even while others write.
    ///
    /// Inside a read transaction of this connection, the copy is of that transaction's snapshot and
    /// needs no lock. Otherwise a step that another connection's lock stops (`SQLITE_BUSY`,
    /// `SQLITE_LOCKED`) is tried again after a sleep (`sqlite3_sleep`: 1 ms, doubling up to 100 ms),
    /// never in a busy loop, and after `timeout` the backup gives up with `SQLITE_BUSY`.
    public func backup(into destination: SQLiteDatabase, timeout: Duration = .seconds(10)) throws(SQLiteError) {
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw destination.error(sqlite3_errcode(destination.handle), sql: nil)
        }
        let clock = ContinuousClock()
        let giveUp = clock.now.advanced(by: timeout)
        var pause: Int32 = 1
        var rc: Int32
        while true {
            rc = sqlite3_backup_step(backup, -1)
            if rc == SQLITE_OK { continue }
            let primary = rc & 0xff
            guard primary == SQLITE_BUSY || primary == SQLITE_LOCKED, clock.now < giveUp else { break }
            sqlite3_sleep(pause)
            pause = min(pause * 2, 100)
        }
        let finish = sqlite3_backup_finish(backup)
        let primary = rc & 0xff
        if primary == SQLITE_BUSY || primary == SQLITE_LOCKED {
            throw SQLiteError(code: rc, message: "still locked after \(SQLiteDatabase.seconds(timeout)) s (\(String(cString: sqlite3_errstr(rc))))",
                              path: path)
        }
        if rc != SQLITE_DONE { throw destination.error(rc, sql: nil) }
        if finish != SQLITE_OK { throw destination.error(finish, sql: nil) }
    }

    /// `duration` in seconds, as a message says it: "10", "0.5".
    static func seconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return value == value.rounded() ? String(Int64(value)) : String(value)
    }

    /// `path` as the path part of an SQLite URI filename: every byte that is not printable ASCII, and
    /// `%`, `?` and `#`, as `%XX` (SQLite decodes them back to the same bytes), so that any name a
    /// file system allows — non-ASCII included — opens the file it names.
    public static func percentEncodedPath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            if byte < 0x21 || byte >= 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
