/// A key that rows of more than one sub-entity of an abstract (or parent) destination have: Core Data
/// would link one object, and which is a decision of the spec (`prefer`), so the build names the
/// records and stops (not tolerated by `--max-errors`: no record is at fault).
extension KeyPass {
    /// The candidates that `prefer` names: the entity and its seeded sub-entities.
    func preferredCandidates(_ prefer: String?, among candidates: [Int]) -> [Int] {
        guard let prefer else { return [] }
        return candidates.filter { plan.graph.lineage(seedPlan.entities[$0].name).contains { $0.name == prefer } }
    }

    /// The error for a field link of record `source` whose key several destination rows have.
    func ambiguity(_ ambiguous: AmbiguousKey, from source: Target, relationship: Relationship, link: Int) throws -> FileError {
        let entity = seedPlan.entities[source.entity]
        let location = try source.ordinal.map { try plan.locate(entity: entity, ordinal: $0).description } ?? entity.name
        return try ambiguity(ambiguous, what: "the \(entity.name) record at \(location)", entity: entity.name, relationship: relationship)
    }

    /// The error for a join source record whose destination key several destination rows have.
    func ambiguity(_ ambiguous: AmbiguousKey, record: Record, entity: String, relationship: Relationship) throws -> FileError {
        try ambiguity(ambiguous, what: "the join record at \(record.location)", entity: entity, relationship: relationship)
    }

    private func ambiguity(_ ambiguous: AmbiguousKey, what: String, entity: String, relationship: Relationship) throws -> FileError {
        var rows: [String] = [], key = ""
        for target in ambiguous.targets {
            let destination = seedPlan.entities[target.entity]
            guard let ordinal = target.ordinal else { continue }
            let (record, sourceIndex) = try locateRecord(entity: destination, ordinal: ordinal)
            if key.isEmpty, let record, let text = NaturalKey.key(record.values, at: destination.sources[sourceIndex].keyFields) {
                key = NaturalKey.display(text)
            }
            rows.append("\(destination.name) (\(record?.location.description ?? destination.name))")
        }
        let names = ambiguous.targets.map { seedPlan.entities[$0.entity].name }
        return FileError(path: seedPlan.spec.path, message: "entities.\(entity).relationships.\(relationship.name): \(what) names '\(key)', the key of rows of more than one sub-entity of \(relationship.destinationEntity): \(rows.joined(separator: " and ")); Core Data links one object: give \"prefer\": \"\(names[0])\" (or \(names.dropFirst().map { "\"\($0)\"" }.joined(separator: ", "))) on the relationship, or make the keys distinct")
    }

    /// Record `ordinal` of `entity` and the index of its source (error paths only: reads the sources again).
    private func locateRecord(entity: EntityPlan, ordinal: Int) throws -> (Record?, Int) {
        var seen = 0
        for (sourceIndex, source) in entity.sources.enumerated() {
            let reader = try source.spec.openReader(relativeTo: plan.specDirectory)
            while let record = try reader.next() {
                if seen == ordinal { return (record, sourceIndex) }
                seen += 1
            }
        }
        return (nil, 0)
    }
}
