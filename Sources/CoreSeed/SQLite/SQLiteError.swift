import CSQLite

/// A failed SQLite call: the result code, SQLite's message, and the SQL or file it concerned.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, …).
    public let code: Int32
    /// SQLite's own message for the failure.
    public let message: String
    /// The statement that failed, when there is one.
    public let sql: String?
    /// The database file, when known.
    public let path: String?

    public init(code: Int32, message: String, sql: String? = nil, path: String? = nil) {
        self.code = code
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
        let primary = code & 0xff
        return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT
    }
}
