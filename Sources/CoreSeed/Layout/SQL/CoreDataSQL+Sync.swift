// The statements of a sync's deletions (`SyncDeletion`): every name comes from the layout, every
// value (a `Z_PK`) is a bound parameter.
extension CoreDataSQL {
    /// The stored rows of one concrete entity: `Z_PK`.
    static func syncEntityRows(table: String, entityNumber: Int) -> String {
        "SELECT \(pk) FROM \(name(table)) WHERE \(ent) = \(entityNumber) ORDER BY \(pk)"
    }

    /// The concrete entity and one column of the row `Z_PK = ?1`.
    static func syncRowColumn(table: String, column: String) -> String {
        "SELECT \(ent), \(name(column)) FROM \(name(table)) WHERE \(pk) = ?1"
    }

    /// The concrete entity of the row `Z_PK = ?1`.
    static func syncRowEntity(table: String) -> String {
        "SELECT \(ent) FROM \(name(table)) WHERE \(pk) = ?1"
    }

    /// The rows whose `column` holds `?1`: `Z_PK`, `Z_ENT`.
    static func syncRowsPointingAt(table: String, column: String) -> String {
        "SELECT \(pk), \(ent) FROM \(name(table)) WHERE \(name(column)) = ?1 ORDER BY \(pk)"
    }

    /// The partners of `?1` in a join table: the other column's values.
    static func syncJoinPartners(join: String, mine: String, theirs: String) -> String {
        "SELECT \(name(theirs)) FROM \(name(join)) WHERE \(name(mine)) = ?1 ORDER BY \(name(theirs))"
    }

    /// Clears a to-one key (and its entity and order columns) of the row `Z_PK = ?1`, raising `Z_OPT`.
    static func syncNullify(table: String, columns: [String]) -> String {
        let cleared = columns.map { "\(name($0)) = NULL" }.joined(separator: ", ")
        return "UPDATE \(name(table)) SET \(cleared), \(opt) = \(opt) + 1 WHERE \(pk) = ?1"
    }

    /// Raises `Z_OPT` of the row `Z_PK = ?1` (a to-many of it lost a member).
    static func syncTouch(table: String) -> String {
        "UPDATE \(name(table)) SET \(opt) = \(opt) + 1 WHERE \(pk) = ?1"
    }

    /// Deletes the join rows whose `column` holds `?1`.
    static func syncJoinDelete(join: String, column: String) -> String {
        "DELETE FROM \(name(join)) WHERE \(name(column)) = ?1"
    }

    /// Deletes the row `Z_PK = ?1`.
    static func syncRowDelete(table: String) -> String {
        "DELETE FROM \(name(table)) WHERE \(pk) = ?1"
    }
}
