/// Where a record or value came from: file, line and column for text; file, table and rowid for SQLite.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The input file as the user named it (relative paths stay relative).
    public var file: String
    /// 1-based line of a text input.
    public var line: Int?
    /// 1-based column (in bytes) of a text input.
    public var column: Int?
    /// The SQLite table, or "query".
    public var table: String?
    /// The SQLite rowid, when the source has one.
    public var rowid: Int64?

    public init(file: String, line: Int? = nil, column: Int? = nil, table: String? = nil, rowid: Int64? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.table = table
        self.rowid = rowid
    }

    /// `file:line:column` for text, `file:table:rowid` for SQLite: the prefix of a compiler-style diagnostic.
    public var description: String {
        if let table {
            return rowid.map { "\(file):\(table):\($0)" } ?? "\(file):\(table)"
        }
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }
}
