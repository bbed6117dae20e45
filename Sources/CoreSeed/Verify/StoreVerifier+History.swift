/// The persistent-history check (docs/LAYOUT.md, "Persistent history"): a store that has the history
/// tables has all three with Core Data's columns and `Z_PRIMARYKEY` rows, every change points at a
/// stored transaction and at an entity of the model with a known change type, every string a
/// transaction refers to is stored, and no key is above its `Z_MAX`.
extension StoreVerifier {
    func checkHistory(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, builtByCoreSeed: Bool,
                      into report: inout Report) throws {
        let tables = CoreDataSchema.History.tables
        let present = tables.filter { schema.table($0.name) != nil }
        guard !present.isEmpty else { return }
        var complete = present.count == tables.count
        for table in tables where schema.table(table.name) == nil {
            report.differences.append("persistent history: no \(table.name) table (a store that tracks history has \(tables.map(\.name).joined(separator: ", ")))")
        }
        for table in present {
            let expected = [CoreDataSchema.primaryKey, CoreDataSchema.entityColumn, CoreDataSchema.optimisticLockColumn] + table.columns.map(\.name)
            if !StoreVerifier.has(schema, table: table.name, columns: expected) {
                let stored = schema.table(table.name)?.columns.map(\.name) ?? []
                report.differences.append("persistent history: \(table.name) lacks \(expected.filter { !stored.contains($0) }.joined(separator: ", "))")
                complete = false
            }
        }
        guard complete else { return }
        // Core Data sizes ACHANGE for the model's tombstones; a store may keep more (a model that lost some).
        let stored = Set(schema.table(CoreDataSchema.History.change.name)?.columns.map(\.name) ?? [])
        let missing = (0..<layout.historyTombstoneCount).map(CoreDataSchema.History.tombstoneColumn).filter { !stored.contains($0) }
        if !missing.isEmpty {
            let line = "persistent history: \(CoreDataSchema.History.change.name) lacks \(missing.joined(separator: ", ")): the model keeps \(layout.historyTombstoneCount) attribute value(s) of deleted objects (preserveAfterDeletion), and Core Data writes them there"
            if builtByCoreSeed { report.differences.append(line) } else { report.warnings.append(line) }
        }

        // Z_PRIMARYKEY: one row per history entity, Z_MAX at least its table's highest key.
        var maxima: [Int: (name: String, max: Int64?)] = [:]
        for row in try database.rows(CoreDataSQL.historyPrimaryKeyRows) {
            guard case .integer(let number) = row[0] else { continue }
            let name: String = if case .text(let text) = row[1] { text } else { "" }
            let max: Int64? = if case .integer(let value) = row[2] { value } else { nil }
            maxima[Int(number)] = (name, max)
        }
        let highest = try database.rows(CoreDataSQL.historyHighestKeys).first ?? []
        for (table, value) in zip(tables, highest) {
            guard let row = maxima[table.number], row.name == table.entity else {
                report.differences.append("persistent history: Z_PRIMARYKEY has no row \(table.number) \(table.entity)")
                continue
            }
            if case .integer(let key) = value, let max = row.max, key > max {
                report.differences.append("persistent history: \(table.name) holds Z_PK \(key), above its Z_MAX \(max) (Core Data would issue that key again)")
            }
        }

        let orphans = try database.rows(CoreDataSQL.historyChangesWithoutTransaction)
        if let first = orphans.first {
            let more = StoreVerifier.more(orphans)
            report.differences.append("persistent history: change Z_PK \(ExistingRows.shown(first[0])) refers to transaction \(ExistingRows.shown(first[1])), which \(CoreDataSchema.History.transaction.name) does not hold\(more)")
        }
        let numbers = Set(layout.entities.map { Int64($0.number) })
        for row in try database.rows(CoreDataSQL.historyChangeKinds) {
            let first = ExistingRows.shown(row[3])
            let count = if case .integer(1) = row[2] { "1 change" } else { "\(ExistingRows.shown(row[2])) changes" }
            let knownType = if case .integer(let type) = row[0] { PersistentHistory.ChangeType(rawValue: type) != nil } else { false }
            if !knownType {
                report.differences.append("persistent history: \(count) of type \(ExistingRows.shown(row[0])), not 0 (insert), 1 (update) or 2 (delete); the first: Z_PK \(first)")
            }
            if case .integer(let entity) = row[1], numbers.contains(entity) { continue }
            let line = "persistent history: \(count) of entity \(ExistingRows.shown(row[1])), which is not an entity number of the model (1 to \(numbers.count)); the first: Z_PK \(first)"
            // A model that lost an entity may leave its history behind: Core Data's own stores are warned of.
            if builtByCoreSeed { report.differences.append(line) } else { report.warnings.append(line) }
        }
        let dangling = try database.rows(CoreDataSQL.historyDanglingStrings)
        if let first = dangling.first {
            let column = if case .text(let name) = first[1] { name } else { "" }
            let more = StoreVerifier.more(dangling)
            report.differences.append("persistent history: transaction Z_PK \(ExistingRows.shown(first[0])): \(column) refers to string \(ExistingRows.shown(first[2])), which \(CoreDataSchema.History.string.name) does not hold\(more)")
        }
    }

    /// " (and N more)" after the first of `rows`, read with `LIMIT 6` (six: at least five more).
    private static func more(_ rows: [[SQLiteValue]]) -> String {
        switch rows.count {
        case ...1: ""
        case 6...: " (and 5 or more others)"
        default: " (and \(rows.count - 1) more)"
        }
    }
}
