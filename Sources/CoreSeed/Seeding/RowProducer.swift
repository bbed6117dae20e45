/// The reading side of the row pass: schedules the source groups and the batches. Every kept record
/// becomes the values of one insert (or, for a row already in the store, one update) by its entity's
/// ``RowMapping``, sent in batches to the `RowWriter` on the SQLite thread.
///
/// A `Sendable` value: it goes to the reading thread with everything it reads (the plan, the row
/// mappings, each entity's ``EntityNumbers``, the statements' indexes) and comes back with its
/// tallies and the values it rejected. What only the reading thread touches (the open group's key
/// indexes, the batch being filled) lives in ``Run`` while it reads.
struct RowProducer: Sendable {
    let plan: BuildPlan
    /// Per entity: what the key pass decided for its records (or, numbered as read, its to-one slots).
    let entities: [EntityNumbers]
    /// Per entity and source: how a record becomes a row.
    let mappings: [[RowMapping]]
    let statements: RowStatements.Indexes
    var rejections: Rejections
    /// The key maps, for what an unresolved key's message notes (nil when no key is unresolved).
    var knownKeys: KnownKeys?
    /// Per entity: rows inserted, and stored rows the input matched with nothing to update.
    fileprivate(set) var produced: [Int]
    fileprivate(set) var unchanged: [Int]
    /// Per source name: records its `"where"` left out (``ComputedFieldsReader``).
    fileprivate(set) var filtered: [String: Int] = [:]
    /// Per joined source: keys no record of the group matched.
    fileprivate(set) var unmatchedJoinKeys: [String: Int] = [:]

    init(plan: BuildPlan, entities: [EntityNumbers], statements: RowStatements.Indexes, rejections: Rejections) {
        self.plan = plan
        self.entities = entities
        mappings = RowMapping.mappings(plan, numberedByInsertion: statements.numberedByInsertion)
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

    /// One entity's place in the loop over a source group's records.
    private struct Cursor {
        let entityIndex: Int
        /// Per source.
        let mappings: [RowMapping]
        let numbers: EntityNumbers
        let insert: Int32
        let updates: [(statement: Int32, parameters: [Int32?])?]
        let hasUnresolved: Bool
        let knownKeys: KnownKeys?
        /// The row pass checks uniqueness constraints (the key pass did not check values).
        let checksUniqueness: Bool
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
            let plan = producer.plan, seedPlan = plan.seedPlan
            for group in plan.groups {
                cursors = group.entities.map { index in
                    Cursor(entityIndex: index, mappings: producer.mappings[index], numbers: producer.entities[index],
                           insert: producer.statements.insert[index], updates: producer.statements.update[index],
                           hasUnresolved: !producer.entities[index].unresolved.isEmpty, knownKeys: producer.knownKeys,
                           checksUniqueness: !seedPlan.entities[index].uniqueness.isEmpty && !(plan.maxErrors > 0 || plan.dryRun))
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
                    guard plan.isNumberedAsRead, seedPlan.entities[index].hasKey,
                          checkedKeys.insert(plan.duplicateIndexKey(index)).inserted else { return nil }
                    return SharedKeyIndex()
                }
                let sourceCount = seedPlan.entities[group.entities[0]].sources.count
                for sourceIndex in 0..<sourceCount {
                    self.sourceIndex = sourceIndex
                    let first = seedPlan.entities[group.entities[0]].sources[sourceIndex]
                    let reader = try first.spec.openReader(relativeTo: plan.specDirectory)
                    reader.project(plan.projection(group, sourceIndex: sourceIndex, fieldCount: first.fieldNames.count, values: true))
                    // Per slot: the key's field when the key is one field (integer keys are checked without text).
                    singleKeyFields = cursors.map { cursor -> Int in
                        let keyFields = seedPlan.entities[cursor.entityIndex].sources[sourceIndex].keyFields
                        return keyFields.count == 1 ? keyFields[0] : -1
                    }
                    guard try reader.visitRows(&self, toleratingComputeFailures: producer.plan.maxErrors > 0 || producer.plan.dryRun) else { return }
                    if let computed = reader as? ComputedFieldsReader {
                        if computed.filtered > 0 { producer.filtered[first.name] = computed.filtered }
                        for (name, count) in computed.unmatchedJoinKeys where count > 0 { producer.unmatchedJoinKeys[name, default: 0] += count }
                    }
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
                let isNew = !cursor.numbers.isMatched(cursor.ordinal)
                let numbered = cursor.numbers.slots != nil || cursor.numbers.primaryKeys[cursor.ordinal] != 0
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

    /// Schedules record `cursor.ordinal`'s row: none, an update of the stored row it matches, or an insert.
    @inline(__always)
    private static func produceRow<Input: RowInput>(_ record: inout Input, plan: BuildPlan, sourceIndex: Int, cursor: inout Cursor,
                                                    batch: inout RowBatch, rejections: inout Rejections) throws {
        let ordinal = cursor.ordinal
        cursor.ordinal += 1
        let primaryKey = cursor.numbers.slots == nil ? cursor.numbers.primaryKeys[ordinal] : Int64(ordinal + 1)
        guard primaryKey != 0 else { return }
        if cursor.hasUnresolved {
            try reportUnresolved(try record.record(), plan: plan, unresolved: cursor.numbers.unresolved, knownKeys: cursor.knownKeys, ordinal: ordinal,
                                 entityIndex: cursor.entityIndex, sourceIndex: sourceIndex, rejections: &rejections)
        }
        if cursor.numbers.isMatched(ordinal) {
            // A row already in the store: update what changed, keep the rest.
            guard let update = cursor.updates[sourceIndex] else {
                cursor.unchanged += 1
                return
            }
            let count = try cursor.mappings[sourceIndex].map(&record, ordinal: ordinal, primaryKey: primaryKey, numbers: cursor.numbers, update: update.parameters,
                                        into: &batch, rejections: &rejections)
            batch.append(.integer(primaryKey))
            batch.rows.append((update.statement, Int32(count + 1)))
            return
        }
        let count = try cursor.mappings[sourceIndex].map(&record, ordinal: ordinal, primaryKey: primaryKey, numbers: cursor.numbers, update: nil,
                                    into: &batch, rejections: &rejections)
        batch.rows.append((cursor.insert, Int32(count)))
        cursor.produced += 1
    }

    private static func reportUnresolved(_ record: Record, plan: BuildPlan, unresolved: [Int32: [(link: Int, position: Int)]], knownKeys: KnownKeys?,
                                         ordinal: Int, entityIndex: Int, sourceIndex: Int, rejections: inout Rejections) throws {
        guard let pending = unresolved[Int32(ordinal)] else { return }
        let entity = plan.seedPlan.entities[entityIndex]
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
        let entity = plan.seedPlan.entities[entityIndex]
        let source = entity.sources[sourceIndex]
        guard entity.hasKey else { return }
        guard let key = NaturalKey.key(record.values, at: source.keyFields) else {
            try rejections.reject(Rejections.mappingError(record, fieldIndex: source.keyFields.first, field: entity.keyFieldName ?? "",
                                                          entity: entity.name, attribute: "key", failure: .noKey(entity: entity.name)))
            return
        }
        if !index.keys.insert(entity.comparedKey(key)) {
            try rejections.reject(Rejections.mappingError(
                record, fieldIndex: source.keyFields.first, field: entity.keyFieldName ?? "", entity: entity.name, attribute: "key",
                failure: .duplicateKey(NaturalKey.display(key), entity: entity.name, firstSeen: "")),
                repeating: .firstWithKey(entity: entityIndex, key))
        }
    }
}
