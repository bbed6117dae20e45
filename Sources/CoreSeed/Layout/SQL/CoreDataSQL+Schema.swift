/// The statements that define a store, as Core Data writes them (the golden corpus tests compare this
/// text with the stores Core Data wrote): tables, join tables, indexes, the triggers of derived counts.
/// The fixed tables' statements are `CoreDataSchema`'s.
extension CoreDataSQL {
    /// `CREATE TABLE <T> ( <COL> <TYPE>, … )`, with inline uniqueness constraints before framework 866.
    static func createTable(_ table: StoreLayout.Table) -> String {
        let columns = table.columns.map { "\(name($0.name)) \($0.sqlType)" }.joined(separator: ", ")
        if table.inlineUniqueConstraints.isEmpty {
            return "CREATE TABLE \(name(table.name)) ( \(columns) )"
        }
        let constraints = table.inlineUniqueConstraints.map { names in
            "CONSTRAINT \(names.map(name).joined(separator: "_")) UNIQUE (\(names.map(name).joined(separator: ", ")))"
        }.joined(separator: ", ")
        return "CREATE TABLE \(name(table.name)) ( \(columns), \(constraints))"
    }

    /// `CREATE TABLE Z_<n><NAME> ( <first> INTEGER, <second> INTEGER, <orders> INTEGER…, PRIMARY KEY (…) )`.
    static func createJoinTable(_ join: StoreLayout.JoinTable) -> String {
        let (first, second) = (name(join.firstColumn), name(join.secondColumn))
        var columns = ["\(first) INTEGER", "\(second) INTEGER"]
        columns += join.orderColumns.map { "\(name($0.name)) INTEGER" }
        return "CREATE TABLE \(name(join.name)) ( \(columns.joined(separator: ", ")), PRIMARY KEY (\(first), \(second)) )"
    }

    /// `CREATE [UNIQUE] INDEX <name> ON <table> (<elements>)`; `elements` are the layout's column names,
    /// each with its collation and order when the framework writes them.
    static func createIndex(_ index: String, on table: String, _ elements: String, unique: Bool = false) -> String {
        "CREATE \(unique ? "UNIQUE " : "")INDEX \(name(index)) ON \(name(table)) (\(elements))"
    }

    /// The second index of a join table (framework 637 and later): on the second key, then the first.
    static func createJoinIndex(_ join: StoreLayout.JoinTable, named index: String) -> String {
        createIndex(index, on: join.name, "\(name(join.secondColumn)), \(name(join.firstColumn))")
    }

    /// The five `CREATE TRIGGER` statements of a derived count, in Core Data's order (``DerivedCount/triggers``):
    /// four on the destination's table, one on the counting table. When the counting entity is a
    /// sub-entity, every update is limited to its rows: `AND <n> = Z_ENT` (or `<n> <= Z_ENT AND Z_ENT <= <m>`)
    /// on the parameter triggers, `WHEN <n> = NEW.Z_ENT` on the source one.
    static func triggers(of count: DerivedCount) -> [String] {
        let (table, column) = (name(count.table), name(count.column))
        let (childTable, childKey) = (name(count.childTable), name(count.childKey))
        let prefix = CoreDataSchema.derivedCountTrigger(childTable, count.entity, count.attribute)
        let (only, when) = count.entityRange.map { range in
            let (low, high) = (range.lowerBound, range.upperBound)
            return low >= high ? (" AND \(low) = \(ent)", " WHEN \(low) = NEW.\(ent)")
                : (" AND \(low) <= \(ent) AND \(ent) <= \(high)", " WHEN \(low) <= NEW.\(ent) AND NEW.\(ent) <= \(high)")
        } ?? ("", "")
        func notify(_ function: String, _ key: String, _ condition: String) -> String {
            "SELECT \(function)('\(table)', \(ent), \(pk), '\(count.attribute)', \(column)) FROM \(table) WHERE \(pk) = \(key)\(condition); END"
        }
        let updated = DerivedCount.triggerFunctions[0], inserted = DerivedCount.triggerFunctions[1]
        func change(_ name: String, _ event: String, _ row: String, _ assignment: String) -> String {
            "CREATE TRIGGER \(prefix)_\(name) AFTER \(event) ON \(childTable) FOR EACH ROW WHEN (\(row).\(childKey) NOT NULL) "
                + "BEGIN UPDATE \(table) SET \(column) = \(assignment) WHERE \(pk) = \(row).\(childKey)\(only); \(notify(updated, "\(row).\(childKey)", only))"
        }
        return [
            change("PARAMETER_INSERT", "INSERT", "NEW", "IFNULL(\(column), 0) + 1"),
            change("PARAMETER_UPDATE_INCREMENT", "UPDATE OF \(childKey)", "NEW", "\(column) + 1"),
            change("PARAMETER_UPDATE_DECREMENT", "UPDATE OF \(childKey)", "OLD", "\(column) - 1"),
            change("PARAMETER_DELETE", "DELETE", "OLD", "\(column) - 1"),
            "CREATE TRIGGER \(CoreDataSchema.derivedCountTrigger(table, count.entity, count.attribute))_SOURCE_INSERT AFTER INSERT ON \(table) FOR EACH ROW\(when) "
                + "BEGIN UPDATE \(table) SET \(column) = (SELECT IFNULL(COUNT(\(childKey)), 0) FROM \(childTable) WHERE \(childKey) = NEW.\(pk)) WHERE \(pk) = NEW.\(pk); "
                + notify(inserted, "NEW.\(pk)", ""),
        ]
    }

    /// Sets every count of a derived count from the rows in the store (``DerivedCount/fillSQL``): what the
    /// triggers would have left had the rows been inserted one by one. The counted rows are read through
    /// an alias, so the count stays right when they share the counter's table (a self-referential
    /// `children.@count`, sibling sub-entities of one abstract parent): unqualified, `<T>.Z_PK` would
    /// bind to them. Limited to the entities that have the attribute when the table holds others.
    static func fill(_ count: DerivedCount) -> String {
        let (table, column) = (name(count.table), name(count.column))
        let (childTable, childKey) = (name(count.childTable), name(count.childKey))
        let counted = "(SELECT COUNT(counted.\(childKey)) FROM \(childTable) AS counted WHERE counted.\(childKey) = \(table).\(pk))"
        let filter = count.entityNumbers.isEmpty ? "" : " WHERE \(ent) IN (\(count.entityNumbers.map(String.init).joined(separator: ", ")))"
        return "UPDATE \(table) SET \(column) = \(counted)" + filter
    }
}
