/// The reading side of the row pass: every kept record becomes the values of one insert (or, for a
/// row already in the store, one update), sent in batches to the `RowWriter` on the SQLite thread.
///
/// A `Sendable` value: it goes to the reading thread with everything it reads (the plan, each entity's
/// numbers and resolved links, the statements' indexes) and comes back with its tallies and the values
/// it rejected. What only the reading thread touches (the open group's key indexes, the batch being
/// filled) lives in ``Run`` while it reads.
struct RowProducer: Sendable {
    /// What the row pass needs of one entity, copied out of the key pass once so that the per-row loop
    /// reads local arrays.
    struct EntityRows: Sendable {
        /// `Z_PK` per record ordinal (0: no row); empty when rows are numbered as read.
        var primaryKeys: [Int64] = []
        /// In an upsert: the `Z_PK` of the stored row each record matches, 0 for a new one.
        var matched: [Int64] = []
        var toOneKeys: [[Int64]] = []
        var toOneEntities: [[Int32]] = []
        var toOneOrders: [[Int64]] = []
        /// Unresolved relationship keys per record ordinal, reported with the record's location.
        var unresolved: [Int32: [(link: Int, position: Int)]] = [:]
        /// Rows numbered as read: where each to-one slot's value comes from.
        var slots: [BuildPlan.SlotSource]?
    }

    let plan: BuildPlan
    let entities: [EntityRows]
    let statements: RowStatements.Indexes
    var rejections: Rejections
    /// Where values above an attribute's `externalAbove` go (nil: a dry run, every value stays inline).
    var externalData: ExternalDataFolder?
    /// The key maps, for what an unresolved key's message notes (nil when no key is unresolved).
    var knownKeys: KnownKeys?
    /// Per entity: rows inserted, and stored rows the input matched with nothing to update.
    fileprivate(set) var produced: [Int]
    fileprivate(set) var unchanged: [Int]

    init(plan: BuildPlan, entities: [EntityRows], statements: RowStatements.Indexes, rejections: Rejections) {
        self.plan = plan
        self.entities = entities
        self.statements = statements
        self.rejections = rejections
        produced = Array(repeating: 0, count: entities.count)
        unchanged = Array(repeating: 0, count: entities.count)
    }

    /// Rows per batch handed to the SQLite thread.
    static let batchRows = 2048

    /// A key index that entities share by reference (no copy-on-write of a large table). Not
    /// `Sendable`: made and used on the reading thread only.
    final class SharedKeyIndex {
        var keys = KeySet()
    }

    /// One entity's place in the loop over a source group's records, with its arrays copied out once so
    /// that the per-row loop reads locals (no struct copies, no exclusivity checks on `self`).
    private struct Cursor {
        let entityIndex: Int
        let number: Int64
        let fills: [[ColumnFill]]
        let insert: Int32
        let updates: [(statement: Int32, parameters: [Int32?])?]
        let primaryKeys: [Int64]
        let matched: [Int64]
        let toOneKeys: [[Int64]]
        let toOneEntities: [[Int32]]
        let toOneOrders: [[Int64]]
        let unresolved: [Int32: [(link: Int, position: Int)]]
        let hasUnresolved: Bool
        let knownKeys: KnownKeys?
        let slots: [BuildPlan.SlotSource]?
        /// Its inserts leave `Z_PK` out (SQLite numbers the rows as they come).
        let numberedByInsertion: Bool
        let keepsBlanks: Bool
        /// The row pass checks uniqueness constraints (the key pass did not check values).
        let checksUniqueness: Bool
        let tableName: String
        let externalData: ExternalDataFolder?
        var ordinal = 0
        var produced = 0
        var unchanged = 0
    }

    /// Reads every source once and hands over each kept record's row; stops early when `send` says the
    /// SQLite side has gone. The tallies and rejected values stay in `self`, even when it throws.
    mutating func produce(send: @escaping (RowBatch) -> Bool) throws {
        var run = Run(producer: self, send: send)
        defer { self = run.producer }
        try run.produce()
    }

    /// One run over the sources on the reading thread: the group's cursors and duplicate indexes, the
    /// source being read, the batch being filled and where full batches go. Not `Sendable`.
    private struct Run: RowInputVisitor {
        var producer: RowProducer
        let send: (RowBatch) -> Bool
        private var cursors: [Cursor] = []
        private var duplicateIndexes: [SharedKeyIndex?] = []
        private var singleKeyFields: [Int] = []
        private var sourceIndex = 0
        private var batch = RowBatch(capacity: RowProducer.batchRows)
        private var uniqueness = UniquenessIndex()

        init(producer: RowProducer, send: @escaping (RowBatch) -> Bool) {
            self.producer = producer
            self.send = send
        }

        mutating func produce() throws {
            let plan = producer.plan, mapping = plan.mapping
            for group in plan.groups {
                cursors = group.entities.map { index in
                    let rows = producer.entities[index]
                    return Cursor(entityIndex: index, number: Int64(mapping.entities[index].number), fills: mapping.entities[index].sources.map(\.fills),
                                  insert: producer.statements.insert[index], updates: producer.statements.update[index], primaryKeys: rows.primaryKeys,
                                  matched: rows.matched, toOneKeys: rows.toOneKeys, toOneEntities: rows.toOneEntities,
                                  toOneOrders: rows.toOneOrders, unresolved: rows.unresolved,
                                  hasUnresolved: !rows.unresolved.isEmpty, knownKeys: producer.knownKeys, slots: rows.slots,
                                  numberedByInsertion: producer.statements.numberedByInsertion[index],
                                  keepsBlanks: mapping.entities[index].keepsBlanks,
                                  checksUniqueness: !mapping.entities[index].uniqueness.isEmpty && !(plan.maxErrors > 0 || plan.dryRun),
                                  tableName: mapping.entities[index].table.name, externalData: producer.externalData)
                }
                defer {
                    for cursor in cursors {
                        producer.produced[cursor.entityIndex] = cursor.produced
                        producer.unchanged[cursor.entityIndex] = cursor.unchanged
                    }
                }
                // One duplicate index per distinct key: entities keyed alike see the same records, so the
                // first of them checks for all (the same key, the same verdict).
                var checkedKeys = Set<[Int]>()
                duplicateIndexes = group.entities.map { index -> SharedKeyIndex? in
                    guard plan.isNumberedAsRead, mapping.entities[index].hasKey,
                          checkedKeys.insert(plan.duplicateIndexKey(index)).inserted else { return nil }
                    return SharedKeyIndex()
                }
                let sourceCount = mapping.entities[group.entities[0]].sources.count
                for sourceIndex in 0..<sourceCount {
                    self.sourceIndex = sourceIndex
                    let first = mapping.entities[group.entities[0]].sources[sourceIndex]
                    let reader = try first.spec.openReader(relativeTo: plan.specDirectory)
                    reader.project(plan.projection(group, sourceIndex: sourceIndex, fieldCount: first.fieldNames.count, values: true))
                    // Per slot: the key's field when the key is one field (integer keys are checked without text).
                    singleKeyFields = cursors.map { cursor -> Int in
                        let keyFields = mapping.entities[cursor.entityIndex].sources[sourceIndex].keyFields
                        return keyFields.count == 1 ? keyFields[0] : -1
                    }
                    guard try reader.visitRows(&self) else { return }
                }
            }
            if !batch.rows.isEmpty { _ = send(batch) }
        }

        /// One record: its duplicate checks (one-field integer keys without text), then its rows.
        mutating func visit<Input: RowInput>(_ input: inout Input) throws -> Bool {
            for slot in cursors.indices {
                if let index = duplicateIndexes[slot] {
                    let keyField = singleKeyFields[slot]
                    if keyField < 0 || !input.insertIfIntegerKey(field: keyField, into: index) {
                        try RowProducer.checkDuplicate(try input.record(), plan: producer.plan, entityIndex: cursors[slot].entityIndex,
                                                       sourceIndex: sourceIndex, index: index, rejections: &producer.rejections)
                    }
                }
                if cursors[slot].checksUniqueness {
                let cursor = cursors[slot]
                let isNew = cursor.matched.isEmpty || cursor.matched[cursor.ordinal] == 0
                let numbered = cursor.slots != nil || cursor.primaryKeys[cursor.ordinal] != 0
                if isNew && numbered {
                    _ = try uniqueness.admit(try input.record(), entityIndex: cursor.entityIndex, sourceIndex: sourceIndex,
                                             ordinal: cursor.ordinal, plan: producer.plan, rejections: &producer.rejections)
                }
            }
            try RowProducer.produceRow(&input, plan: producer.plan, sourceIndex: sourceIndex, cursor: &cursors[slot], batch: &batch,
                                       rejections: &producer.rejections)
            }
            if batch.rows.count >= RowProducer.batchRows {
                guard send(batch) else { return false }
                batch = RowBatch(capacity: RowProducer.batchRows)
            }
            return true
        }
    }

    @inline(__always)
    private static func produceRow<Input: RowInput>(_ record: inout Input, plan: BuildPlan, sourceIndex: Int, cursor: inout Cursor,
                                                    batch: inout RowBatch, rejections: inout Rejections) throws {
        let ordinal = cursor.ordinal
        cursor.ordinal += 1
        let primaryKey = cursor.slots == nil ? cursor.primaryKeys[ordinal] : Int64(ordinal + 1)
        guard primaryKey != 0 else { return }
        if cursor.hasUnresolved {
            try reportUnresolved(try record.record(), plan: plan, unresolved: cursor.unresolved, knownKeys: cursor.knownKeys, ordinal: ordinal,
                                 entityIndex: cursor.entityIndex, sourceIndex: sourceIndex, rejections: &rejections)
        }
        if !cursor.matched.isEmpty, cursor.matched[ordinal] != 0 {
            // A row already in the store: update what changed, keep the rest.
            guard let update = cursor.updates[sourceIndex] else {
                cursor.unchanged += 1
                return
            }
            let count = try appendValues(&record, plan: plan, ordinal: ordinal, primaryKey: primaryKey, cursor: cursor,
                                         fills: cursor.fills[sourceIndex], parameters: update.parameters, to: &batch, rejections: &rejections)
            batch.append(.integer(primaryKey))
            batch.rows.append((update.statement, Int32(count + 1)))
            return
        }
        let count = try appendValues(&record, plan: plan, ordinal: ordinal, primaryKey: primaryKey, cursor: cursor,
                                     fills: cursor.fills[sourceIndex], parameters: nil, constantsInlined: true, to: &batch,
                                     rejections: &rejections)
        batch.rows.append((cursor.insert, Int32(count)))
        cursor.produced += 1
    }

    private static func reportUnresolved(_ record: Record, plan: BuildPlan, unresolved: [Int32: [(link: Int, position: Int)]], knownKeys: KnownKeys?,
                                         ordinal: Int, entityIndex: Int, sourceIndex: Int, rejections: inout Rejections) throws {
        guard let pending = unresolved[Int32(ordinal)] else { return }
        let entity = plan.mapping.entities[entityIndex]
        for (linkIndex, position) in pending {
            try rejections.reject(Rejections.unresolved(record, entity: entity, sourceIndex: sourceIndex, link: linkIndex, position: position) {
                knownKeys?.note(for: $0, destination: $1)
            })
        }
    }

    /// Rows numbered as read: a second record with a key already seen fails the build (the only
    /// duplicate policy this plan runs with is `error`).
    private static func checkDuplicate(_ record: Record, plan: BuildPlan, entityIndex: Int, sourceIndex: Int, index: SharedKeyIndex,
                                       rejections: inout Rejections) throws {
        let entity = plan.mapping.entities[entityIndex]
        let source = entity.sources[sourceIndex]
        guard entity.hasKey else { return }
        guard let key = NaturalKey.key(record.values, at: source.keyFields) else {
            try rejections.reject(Rejections.mappingError(record, fieldIndex: source.keyFields.first, field: entity.keyFieldName ?? "",
                                                          entity: entity.name, attribute: "key", failure: .noKey(entity: entity.name)))
            return
        }
        if !index.keys.insert(key) {
            try rejections.reject(Rejections.mappingError(
                record, fieldIndex: source.keyFields.first, field: entity.keyFieldName ?? "", entity: entity.name, attribute: "key",
                failure: .duplicateKey(NaturalKey.display(key), entity: entity.name, firstSeen: "")),
                repeating: .firstWithKey(entity: entityIndex, key))
        }
    }

    /// Appends the values of one row's columns (all, or those `parameters` names) and returns how many.
    /// A value that cannot be converted is rejected and NULL takes its place (the key pass has already
    /// left out such records when errors are tolerated).
    @inline(__always)
    private static func appendValues<Input: RowInput>(_ record: inout Input, plan: BuildPlan, ordinal: Int, primaryKey: Int64,
                                                      cursor: Cursor, fills: [ColumnFill], parameters: [Int32?]?,
                                                      constantsInlined: Bool = false, to values: inout RowBatch,
                                                      rejections: inout Rejections) throws -> Int {
        var count = 0
        for offset in fills.indices {
            if let parameters, parameters[offset] == nil { continue }
            switch fills[offset] {
            case .entityNumber where constantsInlined, .optimisticLock where constantsInlined: continue
            case .primaryKey where constantsInlined && cursor.numberedByInsertion: continue
            default: count += 1
            }
            switch fills[offset] {
            case .primaryKey: values.append(.integer(primaryKey))
            case .entityNumber: values.append(.integer(cursor.number))
            case .optimisticLock: values.append(.integer(1))
            case .null: values.append(.null)
            case .attribute(let attribute):
                // An update that keeps stored values where the input is blank binds NULL (COALESCE keeps).
                if parameters != nil, cursor.keepsBlanks, attribute.constant == nil,
                   let field = attribute.fieldIndex, record.isBlank(field: field) {
                    values.append(.null)
                    continue
                }
                if record.appendFast(attribute, to: &values) { continue }
                let full = try record.record()
                let value: SQLiteValue
                do {
                    value = try attribute.value(full)
                } catch {
                    try rejections.reject(Rejections.mappingError(
                        full, fieldIndex: attribute.fieldIndex, field: attribute.fieldName,
                        entity: plan.mapping.entities[cursor.entityIndex].name, attribute: attribute.attribute.name, failure: error))
                    values.append(.null)
                    continue
                }
                // Stored inline with its 0x01 marker unless larger than `externalAbove`: then in a file.
                if let limit = attribute.externalAbove, let external = cursor.externalData, case .blob(let stored) = value,
                   stored.count - 1 > limit {
                    let column = plan.mapping.entities[cursor.entityIndex].table.columns[offset].name
                    values.append(.blob(try external.store(stored.dropFirst(), table: cursor.tableName, column: column, primaryKey: primaryKey)))
                } else {
                    values.append(value)
                }
            case .toOne(let slot):
                if let slots = cursor.slots {
                    if case .sameRecord = slots[slot] { values.append(.integer(Int64(ordinal + 1))) } else { values.append(.null) }
                    continue
                }
                let key = cursor.toOneKeys[slot][ordinal]
                values.append(key == 0 ? .null : .integer(key))
            case .toOneEntity(let slot):
                if let slots = cursor.slots {
                    if case .sameRecord(let number) = slots[slot] { values.append(.integer(number)) } else { values.append(.null) }
                    continue
                }
                let number = cursor.toOneEntities[slot][ordinal]
                values.append(number == 0 ? .null : .integer(Int64(number)))
            case .toOneOrder(let slot):
                if cursor.slots != nil {
                    values.append(.null)
                    continue
                }
                let order = cursor.toOneOrders[slot][ordinal]
                values.append(order == 0 ? .null : .integer(order))
            }
        }
        return count
    }
}
