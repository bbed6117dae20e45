import CSQLite

/// A prepared statement: prepared in `init`, finalized in `deinit`.
///
/// Not `Sendable`: it belongs to its connection's thread.
public final class SQLiteStatement {
    let handle: OpaquePointer
    /// The SQL text this statement was prepared from.
    public let sql: String
    let database: SQLiteDatabase

    /// The text after the first statement (`pzTail`), for callers that must run exactly one.
    public let remainder: String

    init(database: SQLiteDatabase, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        var remainder = ""
        // SAFETY: the C string lives for the closure; `tail` points into it and is copied to a String inside.
        let rc = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v2(database.handle, text, -1, &statement, &tail)
            if let tail { remainder = String(cString: tail) }
            return rc
        }
        guard rc == SQLITE_OK else { throw database.error(rc, sql: sql) }
        // SQLite prepares nothing, successfully, from text that is only space or comments.
        guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "the SQL text holds no statement", sql: sql, path: database.path) }
        self.handle = statement
        self.sql = sql
        self.remainder = remainder
        self.database = database
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Number of result columns.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// True when running the statement cannot change the database (`sqlite3_stmt_readonly`).
    public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

    /// The name of result column `index` (0-based).
    public func columnName(at index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// Binds all parameters from position 1.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// Binds one parameter (1-based), copying text and blobs (`SQLITE_TRANSIENT`).
    public func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let s):
            var s = s
            // SAFETY: bound with SQLITE_TRANSIENT: SQLite copies the bytes before `withUTF8` returns.
            rc = s.withUTF8 { buffer in bindTextResult(buffer, at: index) }
        case .blob(let bytes):
            rc = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob(handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), coreseed_sqlite_transient())
            }
        }
        if rc != SQLITE_OK { throw database.error(rc, sql: sql) }
    }

    /// Checks a bind's result: a bind fails only for a parameter the statement does not have, a value
    /// over SQLite's size limit, or no memory — never silently.
    @inline(__always)
    private func checked(_ rc: Int32) throws(SQLiteError) {
        if rc != SQLITE_OK { throw database.error(rc, sql: sql) }
    }

    /// Binds an integer without building a `SQLiteValue`.
    @inline(__always)
    public func bindInteger(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try checked(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds a double without building a `SQLiteValue`.
    @inline(__always)
    public func bindReal(_ value: Double, at index: Int32) throws(SQLiteError) {
        try checked(sqlite3_bind_double(handle, index, value))
    }

    /// Binds NULL.
    @inline(__always)
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try checked(sqlite3_bind_null(handle, index))
    }

    /// Binds UTF-8 text bytes; SQLite copies them. Empty text stays text (not NULL).
    /// SAFETY: SQLITE_TRANSIENT: SQLite copies `bytes` during the call.
    public func bindText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) throws(SQLiteError) {
        try checked(bindTextResult(bytes, at: index))
    }

    // SAFETY: SQLITE_TRANSIENT: SQLite copies `bytes` during the call; the rebound view does not leave it.
    private func bindTextResult(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int32) -> Int32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            return sqlite3_bind_text(handle, index, "", 0, coreseed_sqlite_transient())
        }
        return UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: bytes.count) { pointer in
            sqlite3_bind_text(handle, index, pointer, Int32(bytes.count), coreseed_sqlite_transient())
        }
    }

    /// Binds UTF-8 text in place (`SQLITE_STATIC`): the caller keeps `bytes` alive and unchanged until the
    /// statement has been stepped and reset.
    @inline(__always)
    // SAFETY: SQLITE_STATIC: the caller steps before its bytes go and then clears the bindings (RowWriter).
    public func bindStaticText(_ bytes: UnsafePointer<UInt8>?, count: Int, at index: Int32) throws(SQLiteError) {
        guard let bytes, count > 0 else {
            try checked(sqlite3_bind_text(handle, index, "", 0, coreseed_sqlite_transient()))
            return
        }
        let rc = UnsafeRawPointer(bytes).withMemoryRebound(to: CChar.self, capacity: count) { pointer in
            sqlite3_bind_text(handle, index, pointer, Int32(count), coreseed_sqlite_static())
        }
        try checked(rc)
    }

    /// Binds a blob in place (`SQLITE_STATIC`), with the same lifetime rule as `bindStaticText`.
    @inline(__always)
    // SAFETY: SQLITE_STATIC: as `bindStaticText`.
    public func bindStaticBlob(_ bytes: UnsafePointer<UInt8>?, count: Int, at index: Int32) throws(SQLiteError) {
        try checked(sqlite3_bind_blob(handle, index, bytes.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1), Int32(count),
                                      coreseed_sqlite_static()))
    }

    /// Advances one row (`sqlite3_step`): true when a row is available, false when done.
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        database.stepDeadline?.arm()
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(rc, sql: sql)
        }
    }

    /// Resets the statement for another run, keeping its bindings (`sqlite3_reset`): for loops that
    /// bind every parameter anew.
    @inline(__always)
    public func resetKeepingBindings() {
        sqlite3_reset(handle)
    }

    /// Resets the statement for another run and clears its bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Sets every parameter to NULL (`sqlite3_clear_bindings`): after binding in place, so that no
    /// binding points at memory that is about to go.
    public func clearBindings() {
        sqlite3_clear_bindings(handle)
    }

    /// Column `index` of the current row in place: text and blob bytes point into SQLite's row buffer,
    /// valid until the next `step()` or a conversion of that column.
    /// SAFETY: a view into SQLite's row: its one user (`SQLiteRecordReader.fieldView`) reads it before the next step.
    public enum ColumnView {
        case null
        case integer(Int64)
        case real(Double)
        case text(UnsafeBufferPointer<UInt8>)
        case blob(UnsafeRawBufferPointer)
    }

    /// ``ColumnView`` of column `index` (0-based) of the current row.
    @inline(__always)
    // SAFETY: type first, then the pointer, then its length (the order SQLite documents); no conversion follows.
    public func view(at index: Int) -> ColumnView {
        let i = Int32(index)
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, i))
        case SQLITE_TEXT:
            let pointer = sqlite3_column_text(handle, i)
            return .text(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, i))))
        case SQLITE_BLOB:
            return .blob(UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, i), count: Int(sqlite3_column_bytes(handle, i))))
        default: return .null
        }
    }

    /// Column `index` of the current row, with its storage class kept (text and blobs copied).
    public func value(at index: Int) -> SQLiteValue {
        switch view(at: index) {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .text(let bytes): return .text(String(decoding: bytes, as: UTF8.self))
        case .blob(let bytes): return .blob(Array(bytes))
        }
    }
}
