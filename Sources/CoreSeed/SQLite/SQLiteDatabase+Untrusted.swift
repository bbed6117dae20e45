import CSQLite

/// Reading a file that may be hostile: a store CoreSeed did not write can hold views, triggers and a
/// schema made to hang or mislead a reader.
extension SQLiteDatabase {
    /// Hardens this connection for reading a file that may be hostile:
    /// - `SQLITE_DBCONFIG_DEFENSIVE` on: nothing can write the schema or shadow tables;
    /// - `SQLITE_DBCONFIG_TRUSTED_SCHEMA` off: the schema's views and triggers may call only innocuous functions;
    /// - `SQLITE_DBCONFIG_ENABLE_VIEW` off: a query naming one of the file's views fails at once instead of
    ///   running the view's query (a Core Data store has no views);
    /// - `SQLITE_DBCONFIG_ENABLE_TRIGGER` off: no trigger of the file fires;
    /// - `PRAGMA query_only = 1`: no statement can change the file.
    ///
    /// Each `sqlite3_db_config` call goes through the shim (the C function is variadic).
    public func hardenForUntrustedReading() throws(SQLiteError) {
        let settings: [(String, Int32)] = [
            ("SQLITE_DBCONFIG_DEFENSIVE", coreseed_sqlite_db_config_defensive(handle, 1)),
            ("SQLITE_DBCONFIG_TRUSTED_SCHEMA", coreseed_sqlite_db_config_trusted_schema(handle, 0)),
            ("SQLITE_DBCONFIG_ENABLE_VIEW", coreseed_sqlite_db_config_enable_view(handle, 0)),
            ("SQLITE_DBCONFIG_ENABLE_TRIGGER", coreseed_sqlite_db_config_enable_trigger(handle, 0)),
        ]
        for (name, rc) in settings where rc != SQLITE_OK {
            throw SQLiteError(code: rc, message: "cannot set \(name): \(String(cString: sqlite3_errstr(rc)))", path: path)
        }
        try execute("PRAGMA query_only = 1")
    }

    /// The longest one step of a query may run on a database of `size` bytes: 30 s, plus 1 s per 4 MiB.
    public static func defaultStepLimit(databaseSize size: Int) -> Duration {
        .seconds(30 + size / (4 << 20))
    }

    /// Stops any step of a statement that runs longer than `limit` (`sqlite3_progress_handler`, checked
    /// every 1000 virtual-machine instructions): the step fails with `SQLITE_INTERRUPT`, and the error
    /// says the limit. Each `step()` (and `execute`) starts the clock anew, so a long result read row by
    /// row is not cut short; one step that never returns — an endless recursive query — is.
    public func limitStepDuration(to limit: Duration) {
        let deadline = StepDeadline(limit: limit)
        stepDeadline = deadline
        // SAFETY: the handler holds `deadline` unretained; `stepDeadline` keeps it alive as long as the connection (closed in deinit before it goes).
        sqlite3_progress_handler(handle, 1000, { context in
            guard let context else { return 0 }
            return Unmanaged<StepDeadline>.fromOpaque(context).takeUnretainedValue().hasPassed() ? 1 : 0
        }, Unmanaged.passUnretained(deadline).toOpaque())
    }
}

/// The time limit of one step of a connection; the connection keeps it alive while SQLite's progress
/// handler holds its address.
///
/// Not `Sendable`: it belongs to its connection's thread.
final class StepDeadline {
    let limit: Duration
    private let clock = ContinuousClock()
    private var deadline: ContinuousClock.Instant
    /// Whether the handler stopped the last step.
    private(set) var fired = false

    init(limit: Duration) {
        self.limit = limit
        self.deadline = clock.now.advanced(by: limit)
    }

    /// Starts the clock for a new step.
    @inline(__always)
    func arm() {
        deadline = clock.now.advanced(by: limit)
        fired = false
    }

    /// Called by the progress handler: true (stop the step) once the limit has passed.
    func hasPassed() -> Bool {
        if clock.now < deadline { return false }
        fired = true
        return true
    }

    /// The message of an error with result code `code` that this limit caused; nil for any other.
    func message(for code: Int32) -> String? {
        guard fired, code & 0xff == SQLITE_INTERRUPT else { return nil }
        return "ran longer than \(SQLiteDatabase.seconds(limit)) s, the time limit of one step"
    }
}
