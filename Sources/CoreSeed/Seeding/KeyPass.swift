/// The key pass: reads every source once for its keys (and, when errors are tolerated, checks every
/// value), numbers the rows, then resolves relationships by natural key (`KeyPass+Links.swift`).
///
/// Its result — per entity the `Z_PK` of each record, the resolved to-one columns, the join rows —
/// is what the row pass writes.
struct KeyPass {
    let plan: BuildPlan
    /// The store an upsert or insert updates (a sync leaves out of its keys the rows it deletes).
    var existing: ExistingRows?
    /// Sync: every record's stored row is noted (`EntityState.storedSeen`), left out or not.
    var notesStoredRows = false
    let insertOnly: Bool
    var rejections: Rejections
    var states: [EntityState]
    var joinRows: [String: [JoinRow]] = [:]
    var joinSeen: [String: Set<JoinRow>] = [:]
    var orderCounters: [String: [Int64: Int64]] = [:]
    /// Per hierarchy root: the highest `Z_PK` issued.
    var maxPrimaryKeys: [String: Int64] = [:]
    /// Uniqueness constraints' values seen so far (when values are checked here).
    var uniqueness = UniquenessIndex()
    /// Per entity: the keys of records rejected for their values, and where they are (`KeyPass+Orphans`).
    var rejectedKeys: [Int: [LinkKey: (location: SourceLocation, key: String)]] = [:]
    private var candidateCache: [String: [Int]] = [:]
    /// The first destination row two sources list in a to-many without inverse: (the later source, the
    /// earlier source's `Z_PK`, the destination, the relationship).
    var hiddenKeyConflict: (Target, Int64, Target, String)?
    /// Whether resolution keeps each record's link keys (relationship rules may link again: `KeyPass+Rules`).
    var keepsLinkKeys = false
    /// Per "Entity.relationship": links dropped because their key matched no row (`onUnresolved`).
    var droppedLinks: [String: Int] = [:]

    var seedPlan: SeedPlan { plan.seedPlan }

    init(plan: BuildPlan, existing: ExistingRows?, insertOnly: Bool) {
        self.plan = plan
        self.existing = existing
        self.insertOnly = insertOnly
        self.rejections = Rejections(limit: plan.maxErrors, plan: plan)
        self.states = Array(repeating: EntityState(), count: plan.seedPlan.entities.count)
    }

    /// The pass's result for the row pass: per seeded entity, its records' numbers and to-one columns.
    var numbers: [EntityNumbers] { states.map(\.numbers) }

    /// Runs the whole pass: keys, numbers, links, join sources.
    mutating func run(progress: (@Sendable (String) -> Void)?) throws {
        try readKeys(progress: progress)
        try assignPrimaryKeys()
        try resolveLinks()
        try readJoinSources()
    }

    /// Reads every source once: validates values (when errors are tolerated), builds each entity's key
    /// index under its duplicate policy, and collects the destination keys of every field link. Fields
    /// are read in place where the reader shows them so (`RowInput`): a `Record` is made only for a value
    /// the fast path leaves alone, a key that is not an integer, or a message.
    mutating func readKeys(progress: (@Sendable (String) -> Void)?) throws {
        let validate = plan.maxErrors > 0 || plan.dryRun
        for group in plan.groups {
            var reading = Reading(pass: self, group: group, checks: validate ? ValueChecks(plan: plan, group: group) : nil,
                                  progress: progress)
            defer { reading.checks?.stop() }
            // Values are converted on the checks' thread: this one reads the fields it needs for keys,
            // links and uniqueness constraints.
            let values = validate && group.entities.contains { !seedPlan.entities[$0].uniqueness.isEmpty }
            let sourceCount = seedPlan.entities[group.entities[0]].sources.count
            for sourceIndex in 0..<sourceCount {
                let first = seedPlan.entities[group.entities[0]].sources[sourceIndex]
                let reader = try first.spec.openReader(relativeTo: plan.specDirectory)
                reader.project(plan.projection(group, sourceIndex: sourceIndex, fieldCount: first.fieldNames.count, values: values))
                reading.start(source: sourceIndex, name: first.name)
                do {
                    _ = try reader.visitRows(&reading, toleratingComputeFailures: validate)
                } catch {
                    self = reading.pass
                    throw error
                }
            }
            self = reading.pass
            for (slot, state) in reading.finish().enumerated() { states[group.entities[slot]] = state }
        }
    }

    /// The key pass for one record of one entity. `failures` are the record's failed values when values
    /// are checked (``ValueChecks``), nil when they are not; `indexShared` says the record's key is
    /// already in the index this entity shares (``IndexSharing`` put it there: a key not seen before).
    @inline(__always)
    mutating func readKeys<Input: RowInput>(_ input: inout Input, _ fields: KeyFields, sourceIndex: Int,
                                            failures: ArraySlice<ValueChecks.Failure>?, slot: Int, indexShared: Bool,
                                            state: inout EntityState) throws {
        let validate = failures != nil
        let index = fields.entityIndex
        let ordinal = state.count
        state.count += 1
        var keep = true
        if let field = fields.primaryKeyField {
            let chosen = try chosenPrimaryKey(&input, field: field, entity: seedPlan.entities[index])
            if chosen == 0 { keep = false }
            state.chosenPrimaryKeys.append(chosen)
        }
        if let failures {
            for failure in failures where failure.slot == slot {
                keep = false
                try rejections.reject(failure.error)
            }
            if !keep, fields.hasKey, let key = NaturalKey.key(try input.record().values, at: fields.source.keyFields) {
                rejectedKeys[index, default: [:]][LinkKey(seedPlan.entities[index].comparedKey(key))] = (try input.record().location, key)
            }
        }
        if fields.hasKey && keep && !indexShared {
            keep = try indexKey(&input, ordinal: ordinal, fields: fields, state: &state)
        }
        if validate && keep && fields.checksUniqueness {
            keep = try uniqueness.admit(try input.record(), entityIndex: index, sourceIndex: sourceIndex, ordinal: ordinal,
                                        plan: plan, rejections: &rejections)
        }
        if keep, let existing {
            let key = existing.storedKey(try input.record(), source: fields.source, reader: existing.keyReaders[index])
            let primaryKey = key.flatMap { existing.keys[index][LinkKey(seedPlan.entities[index].comparedKey($0))] } ?? 0
            if primaryKey != 0 && insertOnly {
                keep = false
                state.skippedExisting += 1
            }
            state.numbers.matched.append(primaryKey)
        } else if existing != nil {
            state.numbers.matched.append(0)
        }
        if notesStoredRows, let existing {
            if let matched = state.numbers.matched.last, matched != 0 {
                state.storedSeen.insert(matched)
            } else if !keep {
                // A left-out record still stands for its stored row: the sync must not delete it.
                if let key = existing.storedKey(try input.record(), source: fields.source, reader: existing.keyReaders[index]) {
                    if let primaryKey = existing.keys[index][LinkKey(seedPlan.entities[index].comparedKey(key))] { state.storedSeen.insert(primaryKey) }
                } else if state.unreadableLeftOut == nil {
                    state.unreadableLeftOut = try input.record().location
                }
            }
        }
        if !keep && !(insertOnly && state.numbers.matched.last ?? 0 != 0) { state.rejected += 1 }
        state.kept.append(keep)
        for link in fields.linkFields.indices {
            let linkFields = fields.linkFields[link]
            if linkFields.count == 1 {
                if fields.linkSeparators[link] == nil, let number = input.integerKey(field: linkFields[0]) {
                    state.linkKeys[link].append(integer: number)
                } else {
                    let keys = NaturalKey.keys(try input.record().values[linkFields[0]], separator: fields.linkSeparators[link])
                    state.linkKeys[link].append(seedPlan.entities[index].fieldLinks[link].normalizesKeys ? keys.map { KeyNormalization.compared($0, normalizes: true) } : keys)
                }
            } else {
                let key = NaturalKey.key(try input.record().values, at: linkFields)
                state.linkKeys[link].append(single: key.map { KeyNormalization.compared($0, normalizes: seedPlan.entities[index].fieldLinks[link].normalizesKeys) })
            }
        }
    }

    /// The record's `Z_PK` from its `primaryKey` field; 0 (and the record rejected) when it is not a
    /// positive integer.
    private mutating func chosenPrimaryKey<Input: RowInput>(_ input: inout Input, field: Int, entity: EntityPlan) throws -> Int64 {
        if let number = input.integerKey(field: field), number > 0 { return number }
        let record = try input.record()
        if let number = NaturalKey.integer(record.values[field]), number > 0 { return number }
        try rejections.reject(Rejections.mappingError(record, fieldIndex: field, field: entity.primaryKeyFieldName ?? "", entity: entity.name,
                                                      attribute: "primaryKey",
                                                      failure: CoercionFailure(.notA, expected: "Z_PK (a positive integer)", seen: record.values[field])))
        return 0
    }

    /// Adds the record's key to the index under the duplicate policy; false when the record gets no row.
    private mutating func indexKey<Input: RowInput>(_ input: inout Input, ordinal: Int, fields: KeyFields,
                                                    state: inout EntityState) throws -> Bool {
        if fields.singleKeyField >= 0, let number = input.integerKey(field: fields.singleKeyField) {
            guard let earlier = state.keyIndex[integer: number] else {
                state.keyIndex[integer: number] = Int32(ordinal)
                return true
            }
            return try keepDuplicate(&input, key: String(number), earlier: earlier, ordinal: ordinal, source: fields.source,
                                     entityIndex: fields.entityIndex, state: &state)
        }
        let source = fields.source, entity = seedPlan.entities[fields.entityIndex]
        let field = entity.keyFieldName ?? ""
        let key: String
        guard let text = NaturalKey.key(try input.record().values, at: source.keyFields) else {
            try rejections.reject(Rejections.mappingError(try input.record(), fieldIndex: source.keyFields.first, field: field,
                                                          entity: entity.name, attribute: "key", failure: .noKey(entity: entity.name)))
            return false
        }
        key = entity.comparedKey(text)
        guard let earlier = state.keyIndex[key] else {
            state.keyIndex[key] = Int32(ordinal)
            return true
        }
        return try keepDuplicate(&input, key: key, earlier: earlier, ordinal: ordinal, source: source,
                                 entityIndex: fields.entityIndex, state: &state)
    }

    /// A key seen before, at record `earlier`: the duplicate policy decides which record keeps it.
    private mutating func keepDuplicate<Input: RowInput>(_ input: inout Input, key: String, earlier: Int32, ordinal: Int,
                                                         source: SourcePlan, entityIndex: Int, state: inout EntityState) throws -> Bool {
        let entity = seedPlan.entities[entityIndex]
        switch entity.duplicatePolicy {
        case .error:
            try rejections.reject(Rejections.mappingError(
                try input.record(), fieldIndex: source.keyFields.first, field: entity.keyFieldName ?? "", entity: entity.name,
                attribute: "key", failure: .duplicateKey(NaturalKey.display(key), entity: entity.name, firstSeen: "")),
                repeating: .ordinal(entity: entityIndex, Int(earlier)))
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
    /// With `primaryKey`, a record keeps the `Z_PK` its field gives, unique within its hierarchy.
    mutating func assignPrimaryKeys() throws {
        var counters: [String: Int64] = existing?.maxPrimaryKeys ?? [:]
        var chosenBy: [String: [Int64: (entity: Int, ordinal: Int)]] = [:]
        for (index, entity) in seedPlan.entities.enumerated() {
            var counter = counters[entity.rootName] ?? 0
            if entity.keepsPrimaryKeys {
                let chosen = states[index].chosenPrimaryKeys
                for (ordinal, keep) in states[index].kept.enumerated() where keep {
                    if let earlier = chosenBy[entity.rootName, default: [:]].updateValue((index, ordinal), forKey: chosen[ordinal]) {
                        throw try duplicatePrimaryKey(chosen[ordinal], entity: index, ordinal: ordinal, earlier: earlier)
                    }
                    counter = max(counter, chosen[ordinal])
                }
            }
            let matched = states[index].numbers.matched
            let chosen = states[index].chosenPrimaryKeys
            states[index].numbers.primaryKeys = states[index].kept.enumerated().map { ordinal, keep in
                guard keep else { return 0 }
                if !chosen.isEmpty { return chosen[ordinal] }
                if !matched.isEmpty, matched[ordinal] != 0 { return matched[ordinal] }
                counter += 1
                return counter
            }
            states[index].chosenPrimaryKeys = []
            states[index].kept = []
            counters[entity.rootName] = counter
            let slots = entity.toOneSlots.count, count = states[index].count
            states[index].numbers.toOneKeys = Array(repeating: Array(repeating: 0, count: count), count: slots)
            // Entity numbers and order keys only for the slots whose table has those columns.
            let fills = entity.sources.flatMap(\.fills)
            let entityColumns = Set(fills.compactMap { if case .toOneEntity(let slot) = $0 { slot } else { nil } })
            let orderColumns = Set(fills.compactMap { if case .toOneOrder(let slot) = $0 { slot } else { nil } })
            states[index].numbers.toOneEntities = (0..<slots).map { entityColumns.contains($0) ? Array(repeating: 0, count: count) : [] }
            states[index].numbers.toOneOrders = (0..<slots).map { orderColumns.contains($0) ? Array(repeating: 0, count: count) : [] }
        }
        maxPrimaryKeys = counters
    }

    /// Two records of one hierarchy given the same `Z_PK` by `primaryKey`: not tolerated by
    /// `--max-errors` (both would be the same object).
    private func duplicatePrimaryKey(_ primaryKey: Int64, entity index: Int, ordinal: Int,
                                     earlier: (entity: Int, ordinal: Int)) throws -> MappingError {
        let entity = seedPlan.entities[index], first = seedPlan.entities[earlier.entity]
        let location = try plan.locate(entity: entity, ordinal: ordinal)
        let firstSeen = try plan.locate(entity: first, ordinal: earlier.ordinal)
        return MappingError(location: location, field: entity.primaryKeyFieldName ?? "", entity: entity.name, attribute: "primaryKey",
                            failure: CoercionFailure(.repeatedPrimaryKey(firstSeen: firstSeen.description), expected: first.name,
                                                     seen: .text(String(primaryKey))))
    }

    /// Seeded entities whose rows are `destination` rows: itself and its sub-entities.
    mutating func candidates(for destination: String) -> [Int] {
        if let cached = candidateCache[destination] { return cached }
        let result = BuildPlan.candidates(seedPlan, graph: plan.graph, for: destination)
        candidateCache[destination] = result
        return result
    }
}
