/// The schema of an existing store as SQLite holds it: every table with its columns, every index with
/// its columns, triggers and views — read with bound names (`pragma_table_info(?)`), so a table or column
/// that is missing or oddly named is a fact to report, never an SQL error.
public struct StoredSchema: Sendable {
    /// One column: its name and declared type.
    public struct Column: Sendable, Equatable {
        public let name: String
        public let type: String
    }

    /// One table: `sql` is its `CREATE TABLE` text as SQLite keeps it (quoted names, `ADD COLUMN` text).
    public struct Table: Sendable {
        public let name: String
        public let sql: String
        public let columns: [Column]

        /// Column name → declared type.
        public var columnTypes: [String: String] {
            Dictionary(columns.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// One index (`sql` is nil for SQLite's own automatic indexes).
    public struct Index: Sendable {
        public let name: String
        public let table: String
        public let sql: String?
        public let columns: [String]
    }

    /// Tables by name, in file order.
    public let tables: [Table]
    public let indexes: [Index]
    /// `CREATE TRIGGER` and `CREATE VIEW` objects: (type, name, sql).
    public let others: [(type: String, name: String, sql: String)]

    /// The table named `name` (as SQLite stores it: unquoted).
    public func table(_ name: String) -> Table? { tables.first { $0.name == name } }

    /// Reads the schema of `database`.
    public static func read(_ database: SQLiteDatabase) throws(SQLiteError) -> StoredSchema {
        var tables: [Table] = []
        var indexes: [Index] = []
        var others: [(String, String, String)] = []
        let master = try database.rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid")
        let tableInfo = try database.prepare("SELECT name, type FROM pragma_table_info(?1)")
        let indexInfo = try database.prepare("SELECT name FROM pragma_index_info(?1) ORDER BY seqno")
        for row in master {
            guard case .text(let type) = row[0], case .text(let name) = row[1], case .text(let table) = row[2] else { continue }
            let sql: String? = if case .text(let text) = row[3] { text } else { nil }
            switch type {
            case "table":
                var columns: [Column] = []
                tableInfo.reset()
                try tableInfo.bind([.text(name)])
                while try tableInfo.step() {
                    if case .text(let column) = tableInfo.value(at: 0) {
                        let declared: String = if case .text(let t) = tableInfo.value(at: 1) { t } else { "" }
                        columns.append(Column(name: column, type: declared))
                    }
                }
                tables.append(Table(name: name, sql: sql ?? "", columns: columns))
            case "index":
                var columns: [String] = []
                indexInfo.reset()
                try indexInfo.bind([.text(name)])
                while try indexInfo.step() {
                    if case .text(let column) = indexInfo.value(at: 0) { columns.append(column) }
                }
                indexes.append(Index(name: name, table: table, sql: sql, columns: columns))
            default:
                others.append((type, name, sql ?? ""))
            }
        }
        return StoredSchema(tables: tables, indexes: indexes, others: others)
    }
}

extension StoredSchema {
    /// Refuses a store whose schema was altered to run code when it is read: a table that is about to be
    /// read (`tables`: its name → what it is, "the table of entity Country") is a view, or a trigger is
    /// not one of `allowedTriggers` (their SQL text; nil allows any). Core Data stores have no views, and
    /// reading a view runs its query — an endless recursive one hangs the reader.
    ///
    /// Throws a `FileError` for `path` that names each such view and trigger with the start of its SQL.
    func refuseAlteredObjects(reading tables: [(name: String, role: String)], allowedTriggers: Set<String>?,
                              path: String) throws(FileError) {
        var problems: [String] = []
        for (name, role) in tables {
            guard let view = others.first(where: { $0.type == "view" && $0.name == name }) else { continue }
            problems.append("\(name), \(role), is a view (\(StoredSchema.excerpt(view.sql))); a Core Data store has no views, and reading one runs its query")
        }
        if let allowedTriggers {
            for trigger in others where trigger.type == "trigger" && !allowedTriggers.contains(trigger.sql) {
                problems.append("it holds trigger \(trigger.name), which the model does not define (\(StoredSchema.excerpt(trigger.sql)))")
            }
        }
        guard !problems.isEmpty else { return }
        throw FileError(path: path, message: "refusing to read this store: " + problems.joined(separator: "; "))
    }

    /// The first 60 characters of `sql`, then "…" when there is more.
    static func excerpt(_ sql: String) -> String {
        sql.count > 60 ? sql.prefix(60) + "…" : sql
    }
}
