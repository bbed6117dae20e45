/// What an upsert (or insert) knows about the store it updates: its rows' keys, matched to the
/// input's records, and `Z_MAX` per hierarchy.
struct ExistingRows: Sendable {
        /// Per seeded entity: stored key → `Z_PK` of rows of that concrete entity.
        var keys: [[LinkKey: Int64]]
        /// Per hierarchy root: `Z_MAX` before the build.
        var maxPrimaryKeys: [String: Int64]
        /// Per seeded entity: how a record's key reads in the store's terms.
        var keyReaders: [ExistingKeyReader]
        /// Per seeded entity and to-one slot: the stored positions of ordered to-many members.
        var orders: [Int: [Int: StoredOrders]] = [:]
        /// Per ordered join table: its stored pairs and positions.
        var joins: [String: StoredJoinRows] = [:]

    /// How an entity's key is found in the store: the attributes its key fields feed, or, for an entity
    /// whose key feeds no attribute (FailedBankInfo keyed by "CERT #"), the key of the row its to-one
    /// relationship with the same key fields points at.
    enum ExistingKeyReader: Sendable {
        case attributes(columns: [String], coercers: [AttributeFill])
        case through(column: String, destination: Int, coercers: [AttributeFill])

        var coercers: [AttributeFill] {
            switch self {
            case .attributes(_, let coercers), .through(_, _, let coercers): coercers
            }
        }
    }

    /// Reads the keys of every seeded entity's existing rows. Throws when an entity's key cannot be
    /// found in the store (an upsert must match rows by key) or when two stored rows share a key
    /// (which one to update would be a guess). `storePath` names the store in messages.
    static func load(_ database: SQLiteDatabase, plan: BuildPlan, storePath: String) throws -> ExistingRows {
        let readers = try plan.seedPlan.entities.map { try keyReader(for: $0, plan: plan, depth: 0) }
        var keys: [[LinkKey: Int64]] = Array(repeating: [:], count: plan.seedPlan.entities.count)
        // Per entity keyed by attributes: Z_PK → key text, for the entities keyed through them (and messages).
        var texts: [Int: [Int64: String]] = [:]
        let keyedThrough = Set(readers.compactMap { reader -> Int? in if case .through(_, let destination, _) = reader { destination } else { nil } })
        // Entities keyed by attributes first: the others are keyed through them.
        let order = plan.seedPlan.entities.indices.sorted { a, b in
            if case .attributes = readers[a], case .through = readers[b] { return true }
            return false
        }
        for index in order {
            let entity = plan.seedPlan.entities[index]
            switch readers[index] {
            case .attributes(let columns, _):
                let sql = CoreDataSQL.existingRows(table: entity.table.name, entityNumber: entity.number, columns: columns)
                for row in try database.rows(sql) {
                    guard case .integer(let primaryKey) = row[0] else { continue }
                    try checkVersion(row[1], of: entity, key: primaryKey, storePath: storePath)
                    let parts = row.dropFirst(2).map { NaturalKey.part(FieldValue($0)) }
                    guard parts.allSatisfy({ $0 != nil }) else { continue }
                    let key = parts.map { $0! }.joined(separator: String(NaturalKey.separator))
                    if let first = keys[index].updateValue(primaryKey, forKey: LinkKey(entity.comparedKey(key))) {
                        throw ambiguous(entity, key: key, rows: (first, primaryKey), storePath: storePath)
                    }
                    if keyedThrough.contains(index) { texts[index, default: [:]][primaryKey] = key }
                }
            case .through(let column, let destination, _):
                let keyOf = texts[destination] ?? [:]
                let sql = CoreDataSQL.existingRows(table: entity.table.name, entityNumber: entity.number, columns: [column])
                for row in try database.rows(sql) {
                    guard case .integer(let primaryKey) = row[0] else { continue }
                    try checkVersion(row[1], of: entity, key: primaryKey, storePath: storePath)
                    guard case .integer(let target) = row[2], let key = keyOf[target] else { continue }
                    if let first = keys[index].updateValue(primaryKey, forKey: LinkKey(entity.comparedKey(key))) {
                        throw ambiguous(entity, key: key, rows: (first, primaryKey), storePath: storePath)
                    }
                }
            }
        }
        var maxima: [String: Int64] = [:]
        for row in try database.rows(CoreDataSQL.rootPrimaryKeyMaxima) {
            guard case .text(let name) = row[0] else { continue }
            // A stored Z_MAX is checked before keys are counted up from it (no overflow, no silent 0).
            guard case .integer(let max) = row[1] else {
                throw FileError(path: storePath, message: "Z_PRIMARYKEY: Z_MAX of \(name) is \(ExistingRows.shown(row[1])), not an integer: the store is damaged; restore it from a backup")
            }
            guard max <= ExistingRows.highestKey else {
                throw FileError(path: storePath, message: "Z_PRIMARYKEY: Z_MAX of \(name) is \(max), which leaves no room for new keys: the store is damaged; restore it from a backup")
            }
            maxima[name] = max
            // -1 after an in-place migration means no key handed out yet (§4c.6): the next is max(Z_PK) + 1.
            if max < 0, let table = plan.seedPlan.layout.entity(named: name)?.tableName {
                let highest = try database.scalar(CoreDataSQL.highestPrimaryKey(table: table))
                if case .integer(let highest)? = highest {
                    guard highest <= ExistingRows.highestKey else {
                        throw FileError(path: storePath, message: "Z_PRIMARYKEY: Z_MAX of \(name) is \(max) and \(table) holds Z_PK \(highest), which leaves no room for new keys: the store is damaged; restore it from a backup")
                    }
                    maxima[name] = highest
                } else {
                    maxima[name] = 0
                }
            }
        }
        return ExistingRows(keys: keys, maxPrimaryKeys: maxima, keyReaders: readers, orders: try StoredOrders.load(database, plan: plan),
                            joins: try StoredJoinRows.load(database, layout: plan.seedPlan.layout))
    }

    /// The highest stored key new keys are counted up from: half of `Int64.max`, so that no count of
    /// new rows can overflow.
    static let highestKey = Int64.max / 2

    /// A stored `Z_OPT` an update's `Z_OPT + 1` cannot count up from: not an integer (SQLite would make
    /// text 1 and keep a real), or `Int64.max` (SQLite would make it a real). NULL, which Core Data
    /// leaves in some stores' rows, stays NULL.
    private static func checkVersion(_ value: SQLiteValue, of entity: EntityPlan, key: Int64, storePath: String) throws {
        let problem: String
        switch value {
        case .null: return
        case .integer(let version) where version < Int64.max: return
        case .integer(let version): problem = "is \(version), which leaves no room for an update's + 1"
        default: problem = "is \(ExistingRows.shown(value)), not an integer"
        }
        throw FileError(path: storePath, message: "\(entity.table.name): Z_OPT of \(entity.name) Z_PK \(key) \(problem): the store is damaged; restore it from a backup")
    }

    private static func ambiguous(_ entity: EntityPlan, key: String, rows: (Int64, Int64), storePath: String) -> FileError {
        let shown = key.replacingOccurrences(of: String(NaturalKey.separator), with: ", ")
        return FileError(path: storePath, message: "entities.\(entity.name): rows Z_PK \(min(rows.0, rows.1)) and \(max(rows.0, rows.1)) of \(entity.table.name) share the key '\(shown)', so records cannot be matched to one row; the key ('\(entity.keyFieldName ?? "")') must be unique in the store: remove the duplicate rows or key the entity by a unique field")
    }

    private static func keyReader(for entity: EntityPlan, plan: BuildPlan, depth: Int) throws -> ExistingKeyReader {
        if entity.hasStoredRowsOnly { return .attributes(columns: entity.storedKeyColumns, coercers: []) }
        let source = entity.sources[0]
        guard !source.keyFields.isEmpty else {
            throw FileError(path: plan.seedPlan.spec.path, message: "entities.\(entity.name): an upsert matches rows by key; give '\(entity.name)' a key")
        }
        var columns: [String] = [], coercers: [AttributeFill] = []
        for field in source.keyFields {
            for (offset, fill) in source.fills.enumerated() {
                if case .attribute(let attribute) = fill, attribute.fieldIndex == field {
                    columns.append(entity.table.columns[offset].name)
                    coercers.append(attribute)
                    break
                }
            }
        }
        if columns.count == source.keyFields.count { return .attributes(columns: columns, coercers: coercers) }
        // The key feeds no attribute: match through a to-one whose key fields are the same.
        for (linkIndex, link) in entity.fieldLinks.enumerated()
        where depth == 0 && !link.relationship.isToMany && source.linkFields[linkIndex] == source.keyFields {
            guard let slot = entity.toOneSlots.firstIndex(of: link.relationship.name),
                  let destination = BuildPlan.candidates(plan.seedPlan, graph: plan.graph, for: link.relationship.destinationEntity).first,
                  let offset = source.fills.firstIndex(where: { if case .toOne(slot) = $0 { true } else { false } }),
                  case .attributes(_, let coercers)? = try? keyReader(for: plan.seedPlan.entities[destination], plan: plan, depth: depth + 1) else { continue }
            return .through(column: entity.table.columns[offset].name, destination: destination, coercers: coercers)
        }
        throw FileError(path: plan.seedPlan.spec.path, message: "entities.\(entity.name): an upsert matches rows by key, but the key '\(entity.keyFieldName ?? "")' feeds no attribute of '\(entity.name)' and no to-one relationship with the same key")
    }

    /// The key of a record in the store's terms: each key field converted as its attribute stores it.
    func storedKey(_ record: Record, source: SourcePlan, reader: ExistingKeyReader) -> String? {
        var parts: [String] = []
        for (field, fill) in zip(source.keyFields, reader.coercers) {
            guard let converted = try? fill.coercer.coerce(record.values[field]),
                  let part = NaturalKey.part(FieldValue(converted)) else { return nil }
            parts.append(part)
        }
        return parts.joined(separator: String(NaturalKey.separator))
    }
}

extension ExistingRows {
    /// A stored value as a message shows it: text quoted, others as SQLite would print them.
    static func shown(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): "'\(text.prefix(40))'"
        case .blob(let bytes): "a \(bytes.count)-byte blob"
        }
    }
}
