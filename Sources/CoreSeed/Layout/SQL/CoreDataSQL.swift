/// Core Data's SQL: every statement CoreSeed sends that names Core Data's tables and columns is built in
/// this folder, from `CoreDataSchema`'s names and the layout's. A layout name (validated where the model
/// is read: letters, digits, underscores) goes in bare, as Core Data writes it, through
/// `SQLIdentifier.plain`; a name read from a store goes in quoted (`SQLIdentifier.quoted`). Values are
/// bound parameters, except entity numbers and the layout's own constants.
///
/// One file per reader: this one the build's (rows written, an upsert's update, the store's existing
/// rows), `+Schema` the statements that define a store, `+Verify` verify's own (written apart from the
/// build's, so that one mistake cannot hide in both), `+Read` those of export, inspect and the model
/// cache. `scripts/coredata-sql.py` (in `make lint`) refuses Core Data names in SQL text elsewhere.
enum CoreDataSQL {
    static let pk = CoreDataSchema.primaryKey
    static let ent = CoreDataSchema.entityColumn
    static let opt = CoreDataSchema.optimisticLockColumn
    static let keys = CoreDataSchema.primaryKeyTable
    static let keyColumns = CoreDataSchema.primaryKeyTableColumns
    static let metadata = CoreDataSchema.metadataTable
    static let metadataColumns = CoreDataSchema.metadataTableColumns

    /// A layout name in SQL text.
    static func name(_ identifier: String) -> String { SQLIdentifier.plain(identifier) }

    private static func list(_ names: [String]) -> String { names.map(name).joined(separator: ", ") }

    // MARK: Rows written (StoreWriter)

    /// An insert of every column of `table`, in column order (parameter i+1 is column i). With
    /// `entityNumber`, `Z_ENT` and `Z_OPT` are constants (the number and 1) and take no parameter; with
    /// `numberedByInsertion`, `Z_PK` is left out (SQLite numbers the row); `rows` > 1 inserts that many
    /// rows, their parameters row after row.
    static func rowInsert(_ table: StoreLayout.Table, entityNumber: Int?, numberedByInsertion: Bool, rows: Int) -> String {
        let columns = table.columns.filter { column in
            if case .primaryKey = column.role { return !numberedByInsertion }
            return true
        }
        let marks = columns.map { column -> String in
            guard let entityNumber else { return "?" }
            switch column.role {
            case .entity: return String(entityNumber)
            case .optimisticLock: return "1"
            default: return "?"
            }
        }.joined(separator: ", ")
        let values = Array(repeating: "(\(marks))", count: max(1, rows)).joined(separator: ", ")
        return "INSERT INTO \(name(table.name)) (\(list(columns.map(\.name)))) VALUES \(values)"
    }

    /// An insert into a join table: first key, second key, then the order columns.
    static func joinInsert(_ join: StoreLayout.JoinTable, ignoringDuplicates: Bool) -> String {
        let columns = [join.firstColumn, join.secondColumn] + join.orderColumns.map(\.name)
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        return "INSERT \(ignoringDuplicates ? "OR IGNORE " : "")INTO \(name(join.name)) (\(list(columns))) VALUES (\(marks))"
    }

    /// A join table's rows as an upsert finds them: first key, second key, then the order columns.
    static func storedJoinRows(_ join: StoreLayout.JoinTable) -> String {
        "SELECT \(list([join.firstColumn, join.secondColumn] + join.orderColumns.map(\.name))) FROM \(name(join.name))"
    }

    /// A `Z_PRIMARYKEY` row: number, name, super-entity's number, highest key.
    static let primaryKeyInsert = "INSERT INTO \(keys) (\(keyColumns.entity), \(keyColumns.name), \(keyColumns.superEntity), \(keyColumns.max)) VALUES (?, ?, ?, ?)"

    /// The `Z_METADATA` row: UUID, metadata property list.
    static let metadataInsert = "INSERT INTO \(metadata) (\(metadataColumns.version), \(metadataColumns.uuid), \(metadataColumns.plist)) VALUES (1, ?, ?)"

    /// The `Z_MODELCACHE` row: the raw-deflated model archive.
    static let modelCacheInsert = "INSERT INTO \(CoreDataSchema.modelCacheTable) (\(CoreDataSchema.modelCacheContentColumn)) VALUES (?)"

    /// An upsert's raise of a hierarchy's `Z_MAX` (parameters: the new maximum, the root's name, it again).
    static let primaryKeyMaxRaise = "UPDATE \(keys) SET \(keyColumns.max) = ? WHERE \(keyColumns.name) = ? AND \(keyColumns.max) < ?"

    /// An upsert's new metadata property list.
    static let metadataUpdate = "UPDATE \(metadata) SET \(metadataColumns.plist) = ?"

    // MARK: An upsert (SeedBuild, ExistingRows)

    /// The update of an existing row's `columns` (parameter i+1 is column i, then the row's `Z_PK`), only
    /// when one of them changes, so that `Z_OPT` counts real changes. `keepingBlanks`: a NULL parameter
    /// (a blank field) leaves the stored value.
    static func rowUpdate(table: String, columns: [String], keepingBlanks: Bool) -> String {
        var assignments: [String] = [], changes: [String] = []
        for (offset, column) in columns.map(name).enumerated() {
            let number = offset + 1
            if keepingBlanks {
                assignments.append("\(column) = COALESCE(?\(number), \(column))")
                changes.append("(?\(number) IS NOT NULL AND \(column) IS NOT ?\(number))")
            } else {
                assignments.append("\(column) = ?\(number)")
                changes.append("\(column) IS NOT ?\(number)")
            }
        }
        let key = columns.count + 1
        return "UPDATE \(name(table)) SET \(opt) = \(opt) + 1, \(assignments.joined(separator: ", ")) WHERE \(pk) = ?\(key) AND (\(changes.joined(separator: " OR ")))"
    }

    /// `Z_PK`, `Z_OPT` and `columns` of the stored rows of one concrete entity.
    static func existingRows(table: String, entityNumber: Int, columns: [String]) -> String {
        "SELECT \(pk), \(opt), \(list(columns)) FROM \(name(table)) WHERE \(ent) = \(entityNumber)"
    }

    /// `Z_PK`, the to-one key and its `Z_FOK_` order of the rows of `table` that have an owner: the stored
    /// positions of an ordered to-many's members.
    static func storedOrders(table: String, key: String, order: String) -> String {
        "SELECT \(pk), \(SQLIdentifier.quoted(key)), \(SQLIdentifier.quoted(order)) FROM \(SQLIdentifier.quoted(table)) WHERE \(SQLIdentifier.quoted(key)) IS NOT NULL"
    }

    /// Each hierarchy root's name and `Z_MAX`.
    static let rootPrimaryKeyMaxima = "SELECT \(keyColumns.name), \(keyColumns.max) FROM \(keys) WHERE \(keyColumns.superEntity) = 0"

    /// The highest `Z_PK` of `table` (where `Z_MAX` is -1 after an in-place migration).
    static func highestPrimaryKey(table: String) -> String { "SELECT max(\(pk)) FROM \(SQLIdentifier.quoted(table))" }

    /// How many rows a table of a store holds (`table` read from the store).
    static func rowCount(storedTable table: String) -> String { "SELECT count(*) FROM \(SQLIdentifier.quoted(table))" }

    // MARK: External binaries (ExternalDataFolder)

    /// The values of a layout's external-storage column that refer to a file (Core Data's marker 0x02).
    static func externalReferences(table: String, column: String) -> String {
        "SELECT \(name(column)) FROM \(name(table)) WHERE substr(\(name(column)), 1, 1) = x'02'"
    }

    /// The tables of a store that may be Core Data's (named `Z…`).
    static let storedTables = "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '\(CoreDataSchema.tablePrefix)%'"

    /// The values of a stored BLOB column (names read from the store) that refer to a file.
    static func storedReferences(table: String, column: String) -> String {
        let column = SQLIdentifier.quoted(column)
        return "SELECT \(column) FROM \(SQLIdentifier.quoted(table)) WHERE substr(\(column), 1, 1) = x'02'"
    }

    /// The `Z_METADATA` row: UUID and property list.
    static let metadataRow = "SELECT \(metadataColumns.uuid), \(metadataColumns.plist) FROM \(metadata) ORDER BY \(metadataColumns.version) LIMIT 1"
}
