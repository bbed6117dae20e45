/// The model's relationship rules, which Core Data checks when it saves an object: a non-optional
/// to-one must point at a row; a to-many must have between `minCount` and `maxCount` rows (an empty
/// optional to-many is valid whatever its `minCount`, as Core Data's validation skips an empty
/// optional relationship; a non-optional to-many needs at least one). Checked after linking, each
/// broken rule an error at the record's location. Under `--max-errors` the record is left out, the
/// records whose to-one names it with it (`leaveOutOrphans`), and everything is numbered and linked
/// again without them (a left-out row may have been what another record's count counted).
/// A model without such rules costs nothing here. In an update (`--into`), records matching a stored
/// row are checked for their to-ones only where the input sets them; counts are checked on new rows.
extension KeyPass {
    /// One rule of one seeded entity.
    struct RelationshipRule {
        let entity: Int
        let relationship: Relationship
        /// The to-one slot (to-one rules), nil for a to-many.
        let slot: Int?
    }

    /// The rules the seeded entities' relationships carry.
    func relationshipRules() -> [RelationshipRule] {
        var rules: [RelationshipRule] = []
        for (index, entity) in seedPlan.entities.enumerated() where states[index].count > 0 {
            for owner in plan.graph.lineage(entity.name) {
                for relationship in owner.relationships where !relationship.isTransient {
                    if relationship.hasCountRule {
                        rules.append(RelationshipRule(entity: index, relationship: relationship, slot: nil))
                    } else if !relationship.isToMany, !relationship.isOptional, let slot = entity.toOneSlots.firstIndex(of: relationship.name) {
                        rules.append(RelationshipRule(entity: index, relationship: relationship, slot: slot))
                    }
                }
            }
        }
        return rules
    }

    /// Numbers the rows, resolves every link and reads the join sources; then checks the relationship
    /// rules, leaving out (when tolerated) the records that break one and linking again.
    mutating func numberAndLink() throws {
        let rules = relationshipRules()
        let tolerant = !rules.isEmpty && (plan.maxErrors > 0 || plan.dryRun)
        keepsLinkKeys = tolerant
        while true {
            let saved = tolerant ? states.map { ($0.kept, $0.chosenPrimaryKeys) } : []
            try assignPrimaryKeys()
            try resolveLinks()
            try readJoinSources()
            let broken = try brokenRules(rules)
            guard !broken.isEmpty else { break }
            var leftOut: [Int: Set<Int>] = [:]
            for (entity, ordinal, _) in broken { leftOut[entity, default: []].insert(ordinal) }
            var located: [Int: [Int: (Record, Int)]] = [:]
            for (entity, ordinals) in leftOut { located[entity] = try locate(entity: seedPlan.entities[entity], ordinals: ordinals) }
            for (index, state) in saved.enumerated() {
                states[index].kept = state.0
                states[index].chosenPrimaryKeys = state.1
            }
            for (index, ordinal, rule) in broken {
                let entity = seedPlan.entities[index]
                let record = located[index]?[ordinal]
                let field = entity.fieldLinks.first { $0.relationship.name == rule.relationship.name }?.fieldName ?? ""
                let error = MappingError(location: record?.0.location ?? SourceLocation(file: entity.name), field: field, entity: entity.name,
                                         attribute: rule.relationship.name, failure: .breaksRule(rule.message(record: record, entity: entity)))
                try rejections.reject(error)  // throws unless tolerated
                guard states[index].kept.indices.contains(ordinal), states[index].kept[ordinal] else { continue }
                states[index].kept[ordinal] = false
                states[index].rejected += 1
                if let (record, sourceIndex) = record, entity.hasKey,
                   let key = NaturalKey.key(record.values, at: entity.sources[sourceIndex].keyFields) {
                    rejectedKeys[index, default: [:]][LinkKey(entity.comparedKey(key))] = (record.location, key)
                }
            }
            joinRows = [:]
            joinSeen = [:]
            orderCounters = [:]
            droppedLinks = [:]
            hiddenKeyConflict = nil
            try leaveOutOrphans()
        }
        if keepsLinkKeys { for index in states.indices { states[index].linkKeys = [] } }
    }

    /// Each record that breaks a rule, with the rule and what it counted (one entry per broken rule).
    private mutating func brokenRules(_ rules: [RelationshipRule]) throws -> [(Int, Int, BrokenRule)] {
        var broken: [(Int, Int, BrokenRule)] = []
        for rule in rules {
            let index = rule.entity, state = states[index]
            let matched = state.numbers.matched
            if let slot = rule.slot {
                // A stored row whose input leaves the to-one unset keeps its stored value.
                let setsIt = state.numbers.toOneKeys[slot].contains { $0 != 0 }
                for ordinal in 0..<state.count where state.numbers.primaryKeys[ordinal] != 0 && state.numbers.toOneKeys[slot][ordinal] == 0 {
                    let isStored = !matched.isEmpty && matched[ordinal] != 0
                    if isStored && (seedPlan.entities[index].keepsBlanks || !setsIt) { continue }
                    broken.append((index, ordinal, BrokenRule(relationship: rule.relationship, count: nil)))
                }
                continue
            }
            let counts = rowCounts(entity: index, relationship: rule.relationship)
            let relationship = rule.relationship
            let minimum = relationship.isOptional ? relationship.minCount : max(relationship.minCount, 1)
            for ordinal in 0..<state.count where state.numbers.primaryKeys[ordinal] != 0 && (matched.isEmpty || matched[ordinal] == 0) {
                let count = counts[state.numbers.primaryKeys[ordinal], default: 0]
                if count == 0 && relationship.isOptional { continue }
                if count < minimum || (relationship.maxCount > 0 && count > relationship.maxCount) {
                    broken.append((index, ordinal, BrokenRule(relationship: relationship, count: count)))
                }
            }
        }
        return broken
    }

    /// Per `Z_PK` of `entity`'s rows: how many rows its to-many `relationship` links to, from the
    /// destination rows' to-one (or hidden key) columns, or the join rows.
    private mutating func rowCounts(entity index: Int, relationship: Relationship) -> [Int64: Int] {
        let linking = linkPlan(entity: index, relationship: relationship)
        var counts: [Int64: Int] = [:]
        if let (join, sourceIsFirst) = linking.join {
            for row in joinRows[join.name] ?? [] { counts[sourceIsFirst ? row.first : row.second, default: 0] += 1 }
            return counts
        }
        // The column points at rows of this entity's hierarchy, where a `Z_PK` names one row.
        for (destination, slot) in linking.inverseSlots {
            for (ordinal, key) in states[destination].numbers.toOneKeys[slot].enumerated() where key != 0 && states[destination].numbers.primaryKeys[ordinal] != 0 {
                counts[key, default: 0] += 1
            }
        }
        return counts
    }

    /// A broken rule: the relationship, and for a to-many the count found.
    struct BrokenRule {
        let relationship: Relationship
        let count: Int?

        /// The message, naming the record by its key: `City 'Paris' leaves the non-optional to-one …`.
        func message(record: (Record, Int)?, entity: EntityPlan) -> String {
            var subject = "the \(entity.name) record"
            if let (record, sourceIndex) = record, entity.hasKey, let key = NaturalKey.key(record.values, at: entity.sources[sourceIndex].keyFields) {
                subject = "\(entity.name) '\(NaturalKey.display(key))'"
            }
            let name = relationship.name
            guard let count else {
                return "\(subject) leaves the non-optional to-one relationship '\(name)' empty; Core Data refuses to save such an object: give every record a key that matches a \(relationship.destinationEntity)"
            }
            if relationship.maxCount > 0 && count > relationship.maxCount {
                return "\(subject) has \(count) '\(name)', more than the model's maximum count \(relationship.maxCount); Core Data refuses to save such an object"
            }
            let minimum = relationship.isOptional ? relationship.minCount : max(relationship.minCount, 1)
            return "\(subject) has \(count) '\(name)', fewer than the model's minimum count \(minimum)\(relationship.isOptional ? "" : " (a non-optional to-many needs one at least)"); Core Data refuses to save such an object"
        }
    }
}

extension Relationship {
    /// A to-many whose count Core Data checks on save: non-optional, or with a `minCount` or `maxCount`.
    var hasCountRule: Bool { isToMany && !isTransient && (!isOptional || minCount > 0 || maxCount > 0) }
}
