/// Under `--max-errors` (and in a dry run) a record whose relationship key matches no row is left out,
/// as a record with a bad value is: each such key is a rejected value at the record's field, counted
/// against the limit. Core Data would not have the object, so its key then names no row: the records
/// whose to-one relationship names it are left out in turn (`leaveOutOrphans`, which runs next), and a
/// to-many key naming it is dropped, as for any rejected record. Runs before rows are numbered.
extension KeyPass {
    mutating func leaveOutUnresolved() throws {
        guard plan.maxErrors > 0 || plan.dryRun else { return }
        for (index, entity) in seedPlan.entities.enumerated() {
            var found: [Int: [(link: Int, position: Int)]] = [:]
            for (linkIndex, link) in entity.fieldLinks.enumerated() where link.onUnresolved == .error {
                let targets = candidates(for: link.relationship.destinationEntity)
                let keys = states[index].linkKeys[linkIndex]
                for ordinal in 0..<states[index].count where states[index].kept[ordinal] {
                    for (position, key) in keys.keys(of: ordinal).enumerated() where !hasRow(key, among: targets) {
                        found[ordinal, default: []].append((linkIndex, position))
                    }
                }
            }
            guard !found.isEmpty else { continue }
            let located = try locate(entity: entity, ordinals: Set(found.keys))
            for ordinal in found.keys.sorted() {
                states[index].kept[ordinal] = false
                states[index].rejected += 1
                guard let (record, sourceIndex) = located[ordinal] else { continue }
                for (linkIndex, position) in found[ordinal]! {
                    try rejections.reject(Rejections.unresolved(record, entity: entity, sourceIndex: sourceIndex, link: linkIndex, position: position) {
                        normalizationNote($0, candidates(for: $1))
                    })
                }
                if entity.hasKey, let key = NaturalKey.key(record.values, at: entity.sources[sourceIndex].keyFields) {
                    rejectedKeys[index, default: [:]][LinkKey(entity.comparedKey(key))] = (record.location, key)
                }
            }
        }
    }

    /// Whether `key` names a row: a kept record of `entities`, a row of the store being updated, or a
    /// record rejected for its values (reported already).
    private func hasRow(_ key: LinkKey, among entities: [Int]) -> Bool {
        if isKept(key, among: entities) { return true }
        if let existing, entities.contains(where: { existing.keys[$0][key] != nil }) { return true }
        return entities.contains { rejectedKeys[$0]?[key] != nil }
    }
}

extension Rejections {
    /// The error for key `position` of field link `link` of `record` (of `entity`'s source `sourceIndex`),
    /// which matches no row; the key's text comes from the record (the maps keep fingerprints only).
    /// `note` gives the note on a key of a relationship to a destination (``KeyNormalization``).
    static func unresolved(_ record: Record, entity: EntityPlan, sourceIndex: Int, link linkIndex: Int, position: Int,
                           note: (_ key: String, _ destination: String) -> String? = { _, _ in nil }) -> MappingError {
        let link = entity.fieldLinks[linkIndex]
        let fields = entity.sources[sourceIndex].linkFields[linkIndex]
        let keys = fields.count == 1 ? NaturalKey.keys(record.values[fields[0]], separator: link.separator)
                                     : [NaturalKey.key(record.values, at: fields)].compactMap { $0 }
        let key = position < keys.count ? keys[position] : ""
        return mappingError(record, fieldIndex: fields.first, field: link.fieldName, entity: entity.name, attribute: link.relationship.name,
                            failure: .unresolvedKey(NaturalKey.display(key), destination: link.relationship.destinationEntity,
                                                    note: note(key, link.relationship.destinationEntity)))
    }
}
