/// `coreseed verify`'s statements. Written apart from the build's (issue 23): none of these calls a
/// builder the build uses for the same rule, so that one mistake cannot hide in both. Every layout
/// name is quoted (a store under check may hold anything).
extension CoreDataSQL {
    private static func q(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }

    /// `Z_PRIMARYKEY`'s rows of model entities (numbers below 16000; above are Core Data's own).
    static let verifyPrimaryKeyRows = "SELECT \(keyColumns.entity), \(keyColumns.name), \(keyColumns.superEntity), \(keyColumns.max) FROM \(keys) WHERE \(keyColumns.entity) < 16000 ORDER BY \(keyColumns.entity)"

    /// The highest `Z_PK` of `table`, to compare with its `Z_MAX`.
    static func verifyHighestKey(table: String) -> String { "SELECT max(\(pk)) FROM \(q(table))" }

    /// How many rows of `table` have a `Z_ENT` outside `entityNumbers` (a comma-separated list, or `NULL`).
    static func verifyStrayEntityRows(table: String, entityNumbers: String) -> String {
        "SELECT count(*) FROM \(q(table)) WHERE \(ent) IS NULL OR \(ent) NOT IN (\(entityNumbers))"
    }

    /// How many values of a key column point at no row of `target`.
    static func verifyDanglingKeys(table: String, column: String, target: String) -> String {
        "SELECT count(*) FROM \(q(table)) WHERE \(q(column)) IS NOT NULL AND \(q(column)) NOT IN (SELECT \(pk) FROM \(q(target)))"
    }

    /// How many values of a join table's key column point at no row of `target`.
    static func verifyDanglingJoinKeys(join: String, column: String, target: String) -> String {
        "SELECT count(*) FROM \(q(join)) WHERE \(q(column)) NOT IN (SELECT \(pk) FROM \(q(target)))"
    }

    /// The first five pairs (`first`, `second`) of the join rows whose `column` names no row of `target`.
    static func verifyDanglingJoinPairs(join: String, column: String, target: String, first: String, second: String) -> String {
        "SELECT \(q(first)), \(q(second)) FROM \(q(join)) WHERE \(q(column)) NOT IN (SELECT \(pk) FROM \(q(target))) ORDER BY 1, 2 LIMIT 5"
    }

    /// `Z_PK`, `Z_ENT` and `column` of every row of `table`, in key order (verify's own derived-count read).
    static func verifyEntityAndValue(table: String, column: String) -> String {
        "SELECT \(pk), \(ent), \(q(column)) FROM \(q(table)) ORDER BY \(pk)"
    }

    /// Per row of `table` whose to-one `key` names a row of `target`: its `Z_PK`, the named row's `Z_ENT`,
    /// the row's entity column (`entityColumn`, else NULL) and the named row's column pointing back (`back`, else NULL).
    static func verifyToOneTargets(table: String, key: String, target: String, entityColumn: String?, back: String?) -> String {
        "SELECT source.\(pk), destination.\(ent), \(entityColumn.map { "source.\(q($0))" } ?? "NULL"), \(back.map { "destination.\(q($0))" } ?? "NULL") "
            + "FROM \(q(table)) AS source JOIN \(q(target)) AS destination ON destination.\(pk) = source.\(q(key)) ORDER BY source.\(pk)"
    }

    /// Each join row's two keys and the `Z_ENT` of the rows they name (NULL where a key names no row).
    static func verifyJoinSides(join: String, first: String, second: String, firstTable: String, secondTable: String) -> String {
        "SELECT pair.\(q(first)), pair.\(q(second)), one.\(ent), other.\(ent) FROM \(q(join)) AS pair "
            + "LEFT JOIN \(q(firstTable)) AS one ON one.\(pk) = pair.\(q(first)) "
            + "LEFT JOIN \(q(secondTable)) AS other ON other.\(pk) = pair.\(q(second)) ORDER BY 1, 2"
    }

    /// `Z_PK` and value of every non-NULL value of a column, in key order.
    static func verifyValues(table: String, column: String) -> String {
        "SELECT \(pk), \(q(column)) FROM \(q(table)) WHERE \(q(column)) IS NOT NULL ORDER BY \(pk)"
    }

    /// How many non-NULL values of a column meet `condition` (`StoreVerifier.badForm`).
    static func verifyBadFormCount(table: String, column: String, condition: String) -> String {
        "SELECT count(*) FROM \(q(table)) WHERE \(q(column)) IS NOT NULL AND (\(condition))"
    }

    /// The first five `Z_PK`s of the rows whose value meets `condition`.
    static func verifyBadFormKeys(table: String, column: String, condition: String) -> String {
        "SELECT \(pk) FROM \(q(table)) WHERE \(q(column)) IS NOT NULL AND (\(condition)) ORDER BY \(pk) LIMIT 5"
    }

    /// Every value of a column, to count the rows pointing at each key.
    static func verifyColumn(table: String, column: String) -> String { "SELECT \(q(column)) FROM \(q(table))" }

    /// `Z_PK`, `Z_ENT` and a derived count of every row of its table.
    static func verifyDerivedCounts(table: String, column: String) -> String {
        "SELECT \(pk), \(ent), \(q(column)) FROM \(q(table)) ORDER BY \(pk)"
    }

    /// `Z_ENT IN (…)`: the rows of the given entities (none when `entityNumbers` is empty).
    static func verifyRowsOf(entityNumbers: [String]) -> String {
        "\(ent) IN (\(entityNumbers.isEmpty ? "NULL" : entityNumbers.joined(separator: ", ")))"
    }

    /// `Z_PK` of the rows meeting `rows` (``verifyRowsOf(entityNumbers:)``) whose to-one `column` is NULL.
    static func verifyMissingToOne(table: String, rows: String, column: String) -> String {
        "SELECT \(pk) FROM \(q(table)) WHERE \(rows) AND \(q(column)) IS NULL ORDER BY \(pk)"
    }

    /// `Z_PK` of the rows meeting `rows`, in key order.
    static func verifyKeys(table: String, rows: String) -> String {
        "SELECT \(pk) FROM \(q(table)) WHERE \(rows) ORDER BY \(pk)"
    }

    /// Per key held in a key column, how many rows hold it.
    static func verifyPointingCounts(table: String, column: String) -> String {
        let column = q(column)
        return "SELECT \(column), count(*) FROM \(q(table)) WHERE \(column) IS NOT NULL GROUP BY \(column)"
    }
}
