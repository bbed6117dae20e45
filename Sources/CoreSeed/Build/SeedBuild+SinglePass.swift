/// The streaming plan: when every relationship links rows made from the same record (the tutorial's
/// one-to-one from one list: `FailedBankInfo.details` keyed by the same "CERT #" as `FailedBankDetails`),
/// no first pass is needed. Rows are numbered as they are read, links are derived from the record
/// number, and duplicate keys are caught while the rows are written (the build then fails as usual).
extension SeedBuild {
    /// Where a to-one column's value comes from in the streaming plan.
    enum SlotSource {
        /// No link feeds it: NULL.
        case none
        /// The row of the same record in `entity` (a seeded entity numbered 1, 2, … by record).
        case sameRecord(entityNumber: Int64)
    }

    /// Per seeded entity and to-one slot, where its values come from; nil when the streaming plan
    /// does not apply and the build needs its first pass.
    func streamingSlots() -> [[SlotSource]]? {
        guard existing == nil, options.maxErrors == 0, !options.dryRun, plan.joinLinks.isEmpty else { return nil }
        let groups = sourceGroups
        var groupOf: [Int: Int] = [:]
        for (number, group) in groups.enumerated() { for index in group.entities { groupOf[index] = number } }
        // Each seeded entity must be alone in its hierarchy, so that its rows are numbered 1, 2, … by record.
        let roots = plan.entities.map(\.rootName)
        guard Set(roots).count == roots.count else { return nil }
        var slots = plan.entities.map { Array(repeating: SlotSource.none, count: $0.toOneSlots.count) }
        for (index, entity) in plan.entities.enumerated() {
            if entity.hasKey && entity.duplicatePolicy != .error { return nil }
            for (linkIndex, link) in entity.fieldLinks.enumerated() {
                let relationship = link.relationship
                guard !relationship.isToMany, link.separator == nil else { return nil }
                let targets = candidates(for: relationship.destinationEntity)
                guard targets.count == 1, let target = targets.first, groupOf[target] == groupOf[index] else { return nil }
                let destination = plan.entities[target]
                guard destination.hasKey,
                      zip(entity.sources, destination.sources).allSatisfy({ $0.linkFields[linkIndex] == $1.keyFields }) else { return nil }
                let inverse = graph.inverse(of: relationship, in: entity.name)
                if let inverse, inverse.isToMany && inverse.isOrdered { return nil }
                slots[index][entity.toOneSlots.firstIndex(of: relationship.name)!] = .sameRecord(entityNumber: Int64(destination.number))
                if let inverse, !inverse.isToMany, let inverseSlot = destination.toOneSlots.firstIndex(of: inverse.name) {
                    slots[target][inverseSlot] = .sameRecord(entityNumber: Int64(entity.number))
                }
            }
        }
        return slots
    }

    /// In the streaming plan, a second record with a key already seen fails the build (the only policy
    /// it runs with is `error`). Entities fed by the same sources with the same key share one index.
    /// Entities of one source group see the same records: those keyed by the same fields (the same
    /// `duplicateIndexKey`) share one index.
    func duplicateIndexKey(_ entityIndex: Int) -> [Int] {
        plan.entities[entityIndex].sources.flatMap { $0.keyFields + [-1] }
    }

    /// A key index that entities share by reference (no copy-on-write of a large table).
    final class SharedKeyIndex {
        var keys = KeySet()
    }

    func checkDuplicate(_ record: Record, ordinal: Int, entityIndex: Int, sourceIndex: Int, index: SharedKeyIndex) throws {
        let entity = plan.entities[entityIndex]
        let source = entity.sources[sourceIndex]
        guard entity.hasKey else { return }
        guard let key = NaturalKey.key(record.values, at: source.keyFields) else {
            try reject(mappingError(record, fieldIndex: source.keyFields.first, field: entity.keyFieldName ?? "", entity: entity.name,
                                    attribute: "key", failure: .required(.null, type: .string)))
            return
        }
        if !index.keys.insert(key) {
            let firstSeen = try locateFirst(key: key, entity: entity)
            try reject(mappingError(record, fieldIndex: source.keyFields.first, field: entity.keyFieldName ?? "", entity: entity.name,
                                    attribute: "key", failure: .duplicateKey(NaturalKey.display(key), entity: entity.name,
                                                                              firstSeen: firstSeen.description)))
            return
        }
    }

    /// Where `key` first appears in `entity`'s records (error paths only: reads the sources again).
    func locateFirst(key: String, entity: EntityPlan) throws -> SourceLocation {
        for source in entity.sources {
            let reader = try source.spec.openReader(relativeTo: specDirectory)
            while let record = try reader.next() {
                if NaturalKey.key(record.values, at: source.keyFields) == key { return record.location }
            }
        }
        return SourceLocation(file: entity.name)
    }
}
