import CSQLite

/// A SQLite result code (extended codes included), named where CoreSeed acts on it.
public struct SQLiteResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The primary code of an extended one (its low byte).
    public var primary: SQLiteResultCode { SQLiteResultCode(rawValue: rawValue & 0xff) }

    public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
    /// The database file is locked by another connection.
    public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
    /// The database disk image is malformed.
    public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
    /// The file cannot be opened.
    public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
    /// A constraint (unique index, NOT NULL, …) was violated.
    public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
    /// The disk is full.
    public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
    /// A read or write of the file failed (a file size limit, a device error).
    public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
    /// The file is not a database.
    public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
    /// A parameter index out of range (a bind to a parameter the statement does not have).
    public static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
    /// A string or blob larger than SQLite's limit.
    public static let tooBig = SQLiteResultCode(rawValue: SQLITE_TOOBIG)
    /// SQLite could not allocate memory.
    public static let noMemory = SQLiteResultCode(rawValue: SQLITE_NOMEM)
    /// A table is locked by another connection of this process (shared cache, or a backup's own source).
    public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
    /// A write was refused: the connection or the file is read-only (`query_only`, `mode=ro`).
    public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
    /// A statement was stopped: `sqlite3_interrupt`, or a progress handler (a step's time limit) said so.
    public static let interrupt = SQLiteResultCode(rawValue: SQLITE_INTERRUPT)
    /// Extended `readOnly`: a hot `-journal` needs rolling back, which a read-only connection cannot do.
    public static let readOnlyRollback = SQLiteResultCode(rawValue: SQLITE_READONLY | (3 << 8))

    /// SQLite's English name of the code (`sqlite3_errstr`).
    public var description: String { String(cString: sqlite3_errstr(rawValue)) }
}

/// A failed SQLite call: the result code, SQLite's message, and the SQL or file it concerned.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The result code, extended where SQLite gives one (`code.primary` for `SQLITE_CORRUPT`, …).
    public let code: SQLiteResultCode
    /// SQLite's own message for the failure.
    public let message: String
    /// The statement that failed, when there is one.
    public let sql: String?
    /// The database file, when known.
    public let path: String?

    public init(code: Int32, message: String, sql: String? = nil, path: String? = nil) {
        self.code = SQLiteResultCode(rawValue: code)
        self.message = message
        self.sql = sql
        self.path = path
    }

    public var description: String {
        var text = message
        if let sql { text += " (in \(sql))" }
        return text
    }

    /// True when the file is not a database or is damaged.
    public var isCorruption: Bool {
        code.primary == .notADatabase || code.primary == .corrupt
    }

    /// True when another connection's lock stopped the call (`SQLITE_BUSY`, `SQLITE_LOCKED`), after any
    /// waiting the connection's busy timeout allowed.
    public var isBusy: Bool {
        code.primary == .busy || code.primary == .locked
    }
}
