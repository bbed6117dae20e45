/// The statements of the commands that read a store: `export`, `inspect`, and the model cache a store
/// holds. A store's own names (tables and columns it was read to hold) are quoted.
extension CoreDataSQL {
    private static func q(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }

    // MARK: The model cache (StoreModelCache)

    /// A row when the store has a `Z_MODELCACHE` table.
    static let modelCacheTableExists = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '\(CoreDataSchema.modelCacheTable)'"
    /// 1 when the database holds Core Data's `Z_METADATA` table (is a store), else 0.
    static let metadataTableCount = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(CoreDataSchema.metadataTable)'"
    /// The cache's content (one row in a store Core Data wrote).
    static let modelCacheContent = "SELECT \(CoreDataSchema.modelCacheContentColumn) FROM \(CoreDataSchema.modelCacheTable)"

    // MARK: inspect (StoreInspection)

    /// Every `Z_PRIMARYKEY` row, in entity-number order.
    static let inspectPrimaryKeyRows = "SELECT \(keyColumns.entity), \(keyColumns.name), \(keyColumns.superEntity), \(keyColumns.max) FROM \(keys) ORDER BY \(keyColumns.entity)"

    /// How many rows of `table` are of one entity (parameter 1: its number).
    static func inspectRowCount(table: String) -> String { "SELECT count(*) FROM \(q(table)) WHERE \(ent) = ?" }

    // MARK: export (EntityExport)

    /// The key list of a to-many stored as a key on its destination rows (`d`), in the order of
    /// `orderColumn` then `Z_PK`, for the exported row `t`; `separator` is an SQL text literal.
    static func exportKeyList(destination: String, keyColumn: String, orderColumn: String?, separator: String) -> String {
        let order = (orderColumn.map { "d.\(q($0)), " } ?? "") + "d.\(pk)"
        return "(SELECT group_concat(k, \(separator)) FROM (SELECT d.\(pk) AS k FROM \(q(destination)) d WHERE d.\(q(keyColumn)) = t.\(pk) ORDER BY \(order)))"
    }

    /// The key list of a many-to-many from its join table (`j`), for the exported row `t`.
    static func exportJoinList(join: String, selfColumn: String, otherColumn: String, orderColumn: String?, separator: String) -> String {
        let order = (orderColumn.map { "j.\(q($0)), " } ?? "") + "j.\(q(otherColumn))"
        return "(SELECT group_concat(k, \(separator)) FROM (SELECT j.\(q(otherColumn)) AS k FROM \(q(join)) j WHERE j.\(q(selfColumn)) = t.\(pk) ORDER BY \(order)))"
    }

    /// The exported rows of one entity (parameter 1: its number), `expressions` over the row `t`.
    static func exportRows(table: String, expressions: [String]) -> String {
        "SELECT \(expressions.joined(separator: ", ")) FROM \(q(table)) t WHERE t.\(ent) = ? ORDER BY t.\(pk)"
    }

    /// Up to six rows of `table` whose `Z_ENT` is outside `entityNumbers` (a comma-separated list).
    static func exportStrayRows(table: String, entityNumbers: String) -> String {
        "SELECT \(pk), \(ent) FROM \(q(table)) WHERE \(ent) IS NULL OR \(ent) NOT IN (\(entityNumbers)) ORDER BY \(pk) LIMIT 6"
    }

    /// One column's non-NULL values of one entity's rows (parameter 1: its number), with their `Z_PK`.
    static func exportValues(table: String, expression: String) -> String {
        "SELECT \(expression), t.\(pk) FROM \(q(table)) t WHERE t.\(ent) = ? AND \(expression) IS NOT NULL ORDER BY t.\(pk)"
    }
}
