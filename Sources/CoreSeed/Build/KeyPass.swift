/// The key pass: reads every source once for its keys (and, when errors are tolerated, checks every
/// value), numbers the rows, then resolves relationships by natural key (`KeyPass+Links.swift`).
///
/// Its result — per entity the `Z_PK` of each record, the resolved to-one columns, the join rows —
/// is what the row pass writes.
struct KeyPass {
    let plan: BuildPlan
    /// The store an upsert or insert updates.
    let existing: ExistingRows?
    let insertOnly: Bool
    var rejections: Rejections
    var states: [EntityState]
    var joinRows: [String: [JoinRow]] = [:]
    var joinSeen: [String: Set<JoinRow>] = [:]
    var orderCounters: [String: [Int64: Int64]] = [:]
    /// Per hierarchy root: the highest `Z_PK` issued.
    var maxPrimaryKeys: [String: Int64] = [:]
    private var candidateCache: [String: [Int]] = [:]

    var mapping: SeedPlan { plan.mapping }

    init(plan: BuildPlan, existing: ExistingRows?, insertOnly: Bool) {
        self.plan = plan
        self.existing = existing
        self.insertOnly = insertOnly
        self.rejections = Rejections(limit: plan.maxErrors)
        self.states = Array(repeating: EntityState(), count: plan.mapping.entities.count)
    }

    /// Runs the whole pass: keys, numbers, links, join sources.
    mutating func run(progress: (@Sendable (String) -> Void)?) throws {
        try readKeys(progress: progress)
        assignPrimaryKeys()
        try resolveLinks()
        try readJoinSources()
    }

    /// Reads every source once: validates values (when errors are tolerated), builds each entity's key
    /// index under its duplicate policy, and collects the destination keys of every field link.
    mutating func readKeys(progress: (@Sendable (String) -> Void)?) throws {
        let validate = plan.maxErrors > 0 || plan.dryRun
        for group in plan.groups {
            var locals = group.entities.map { index in
                var state = EntityState()
                state.linkKeys = Array(repeating: LinkKeys(), count: mapping.entities[index].fieldLinks.count)
                return state
            }
            let sourceCount = mapping.entities[group.entities[0]].sources.count
            for sourceIndex in 0..<sourceCount {
                let first = mapping.entities[group.entities[0]].sources[sourceIndex]
                let reader = try first.spec.openReader(relativeTo: plan.specDirectory)
                reader.project(plan.projection(group, sourceIndex: sourceIndex, fieldCount: first.fieldNames.count, values: validate))
                var read = 0
                while let record = try reader.next() {
                    for (slot, index) in group.entities.enumerated() {
                        try readKeys(record, entityIndex: index, source: mapping.entities[index].sources[sourceIndex],
                                     validate: validate, state: &locals[slot])
                    }
                    read += 1
                    if read & 0xFFFF == 0 { progress?("\(first.name): \(read) records read") }
                }
            }
            for (slot, index) in group.entities.enumerated() { states[index] = locals[slot] }
        }
    }

    /// The key pass for one record of one entity.
    @inline(__always)
    private mutating func readKeys(_ record: Record, entityIndex index: Int, source: SourcePlan, validate: Bool,
                                   state: inout EntityState) throws {
        let entity = mapping.entities[index]
        let ordinal = state.count
        state.count += 1
        var keep = true
        if validate {
            for fill in source.fills {
                guard case .attribute(let attribute) = fill else { continue }
                do {
                    _ = try attribute.value(record)
                } catch {
                    keep = false
                    try rejections.reject(Rejections.mappingError(record, fieldIndex: attribute.fieldIndex, field: attribute.fieldName,
                                                                  entity: entity.name, attribute: attribute.attribute.name, failure: error))
                }
            }
        }
        if entity.hasKey && keep {
            keep = try indexKey(record, ordinal: ordinal, source: source, entity: entity, state: &state)
        }
        if keep, let existing {
            let key = existing.storedKey(record, source: source, reader: existing.keyReaders[index])
            let primaryKey = key.flatMap { existing.keys[index][$0] } ?? 0
            if primaryKey != 0 && insertOnly {
                keep = false
                state.skippedExisting += 1
            }
            state.existingPrimaryKeys.append(primaryKey)
        } else if existing != nil {
            state.existingPrimaryKeys.append(0)
        }
        if !keep && !(insertOnly && state.existingPrimaryKeys.last ?? 0 != 0) { state.rejected += 1 }
        state.kept.append(keep)
        for (link, fields) in zip(entity.fieldLinks.indices, source.linkFields) {
            if fields.count == 1 {
                state.linkKeys[link].append(NaturalKey.keys(record.values[fields[0]], separator: entity.fieldLinks[link].separator))
            } else {
                state.linkKeys[link].append(single: NaturalKey.key(record.values, at: fields))
            }
        }
    }

    /// Adds the record's key to the index under the duplicate policy; false when the record gets no row.
    private mutating func indexKey(_ record: Record, ordinal: Int, source: SourcePlan, entity: EntityPlan,
                                   state: inout EntityState) throws -> Bool {
        let field = entity.keyFieldName ?? ""
        guard let key = NaturalKey.key(record.values, at: source.keyFields) else {
            try rejections.reject(Rejections.mappingError(record, fieldIndex: source.keyFields.first, field: field, entity: entity.name,
                                                          attribute: "key", failure: .required(.null, type: .string)))
            return false
        }
        guard let earlier = state.keyIndex[key] else {
            state.keyIndex[key] = Int32(ordinal)
            return true
        }
        switch entity.duplicatePolicy {
        case .error:
            let firstSeen = try plan.locate(entity: entity, ordinal: Int(earlier))
            try rejections.reject(Rejections.mappingError(
                record, fieldIndex: source.keyFields.first, field: field, entity: entity.name, attribute: "key",
                failure: .duplicateKey(NaturalKey.display(key), entity: entity.name, firstSeen: firstSeen.description)))
            return false
        case .first:
            return false
        case .last:
            state.kept[Int(earlier)] = false
            state.rejected += 1
            state.keyIndex[key] = Int32(ordinal)
            return true
        }
    }

    /// Numbers the kept records: one counter per hierarchy root, entities in `Z_ENT` order; a record
    /// matching a stored row keeps that row's `Z_PK`.
    mutating func assignPrimaryKeys() {
        var counters: [String: Int64] = existing?.maxPrimaryKeys ?? [:]
        for (index, entity) in mapping.entities.enumerated() {
            var counter = counters[entity.rootName] ?? 0
            let matched = states[index].existingPrimaryKeys
            states[index].primaryKeys = states[index].kept.enumerated().map { ordinal, keep in
                guard keep else { return 0 }
                if !matched.isEmpty, matched[ordinal] != 0 { return matched[ordinal] }
                counter += 1
                return counter
            }
            states[index].kept = []
            counters[entity.rootName] = counter
            let slots = entity.toOneSlots.count, count = states[index].count
            states[index].toOneKeys = Array(repeating: Array(repeating: 0, count: count), count: slots)
            states[index].toOneEntities = Array(repeating: Array(repeating: 0, count: count), count: slots)
            states[index].toOneOrders = Array(repeating: Array(repeating: 0, count: count), count: slots)
        }
        maxPrimaryKeys = counters
    }

    /// Seeded entities whose rows are `destination` rows: itself and its sub-entities.
    mutating func candidates(for destination: String) -> [Int] {
        if let cached = candidateCache[destination] { return cached }
        let result = BuildPlan.candidates(mapping, graph: plan.graph, for: destination)
        candidateCache[destination] = result
        return result
    }
}
