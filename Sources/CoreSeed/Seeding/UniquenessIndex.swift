/// The values of every uniqueness constraint seen so far, so that a repeat is found before SQLite's
/// unique index refuses it: the error names both records, and `--max-errors` can leave the later
/// record out. Checked in the key pass when values are checked there (tolerated errors, dry runs),
/// else in the row pass, where a repeat fails the build.
struct UniquenessIndex: Sendable {
    /// Scope (`UniquenessCheck.scope`) → key → the first record with it (entity index, ordinal).
    private var seen: [String: [String: (entity: Int, ordinal: Int32)]] = [:]

    /// Records `record`'s values for each of its entity's constraints; false (and a rejected value)
    /// when an earlier record has the same. A value that cannot be converted is left to the value checks.
    mutating func admit(_ record: Record, entityIndex: Int, sourceIndex: Int, ordinal: Int, plan: BuildPlan,
                        rejections: inout Rejections) throws -> Bool {
        let entity = plan.seedPlan.entities[entityIndex]
        for check in entity.uniqueness {
            guard let (key, display) = try? check.key(record, source: sourceIndex) else { continue }
            if let first = seen[check.scope]?[key] {
                let field = check.fills[sourceIndex].map(\.fieldName).joined(separator: "+")
                try rejections.reject(MappingError(
                    location: record.location, field: field, entity: entity.name, attribute: check.constraint,
                    failure: .notUnique(display, entity: entity.name, constraint: check.constraint, firstSeen: "")),
                    repeating: .ordinal(entity: first.entity, Int(first.ordinal)))
                return false
            }
        }
        for check in entity.uniqueness {
            guard let (key, _) = try? check.key(record, source: sourceIndex) else { continue }
            seen[check.scope, default: [:]][key] = (entityIndex, Int32(ordinal))
        }
        return true
    }
}
