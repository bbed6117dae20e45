/// Records whose to-one relationship names a record rejected for its values are left out too, so that
/// `--max-errors` leaves no orphan behind; each is listed as left out because of the record it
/// depended on. Runs after the key pass read every source and before rows are numbered, in rounds
/// (a left-out record may leave out the records that depend on it).
extension KeyPass {
    mutating func leaveOutOrphans() throws {
        guard plan.maxErrors > 0 || plan.dryRun, !rejectedKeys.isEmpty else { return }
        var round = rejectedKeys
        while !round.isEmpty {
            var leftOut: [Int: [(ordinal: Int, link: Int, key: String, because: String)]] = [:]
            for (index, entity) in seedPlan.entities.enumerated() {
                for (linkIndex, link) in entity.fieldLinks.enumerated() where !link.relationship.isToMany {
                    let destinations = candidates(for: link.relationship.destinationEntity).filter { round[$0] != nil }
                    guard !destinations.isEmpty else { continue }
                    let keys = states[index].linkKeys[linkIndex]
                    for ordinal in 0..<states[index].count where states[index].kept[ordinal] {
                        for key in keys.keys(of: ordinal) {
                            guard let (destination, rejected) = destinations.lazy.compactMap({ d in round[d]?[key].map { (d, $0) } }).first,
                                  !isKept(key, among: candidates(for: link.relationship.destinationEntity)) else { continue }
                            let name = seedPlan.entities[destination].name
                            let text = rejected.key
                            leftOut[index, default: []].append((ordinal, linkIndex, text, "\(name) '\(NaturalKey.display(text))' (\(rejected.location))"))
                            break
                        }
                    }
                }
            }
            var next: [Int: [LinkKey: (location: SourceLocation, key: String)]] = [:]
            for (index, orphans) in leftOut {
                let entity = seedPlan.entities[index]
                let located = try locate(entity: entity, ordinals: Set(orphans.map(\.ordinal)))
                for orphan in orphans where states[index].kept[orphan.ordinal] {
                    states[index].kept[orphan.ordinal] = false
                    states[index].rejected += 1
                    let link = entity.fieldLinks[orphan.link]
                    let failure = CoercionFailure.leftOut(NaturalKey.display(orphan.key), because: orphan.because)
                    var location = SourceLocation(file: entity.name), key: String?
                    if let (record, sourceIndex) = located[orphan.ordinal] {
                        let error = Rejections.mappingError(record, fieldIndex: entity.sources[sourceIndex].linkFields[orphan.link].first,
                                                            field: link.fieldName, entity: entity.name, attribute: link.relationship.name,
                                                            failure: failure)
                        rejections.note(error)
                        location = record.location
                        if entity.hasKey { key = NaturalKey.key(record.values, at: entity.sources[sourceIndex].keyFields) }
                    } else {
                        rejections.note(MappingError(location: location, field: link.fieldName, entity: entity.name,
                                                     attribute: link.relationship.name, failure: failure))
                    }
                    if let key {
                        let compared = LinkKey(entity.comparedKey(key))
                        next[index, default: [:]][compared] = (location, key)
                        rejectedKeys[index, default: [:]][compared] = (location, key)
                    }
                }
            }
            round = next
        }
    }

    /// Whether a kept record of one of `entities` has `key` (rows are not numbered yet).
    func isKept(_ key: LinkKey, among entities: [Int]) -> Bool {
        entities.contains { index in
            guard let ordinal = states[index].keyIndex[key] else { return false }
            return states[index].kept[Int(ordinal)]
        }
    }

    /// Some records of `entity` (with the index of the source each came from), found by reading its
    /// sources once (error paths only).
    func locate(entity: EntityPlan, ordinals: Set<Int>) throws -> [Int: (Record, Int)] {
        var result: [Int: (Record, Int)] = [:]
        var seen = 0
        for (sourceIndex, source) in entity.sources.enumerated() {
            let reader = try source.spec.openReader(relativeTo: plan.specDirectory)
            while result.count < ordinals.count, let record = try reader.next() {
                if ordinals.contains(seen) { result[seen] = (record, sourceIndex) }
                seen += 1
            }
        }
        return result
    }
}
