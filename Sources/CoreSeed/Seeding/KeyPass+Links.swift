/// Relationship resolution: natural keys → `Z_PK`s, both sides of every relationship.
extension KeyPass {
    /// A row found by key: which seeded entity, which record (nil for a row only in the existing
    /// store of an upsert), and its `Z_PK`.
    struct Target {
        let entity: Int
        let ordinal: Int?
        let primaryKey: Int64
    }

    /// The row of `destination` (or one of its sub-entities) whose key is `key`: a record of the input,
    /// else (in an upsert) a row already in the store. Rows of more than one candidate with the key
    /// throw ``AmbiguousKey`` unless exactly one of them is of a `preferred` candidate.
    func lookup(_ candidates: [Int], _ key: LinkKey, preferred: [Int] = []) throws(AmbiguousKey) -> Target? {
        var found: Target?, others: [Target] = []
        for index in candidates {
            guard let ordinal = states[index].keyIndex[key], states[index].numbers.primaryKeys[Int(ordinal)] != 0 else { continue }
            let target = Target(entity: index, ordinal: Int(ordinal), primaryKey: states[index].numbers.primaryKeys[Int(ordinal)])
            if found == nil { found = target } else { others.append(target) }
        }
        if let found {
            guard !others.isEmpty else { return found }
            let all = [found] + others
            let picked = all.filter { preferred.contains($0.entity) }
            if picked.count == 1 { return picked[0] }
            throw AmbiguousKey(targets: all)
        }
        guard let existing else { return nil }
        for index in candidates {
            if let primaryKey = existing.keys[index][key] { return Target(entity: index, ordinal: nil, primaryKey: primaryKey) }
        }
        return nil
    }

    /// A key that rows of more than one sub-entity of a destination have.
    struct AmbiguousKey: Error {
        let targets: [Target]
    }

    /// What linking along one relationship needs, worked out once per relationship instead of per link.
    struct LinkPlan {
        let relationship: Relationship
        let inverse: Relationship?
        /// Seeded entities whose rows the relationship may point at.
        let candidates: [Int]
        /// The candidates `prefer` names (it and its sub-entities).
        var preferred: [Int] = []
        /// The source entity's to-one slot for the relationship (to-one only).
        let slot: Int?
        /// Per seeded entity index: its to-one slot for the inverse (to-one inverses only), or for the
        /// hidden key of a to-many without inverse.
        let inverseSlots: [Int: Int]
        /// A to-many without inverse: the destination rows hold the source's `Z_PK` in a hidden key.
        let isHiddenKey: Bool
        /// The join table of a many-to-many relationship, and whether the source is its first entity.
        let join: (table: StoreLayout.JoinTable, sourceIsFirst: Bool)?
    }

    mutating func linkPlan(entity: Int, relationship: Relationship, prefer: String? = nil) -> LinkPlan {
        let source = seedPlan.entities[entity]
        let inverse = plan.graph.inverse(of: relationship, in: source.name)
        let candidates = candidates(for: relationship.destinationEntity)
        var inverseSlots: [Int: Int] = [:]
        let owner = plan.graph.relationship(relationship.name, from: source.name)?.owner.name ?? source.name
        let isHiddenKey = relationship.isToMany && inverse == nil
        if let inverse, !inverse.isToMany {
            for index in candidates {
                if let slot = seedPlan.entities[index].toOneSlots.firstIndex(of: inverse.name) { inverseSlots[index] = slot }
            }
        } else if isHiddenKey {
            let name = EntityPlan.hiddenKeySlot(source: owner, relationship: relationship.name)
            for index in candidates {
                if let slot = seedPlan.entities[index].toOneSlots.firstIndex(of: name) { inverseSlots[index] = slot }
            }
        }
        var join: (StoreLayout.JoinTable, Bool)?
        if relationship.isToMany, inverse?.isToMany == true,
           let table = seedPlan.layout.joinTables.first(where: {
               ($0.firstEntity == owner && $0.firstRelationship == relationship.name)
                   || ($0.secondEntity == owner && $0.secondRelationship == relationship.name)
           }) {
            join = (table, table.firstEntity == owner && table.firstRelationship == relationship.name)
        }
        let preferred = preferredCandidates(prefer, among: candidates)
        return LinkPlan(relationship: relationship, inverse: inverse, candidates: candidates, preferred: preferred,
                        slot: relationship.isToMany ? nil : source.toOneSlots.firstIndex(of: relationship.name)!,
                        inverseSlots: inverseSlots, isHiddenKey: isHiddenKey, join: join)
    }

    /// Resolves every field link (keys gathered in the first pass).
    mutating func resolveLinks() throws {
        for (index, entity) in seedPlan.entities.enumerated() {
            for (linkIndex, link) in entity.fieldLinks.enumerated() {
                let linking = linkPlan(entity: index, relationship: link.relationship, prefer: link.prefer)
                let keys = states[index].linkKeys[linkIndex]
                let sameRecord = sameRecordDestination(entity: index, link: linkIndex, candidates: linking.candidates)
                for ordinal in 0..<states[index].count where states[index].numbers.primaryKeys[ordinal] != 0 {
                    let source = Target(entity: index, ordinal: ordinal, primaryKey: states[index].numbers.primaryKeys[ordinal])
                    // A destination record with a row is the one its own key finds: record `ordinal` (no look-up).
                    if let destination = sameRecord, states[destination].numbers.primaryKeys[ordinal] != 0 {
                        let target = Target(entity: destination, ordinal: ordinal, primaryKey: states[destination].numbers.primaryKeys[ordinal])
                        self.link(from: source, to: target, linking, position: 0)
                        continue
                    }
                    // A dropped key leaves no gap: positions count the links made (verify expects 1…n).
                    var linked = 0
                    for (position, key) in keys.keys(of: ordinal).enumerated() {
                        let found: Target?
                        do throws(AmbiguousKey) { found = try lookup(linking.candidates, key, preferred: linking.preferred) } catch {
                            throw try ambiguity(error, from: source, relationship: link.relationship, link: linkIndex)
                        }
                        guard let target = found else {
                            // A key of a record rejected for its values: that rejection was reported.
                            let rejected = linking.candidates.contains { rejectedKeys[$0]?[key] != nil }
                            if link.onUnresolved == .error && !rejected {
                                states[index].numbers.unresolved[Int32(ordinal), default: []].append((linkIndex, position))
                            } else if !rejected {
                                droppedLinks["\(entity.name).\(link.relationship.name)", default: 0] += 1
                            }
                            continue
                        }
                        self.link(from: source, to: target, linking, position: linked)
                        linked += 1
                    }
                }
            }
            // No longer needed: free the memory before the second pass (kept while rules may link again).
            if !keepsLinkKeys { states[index].linkKeys = [] }
        }
    }

    /// A destination row two source rows list in a to-many without inverse: Core Data keeps one source
    /// per destination row (its hidden key), so the build names both records and stops.
    func checkHiddenKeyConflict() throws {
        guard let (second, firstKey, target, relationship) = hiddenKeyConflict else { return }
        let sourceEntities = candidates(ofSource: second.entity)
        guard let first = sourceEntities.lazy.compactMap({ index in
                  self.states[index].numbers.primaryKeys.firstIndex(of: firstKey).map { (index, $0) } }).first,
              let secondOrdinal = second.ordinal, let targetOrdinal = target.ordinal else { return }
        let source = seedPlan.entities[second.entity], destination = seedPlan.entities[target.entity]
        let firstSeen = try plan.locate(entity: seedPlan.entities[first.0], ordinal: first.1)
        let secondSeen = try plan.locate(entity: source, ordinal: secondOrdinal)
        let targetSeen = try plan.locate(entity: destination, ordinal: targetOrdinal)
        throw FileError(path: plan.seedPlan.spec.path, message: "entities.\(source.name).relationships.\(relationship): the \(destination.name) record at \(targetSeen) is listed by the \(seedPlan.entities[first.0].name) records at \(firstSeen) and \(secondSeen); '\(relationship)' has no inverse, so Core Data keeps one \(source.name) per \(destination.name) (a hidden key on its row): list each \(destination.name) once, or give the relationship an inverse")
    }

    /// The seeded entities that share `index`'s hierarchy (a source row's `Z_PK` is unique there).
    private func candidates(ofSource index: Int) -> [Int] {
        let root = seedPlan.entities[index].rootName
        return seedPlan.entities.indices.filter { seedPlan.entities[$0].rootName == root }
    }

    /// The one destination entity whose record `i` holds the key that record `i` of `entity` names
    /// along `link`, for every `i`: both read from the same records (one source group), the link's
    /// fields are the destination's key fields, one key a record. A destination record that has a row
    /// is the record its key maps to (a later one with the key has no row, or took the key and the
    /// row), so record `i` with a row is what looking up record `i`'s key finds. Nil when any of that
    /// fails: keys are then looked up.
    func sameRecordDestination(entity index: Int, link linkIndex: Int, candidates: [Int]) -> Int? {
        guard candidates.count == 1, let destination = candidates.first, states[destination].count == states[index].count,
              plan.groups.contains(where: { $0.entities.contains(index) && $0.entities.contains(destination) }) else { return nil }
        let entity = seedPlan.entities[index], target = seedPlan.entities[destination]
        guard entity.fieldLinks[linkIndex].separator == nil, target.hasKey,
              zip(entity.sources, target.sources).allSatisfy({ $0.linkFields[linkIndex] == $1.keyFields }) else { return nil }
        return destination
    }

    /// Records one link in the to-one columns of either side, or as a join row.
    mutating func link(from source: Target, to target: Target, _ linking: LinkPlan, position: Int) {
        let sourceKey = source.primaryKey, targetKey = target.primaryKey
        let relationship = linking.relationship, inverse = linking.inverse
        if let slot = linking.slot {
            guard let ordinal = source.ordinal else { return }
            states[source.entity].numbers.toOneKeys[slot][ordinal] = targetKey
            setEntity(target.entity, entity: source.entity, slot: slot, ordinal: ordinal)
            if let inverse, inverse.isToMany, inverse.isOrdered, !states[source.entity].numbers.toOneOrders[slot].isEmpty {
                states[source.entity].numbers.toOneOrders[slot][ordinal] = memberOrder("\(target.entity).\(inverse.name)", owner: targetKey,
                                                                               entity: source.entity, slot: slot, member: sourceKey)
            }
            // The inverse column of a row only in the existing store is left as it is.
            if let targetOrdinal = target.ordinal, let inverseSlot = linking.inverseSlots[target.entity] {
                states[target.entity].numbers.toOneKeys[inverseSlot][targetOrdinal] = sourceKey
                setEntity(source.entity, entity: target.entity, slot: inverseSlot, ordinal: targetOrdinal)
            }
            return
        }
        if linking.isHiddenKey {
            // A to-many without inverse: the destination row keeps one source (its hidden key), as a to-one would.
            guard let targetOrdinal = target.ordinal, let slot = linking.inverseSlots[target.entity] else { return }
            let claimed = states[target.entity].numbers.toOneKeys[slot][targetOrdinal]
            if claimed != 0, claimed != sourceKey {
                if hiddenKeyConflict == nil { hiddenKeyConflict = (source, claimed, target, relationship.name) }
                return
            }
            states[target.entity].numbers.toOneKeys[slot][targetOrdinal] = sourceKey
            setEntity(source.entity, entity: target.entity, slot: slot, ordinal: targetOrdinal)
            if relationship.isOrdered, !states[target.entity].numbers.toOneOrders[slot].isEmpty {
                states[target.entity].numbers.toOneOrders[slot][targetOrdinal] = listedOrder(position, owner: sourceKey, entity: target.entity,
                                                                                     slot: slot, member: targetKey)
            }
            return
        }
        guard let inverse else { return }
        if !inverse.isToMany {
            // One-to-many given from the to-many side: the key lives on the destination's to-one.
            guard let targetOrdinal = target.ordinal, let inverseSlot = linking.inverseSlots[target.entity] else { return }
            states[target.entity].numbers.toOneKeys[inverseSlot][targetOrdinal] = sourceKey
            setEntity(source.entity, entity: target.entity, slot: inverseSlot, ordinal: targetOrdinal)
            if relationship.isOrdered, !states[target.entity].numbers.toOneOrders[inverseSlot].isEmpty {
                states[target.entity].numbers.toOneOrders[inverseSlot][targetOrdinal] = listedOrder(position, owner: sourceKey, entity: target.entity,
                                                                                            slot: inverseSlot, member: targetKey)
            }
            return
        }
        // Many-to-many: a join row; A (the join table's first entity) may be either side.
        guard let (join, sourceIsFirst) = linking.join else { return }
        // The key column named after `relationship` is the second one when the source is the first entity.
        let relationshipColumn = sourceIsFirst ? join.secondColumn : join.firstColumn
        let first = sourceIsFirst ? sourceKey : targetKey, second = sourceIsFirst ? targetKey : sourceKey
        if let stored = existing?.joins[join.name] {
            // An upsert: a stored pair stays as it is; a new one follows the owner's stored members.
            guard !stored.pairs.contains(StoredJoinRows.Pair(first: first, second: second)),
                  !(joinSeen[join.name]?.contains(JoinRow(first: first, second: second, orders: [])) ?? false) else { return }
            let orders = join.orderColumns.map { order in
                let owner = StoredJoinRows.owner(order, in: join, first: first, second: second)
                return nextOrder("\(join.name).\(order.name)", owner, after: stored.highest[order.name]?[owner] ?? 0)
            }
            let row = JoinRow(first: first, second: second, orders: orders)
            joinSeen[join.name, default: []].insert(row)
            joinRows[join.name, default: []].append(row)
            return
        }
        var orders: [Int64] = []
        for order in join.orderColumns {
            orders.append(order.orderedColumn == relationshipColumn
                          ? Int64(position + 1)
                          : nextOrder("\(join.name).\(order.name)", targetKey))
        }
        let row = JoinRow(first: first, second: second, orders: orders)
        if joinSeen[join.name, default: []].insert(row).inserted {
            joinRows[join.name, default: []].append(row)
        }
    }

    /// Records that `entity`'s record `ordinal` points along to-one `slot` at a row of seeded entity
    /// `destination`, when its table has the column for the destination's entity number.
    private mutating func setEntity(_ destination: Int, entity: Int, slot: Int, ordinal: Int) {
        guard !states[entity].numbers.toOneEntities[slot].isEmpty else { return }
        states[entity].numbers.toOneEntities[slot][ordinal] = Int32(seedPlan.entities[destination].number)
    }

    /// The next 1-based position in the ordered relationship `scope` of the row with key `key`.
    mutating func nextOrder(_ scope: String, _ key: Int64, after stored: Int64 = 0) -> Int64 {
        let next = (orderCounters[scope]?[key] ?? stored) + 1
        orderCounters[scope, default: [:]][key] = next
        return next
    }

    /// Reads each join source: every record links the row keyed by its `key` fields to the
    /// destination keyed by its `destinationKey` fields, in record order.
    mutating func readJoinSources() throws {
        for link in seedPlan.joinLinks {
            guard seedPlan.entities.contains(where: { $0.name == link.entity }) else { continue }
            var plans: [Int: LinkPlan] = [:]
            let sources = candidates(for: link.entity), targets = candidates(for: link.relationship.destinationEntity)
            let preferred = preferredCandidates(link.prefer, among: targets)
            var positions: [Int64: Int] = [:]
            let reader = try link.spec.openReader(relativeTo: plan.specDirectory)
            while let record = try reader.next() {
                let sourceKey = NaturalKey.key(record.values, at: link.keyFields)
                let targetKey = NaturalKey.key(record.values, at: link.destinationKeyFields)
                let source: Target?, target: Target?
                do throws(AmbiguousKey) {
                    source = if let sourceKey { try lookup(sources, LinkKey(KeyNormalization.compared(sourceKey, normalizes: link.normalizesKeys))) } else { nil }
                    target = if let targetKey { try lookup(targets, LinkKey(KeyNormalization.compared(targetKey, normalizes: link.normalizesDestinationKeys)), preferred: preferred) } else { nil }
                } catch {
                    throw try ambiguity(error, record: record, entity: link.entity, relationship: link.relationship)
                }
                guard let source else {
                    if link.onUnresolved != .error { droppedLinks["\(link.entity).\(link.relationship.name)", default: 0] += 1 }
                    if link.onUnresolved == .error {
                        try rejections.reject(Rejections.mappingError(record, fieldIndex: link.keyFields.first, field: link.keyFieldName, entity: link.entity,
                                                attribute: link.relationship.name,
                                                failure: .unresolvedKey(sourceKey.map(NaturalKey.display) ?? "", destination: link.entity,
                                                                        note: normalizationNote(sourceKey, sources))))
                    }
                    continue
                }
                guard let target else {
                    if link.onUnresolved != .error { droppedLinks["\(link.entity).\(link.relationship.name)", default: 0] += 1 }
                    if link.onUnresolved == .error {
                        try rejections.reject(Rejections.mappingError(record, fieldIndex: link.destinationKeyFields.first, field: link.destinationKeyFieldName,
                                                entity: link.entity, attribute: link.relationship.name,
                                                failure: .unresolvedKey(targetKey.map(NaturalKey.display) ?? "",
                                                                        destination: link.relationship.destinationEntity,
                                                                        note: normalizationNote(targetKey, targets))))
                    }
                    continue
                }
                let key = source.primaryKey
                let position = positions[key, default: 0]
                positions[key] = position + 1
                if plans[source.entity] == nil { plans[source.entity] = linkPlan(entity: source.entity, relationship: link.relationship) }
                self.link(from: source, to: target, plans[source.entity]!, position: position)
            }
        }
        try checkHiddenKeyConflict()
    }
}
