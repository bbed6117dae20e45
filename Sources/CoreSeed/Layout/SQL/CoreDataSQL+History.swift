/// The statements of persistent history (`CoreDataSchema.History`): the tables and indexes as the tracked
/// corpus store has them, the seed's transaction and its changes, and what `inspect` and `verify` read.
extension CoreDataSQL {
    typealias History = CoreDataSchema.History

    /// How many of the three history tables a store has (3: it tracks history).
    static let historyTableCount = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ("
        + History.tables.map { "'\($0.name)'" }.joined(separator: ", ") + ")"

    /// `CREATE TABLE A<NAME> ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, … )`: the form of
    /// every entity table (`createTable`).
    static func createHistoryTable(_ table: History.Table) -> String {
        let columns = [(pk, "INTEGER PRIMARY KEY"), (ent, "INTEGER"), (opt, "INTEGER")] + table.columns.map { ($0.name, $0.type) }
        return "CREATE TABLE \(name(table.name)) ( \(columns.map { "\(name($0.0)) \($0.1)" }.joined(separator: ", ")) )"
    }

    /// The history indexes, in the corpus store's order.
    static let createHistoryIndexes: [String] = History.indexes.map { index in
        createIndex(index.name, on: index.table, name(index.column) + (index.modern ? " COLLATE BINARY ASC" : ""), unique: index.unique)
    }

    /// A transaction string (parameters: its `Z_PK`, the text). `Z_OPT` stays NULL, as Core Data leaves it.
    static let historyStringInsert =
        "INSERT INTO \(History.string.name) (\(pk), \(ent), \(History.string.columns[0].name)) VALUES (?, \(History.string.number), ?)"

    /// The `Z_PK` of a stored transaction string (parameter 1: the text).
    static let historyStringLookup =
        "SELECT \(pk) FROM \(History.string.name) WHERE \(History.string.columns[0].name) = ?"

    /// A transaction (parameters: `Z_PK`, then the author, bundle id, context name and process id strings'
    /// `Z_PK`s (NULL: none), then the timestamp in seconds since 2001). The text columns stay NULL.
    static let historyTransactionInsert: String = {
        let columns = [pk, ent] + History.transaction.columns.prefix(5).map(\.name)
        return "INSERT INTO \(History.transaction.name) (\(columns.joined(separator: ", "))) VALUES (?, \(History.transaction.number), ?, ?, ?, ?, ?)"
    }()

    /// One change row per row of `table` whose `Z_PK` is above its hierarchy's former `Z_MAX`, in
    /// entity-number then `Z_PK` order, numbered from a base (parameters: the base (the changes' `Z_MAX`
    /// so far), the change type, the transaction's `Z_PK`, the former `Z_MAX`; 0 in a new store).
    static func historyChangesOfRows(table: String) -> String {
        let columns = [pk, ent] + History.change.columns.prefix(4).map(\.name)
        return "INSERT INTO \(History.change.name) (\(columns.joined(separator: ", "))) "
            + "SELECT ?1 + row_number() OVER (ORDER BY \(ent), \(pk)), \(History.change.number), ?2, \(ent), \(pk), ?3 "
            + "FROM \(name(table)) WHERE \(pk) > ?4 ORDER BY \(ent), \(pk)"
    }

    // MARK: inspect and verify

    /// The latest stored transaction's timestamp (NULL when there is none).
    static let historyLatestTimestamp = "SELECT max(\(History.transaction.columns[4].name)) FROM \(History.transaction.name)"

    /// How many transactions a tracked store holds.
    static let historyTransactionCount = "SELECT count(*) FROM \(History.transaction.name)"

    /// How many changes a tracked store holds.
    static let historyChangeCount = "SELECT count(*) FROM \(History.change.name)"

    /// Up to six changes whose transaction is not in the store: `Z_PK`, `ZTRANSACTIONID`.
    static let historyChangesWithoutTransaction: String = {
        let (change, transaction) = (History.change.name, History.transaction.name)
        let column = History.change.columns[3].name
        return "SELECT c.\(pk), c.\(column) FROM \(change) c WHERE c.\(column) IS NULL OR NOT EXISTS "
            + "(SELECT 1 FROM \(transaction) t WHERE t.\(pk) = c.\(column)) ORDER BY c.\(pk) LIMIT 6"
    }()

    /// The changes per change type and entity number: type, entity, count, the first one's `Z_PK`
    /// (which `verify` checks against the change types and the model's numbers).
    static let historyChangeKinds: String = {
        let columns = History.change.columns
        return "SELECT \(columns[0].name), \(columns[1].name), count(*), min(\(pk)) FROM \(History.change.name) GROUP BY 1, 2 ORDER BY 1, 2"
    }()

    /// Up to six references of a transaction to a string that is not in the store: the transaction's
    /// `Z_PK`, the column, the string's `Z_PK`.
    static let historyDanglingStrings: String = {
        let (transaction, string) = (History.transaction.name, History.string.name)
        let references = History.transaction.columns.prefix(4).map(\.name)
        return references.map { column in
            "SELECT t.\(pk), '\(column)', t.\(column) FROM \(transaction) t WHERE t.\(column) IS NOT NULL AND NOT EXISTS "
                + "(SELECT 1 FROM \(string) s WHERE s.\(pk) = t.\(column))"
        }.joined(separator: " UNION ALL ") + " ORDER BY 1 LIMIT 6"
    }()

    /// The highest `Z_PK` of each history table, in `History.tables` order.
    static let historyHighestKeys: String =
        "SELECT " + History.tables.map { "(SELECT IFNULL(max(\(pk)), 0) FROM \($0.name))" }.joined(separator: ", ")

    /// `Z_PRIMARYKEY`'s `Z_MAX` of an entity number (parameter 1).
    static let primaryKeyMaxOfNumber = "SELECT \(keyColumns.max) FROM \(keys) WHERE \(keyColumns.entity) = ?"

    /// An update's raise of a history entity's `Z_MAX` (parameters: the new maximum, its number).
    static let primaryKeyMaxSet = "UPDATE \(keys) SET \(keyColumns.max) = ? WHERE \(keyColumns.entity) = ?"
}

extension CoreDataSQL {
    /// `Z_PRIMARYKEY`'s rows of the history entities: number, name, `Z_MAX`.
    static let historyPrimaryKeyRows: String = {
        let numbers = History.tables.map { String($0.number) }.joined(separator: ", ")
        return "SELECT \(keyColumns.entity), \(keyColumns.name), \(keyColumns.max) FROM \(keys) WHERE \(keyColumns.entity) IN (\(numbers)) ORDER BY \(keyColumns.entity)"
    }()
}

extension CoreDataSQL {
    /// How many new rows of `table` (`Z_PK` above parameter 1, their hierarchy's former `Z_MAX`) refer
    /// through `column` to a stored row (a key from 1 to parameter 2, the destination's former `Z_MAX`).
    static func historyNewRowsReferringToStored(table: String, column: String) -> String {
        "SELECT count(*) FROM \(name(table)) WHERE \(pk) > ?1 AND \(name(column)) IS NOT NULL AND \(name(column)) <= ?2"
    }

    /// How many rows of a join table link two new rows (first key above parameter 1, second above 2).
    static func historyJoinRowsOfNewRows(_ join: StoreLayout.JoinTable) -> String {
        "SELECT count(*) FROM \(name(join.name)) WHERE \(name(join.firstColumn)) > ?1 AND \(name(join.secondColumn)) > ?2"
    }
}

extension CoreDataSQL {
    /// The temporary table where an update of a tracked store notes each stored row it changes: the
    /// row's `Z_ENT` and `Z_PK`, and the names of the columns whose values changed, each followed by a comma.
    static let historyUpdatesTable = "coreseed_history_updates"

    static let createHistoryUpdates = "CREATE TEMP TABLE IF NOT EXISTS \(historyUpdatesTable) (entity INTEGER, key INTEGER, columns TEXT)"

    /// A temporary trigger on `table` noting each row an update changes. An upsert raises the row's
    /// `Z_OPT`; the derived attributes' triggers never do, as Core Data records no change for them.
    static func historyUpdateTrigger(_ table: StoreLayout.Table) -> String {
        let changed = table.columns.filter { ![pk, ent, opt].contains($0.name) }.map { column in
            "CASE WHEN OLD.\(name(column.name)) IS NOT NEW.\(name(column.name)) THEN '\(column.name),' ELSE '' END"
        }
        let list = changed.isEmpty ? "''" : changed.joined(separator: " || ")
        return "CREATE TEMP TRIGGER IF NOT EXISTS \(name("coreseed_history_" + table.name)) AFTER UPDATE OF \(opt) ON main.\(name(table.name)) "
            + "FOR EACH ROW WHEN OLD.\(opt) IS NOT NEW.\(opt) BEGIN INSERT INTO \(historyUpdatesTable) VALUES (NEW.\(ent), NEW.\(pk), \(list)); END"
    }

    /// The noted objects, in entity then `Z_PK` order, one row each: entity, `Z_PK`, the changed columns
    /// of every update of it, how many updates were noted and how many have their columns.
    static let historyUpdatedRows = "SELECT entity, key, group_concat(columns, ''), count(*), count(columns) FROM \(historyUpdatesTable) "
        + "GROUP BY entity, key ORDER BY entity, key"

    /// One change of a stored object (parameters: `Z_PK`, the change type, the entity number, the row's
    /// `Z_PK`, the transaction's `Z_PK`, the bitmap).
    static let historyStoredChangeInsert: String = {
        let columns = [pk, ent] + History.change.columns.prefix(5).map(\.name)
        return "INSERT INTO \(History.change.name) (\(columns.joined(separator: ", "))) VALUES (?1, \(History.change.number), ?2, ?3, ?4, ?5, ?6)"
    }()
}
