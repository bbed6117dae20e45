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
    /// else (in an upsert) a row already in the store.
    mutating func lookup(_ destination: String, _ key: String) -> Target? {
        let indexes = candidates(for: destination)
        for index in indexes {
            if let ordinal = states[index].keyIndex[key], states[index].primaryKeys[Int(ordinal)] != 0 {
                return Target(entity: index, ordinal: Int(ordinal), primaryKey: states[index].primaryKeys[Int(ordinal)])
            }
        }
        for index in indexes {
            if let primaryKey = existing?.keys[index][key] { return Target(entity: index, ordinal: nil, primaryKey: primaryKey) }
        }
        return nil
    }

    /// Resolves every field link (keys gathered in the first pass).
    mutating func resolveLinks() throws {
        for (index, entity) in mapping.entities.enumerated() {
            for (linkIndex, link) in entity.fieldLinks.enumerated() {
                let relationship = link.relationship
                let inverse = plan.graph.inverse(of: relationship, in: entity.name)
                let keys = states[index].linkKeys[linkIndex]
                for ordinal in 0..<states[index].count where states[index].primaryKeys[ordinal] != 0 {
                    for (position, key) in keys.keys(of: ordinal).enumerated() {
                        guard let target = lookup(relationship.destinationEntity, key) else {
                            if link.onUnresolved == .error {
                                states[index].unresolved[Int32(ordinal), default: []].append((linkIndex, key))
                            }
                            continue
                        }
                        let source = Target(entity: index, ordinal: ordinal, primaryKey: states[index].primaryKeys[ordinal])
                        try self.link(from: source, to: target, relationship: relationship,
                                 inverse: inverse, position: position)
                    }
                }
            }
            states[index].linkKeys = []  // no longer needed: free the memory before the second pass
        }
    }

    /// Records one link in the to-one columns of either side, or as a join row.
    mutating func link(from source: Target, to target: Target, relationship: Relationship, inverse: Relationship?, position: Int) throws {
        let sourceEntity = mapping.entities[source.entity], targetEntity = mapping.entities[target.entity]
        let sourceKey = source.primaryKey, targetKey = target.primaryKey
        if !relationship.isToMany {
            guard let ordinal = source.ordinal else { return }
            let slot = sourceEntity.toOneSlots.firstIndex(of: relationship.name)!
            states[source.entity].toOneKeys[slot][ordinal] = targetKey
            states[source.entity].toOneEntities[slot][ordinal] = Int32(targetEntity.number)
            if let inverse, inverse.isToMany, inverse.isOrdered {
                states[source.entity].toOneOrders[slot][ordinal] = nextOrder("\(target.entity).\(inverse.name)", targetKey)
            }
            // The inverse column of a row only in the existing store is left as it is.
            if let inverse, !inverse.isToMany, let targetOrdinal = target.ordinal,
               let inverseSlot = targetEntity.toOneSlots.firstIndex(of: inverse.name) {
                states[target.entity].toOneKeys[inverseSlot][targetOrdinal] = sourceKey
                states[target.entity].toOneEntities[inverseSlot][targetOrdinal] = Int32(sourceEntity.number)
            }
            return
        }
        guard let inverse else { return }
        if !inverse.isToMany {
            // One-to-many given from the to-many side: the key lives on the destination's to-one.
            guard let targetOrdinal = target.ordinal, let inverseSlot = targetEntity.toOneSlots.firstIndex(of: inverse.name) else { return }
            states[target.entity].toOneKeys[inverseSlot][targetOrdinal] = sourceKey
            states[target.entity].toOneEntities[inverseSlot][targetOrdinal] = Int32(sourceEntity.number)
            if relationship.isOrdered { states[target.entity].toOneOrders[inverseSlot][targetOrdinal] = Int64(position + 1) }
            return
        }
        // Many-to-many: a join row; A (the join table's first entity) may be either side.
        guard let owner = plan.graph.relationship(relationship.name, from: sourceEntity.name)?.owner.name,
              let join = mapping.layout.joinTables.first(where: {
                  ($0.firstEntity == owner && $0.firstRelationship == relationship.name)
                      || ($0.secondEntity == owner && $0.secondRelationship == relationship.name)
              }) else { return }
        let sourceIsFirst = join.firstEntity == owner && join.firstRelationship == relationship.name
        // The key column named after `relationship` is the second one when the source is the first entity.
        let relationshipColumn = sourceIsFirst ? join.secondColumn : join.firstColumn
        var orders: [Int64] = []
        for order in join.orderColumns {
            orders.append(order.orderedColumn == relationshipColumn
                          ? Int64(position + 1)
                          : nextOrder("\(join.name).\(order.name)", targetKey))
        }
        let row = JoinRow(first: sourceIsFirst ? sourceKey : targetKey, second: sourceIsFirst ? targetKey : sourceKey, orders: orders)
        if joinSeen[join.name, default: []].insert(row).inserted {
            joinRows[join.name, default: []].append(row)
        }
    }

    /// The next 1-based position in the ordered relationship `scope` of the row with key `key`.
    mutating func nextOrder(_ scope: String, _ key: Int64) -> Int64 {
        let next = (orderCounters[scope]?[key] ?? 0) + 1
        orderCounters[scope, default: [:]][key] = next
        return next
    }

    /// Reads each join source: every record links the row keyed by its `key` fields to the
    /// destination keyed by its `destinationKey` fields, in record order.
    mutating func readJoinSources() throws {
        for link in mapping.joinLinks {
            guard mapping.entities.contains(where: { $0.name == link.entity }) else { continue }
            let inverse = plan.graph.inverse(of: link.relationship, in: link.entity)
            var positions: [Int64: Int] = [:]
            let reader = try link.spec.openReader(relativeTo: plan.specDirectory)
            while let record = try reader.next() {
                let sourceKey = NaturalKey.key(record.values, at: link.keyFields)
                let targetKey = NaturalKey.key(record.values, at: link.destinationKeyFields)
                guard let sourceKey, let source = lookup(link.entity, sourceKey) else {
                    if link.onUnresolved == .error {
                        try rejections.reject(Rejections.mappingError(record, fieldIndex: link.keyFields.first, field: link.keyFieldName, entity: link.entity,
                                                attribute: link.relationship.name,
                                                failure: .unresolvedKey(sourceKey.map(NaturalKey.display) ?? "", destination: link.entity)))
                    }
                    continue
                }
                guard let targetKey, let target = lookup(link.relationship.destinationEntity, targetKey) else {
                    if link.onUnresolved == .error {
                        try rejections.reject(Rejections.mappingError(record, fieldIndex: link.destinationKeyFields.first, field: link.destinationKeyFieldName,
                                                entity: link.entity, attribute: link.relationship.name,
                                                failure: .unresolvedKey(targetKey.map(NaturalKey.display) ?? "",
                                                                        destination: link.relationship.destinationEntity)))
                    }
                    continue
                }
                let key = source.primaryKey
                let position = positions[key, default: 0]
                positions[key] = position + 1
                try self.link(from: source, to: target, relationship: link.relationship, inverse: inverse, position: position)
            }
        }
    }
}
