/// The statements of a derived `<to-one>.<attribute>` (``DerivedKeyPath``): Core Data's four triggers
/// and CoreSeed's initial fill.
extension CoreDataSQL {
    /// Core Data's condition limiting a derivation to an entity and its sub-entities (`_entityID`,
    /// `_subentityMaxID`), on the row `row` names (`NEW.` or the table's own): `2 = NEW.Z_ENT`, `2 <= Z_ENT AND Z_ENT <= 4`.
    static func entityCondition(_ range: ClosedRange<Int>, row: String) -> String {
        range.lowerBound >= range.upperBound ? "\(range.lowerBound) = \(row)\(ent)"
            : "\(range.lowerBound) <= \(row)\(ent) AND \(row)\(ent) <= \(range.upperBound)"
    }

    /// The four `CREATE TRIGGER` statements, in Core Data's order (``DerivedKeyPath/triggers``): two on
    /// the deriving table (a row inserted, or its to-one re-pointed, reads the value again), two on the
    /// destination's (a destination row inserted or its attribute changed writes the value into the rows
    /// pointing at it). `AND <n> = NEW.Z_ENT` / `WHEN …` on the source triggers, `AND <n> = Z_ENT` on the parameter ones.
    static func triggers(of path: DerivedKeyPath) -> [String] {
        let (table, column, key) = (name(path.table), name(path.column), name(path.key))
        let (destinationTable, destinationColumn) = (name(path.destinationTable), name(path.destinationColumn))
        let source = CoreDataSchema.derivedCountTrigger(table, path.entity, path.attribute) + "_SOURCE"
        let parameter = CoreDataSchema.derivedCountTrigger(destinationTable, path.entity, path.attribute) + "_PARAMETER"
        let new = path.entityRange.map { entityCondition($0, row: "NEW.") } ?? ""
        let plain = path.entityRange.map { entityCondition($0, row: "") } ?? ""
        let andNew = new.isEmpty ? "" : " AND \(new)", whenNew = new.isEmpty ? "" : " WHEN \(new)"
        let andPlain = plain.isEmpty ? "" : " AND \(plain)"
        let read = "(SELECT \(destinationColumn) FROM \(destinationTable) WHERE \(pk) = NEW.\(key))"
        func notify(_ function: String, _ condition: String) -> String {
            " SELECT \(function)('\(table)', \(ent), \(pk), '\(path.attribute)', \(column)) FROM \(table) WHERE \(condition); END"
        }
        let updated = DerivedCount.triggerFunctions[0], inserted = DerivedCount.triggerFunctions[1]
        return [
            "CREATE TRIGGER \(source)_INSERT AFTER INSERT ON \(table) FOR EACH ROW BEGIN UPDATE \(table) SET \(column) = \(read) WHERE \(pk) = NEW.\(pk)\(andNew);"
                + notify(inserted, "\(pk) = NEW.\(pk)\(andNew)"),
            "CREATE TRIGGER \(source)_UPDATE AFTER UPDATE OF \(key) ON \(table) FOR EACH ROW\(whenNew) BEGIN UPDATE \(table) SET \(column) = \(read) WHERE \(pk) = NEW.\(pk);"
                + notify(updated, "\(pk) = NEW.\(pk)"),
            "CREATE TRIGGER \(parameter)_INSERT AFTER INSERT ON \(destinationTable) FOR EACH ROW BEGIN UPDATE \(table) SET \(column) = NEW.\(destinationColumn) WHERE \(key) = NEW.\(pk)\(andPlain);"
                + notify(inserted, "\(key) = NEW.\(pk)\(andPlain)"),
            "CREATE TRIGGER \(parameter)_UPDATE AFTER UPDATE OF \(destinationColumn) ON \(destinationTable) FOR EACH ROW BEGIN UPDATE \(table) SET \(column) = NEW.\(destinationColumn) WHERE \(key) = NEW.\(pk)\(andPlain);"
                + notify(updated, "\(key) = NEW.\(pk)\(andPlain)"),
        ]
    }

    /// Sets every value from the rows in the store (``DerivedKeyPath/fillSQL``): what the triggers would
    /// have left had the rows been inserted one by one. The destination is read through an alias, so the
    /// value stays right when it shares the table (a self-referential `parent.name`).
    static func fill(_ path: DerivedKeyPath) -> String {
        let (table, column, key) = (name(path.table), name(path.column), name(path.key))
        let filter = path.entityNumbers.isEmpty ? "" : " WHERE \(ent) IN (\(path.entityNumbers.map(String.init).joined(separator: ", ")))"
        return "UPDATE \(table) SET \(column) = (SELECT parameter.\(name(path.destinationColumn)) FROM \(name(path.destinationTable)) AS parameter WHERE parameter.\(pk) = \(table).\(key))"
            + filter
    }

    /// `Z_PK` and `column` of every row of `table` (verify's read of a key path's destination values).
    static func verifyKeyAndValue(table: String, column: String) -> String {
        "SELECT \(pk), \(q(column)) FROM \(q(table))"
    }

    /// `Z_PK`, `Z_ENT`, the to-one `key` and the derived `column` of every row of `table`, in key order.
    static func verifyKeyPathRows(table: String, key: String, column: String) -> String {
        "SELECT \(pk), \(ent), \(q(key)), \(q(column)) FROM \(q(table)) ORDER BY \(pk)"
    }

    private static func q(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }
}
