/// The records of a second source that enrich an entity's rows by key (`"join"` in an entity mapping;
/// docs/SPEC.md): read once when the primary source is opened, holding only each record's key and
/// the fields taken from it. A primary record looks its key up; a joined key no primary record
/// looked up is counted once the primary source is read.
final class JoinedRecords {
    private var values: [String: [FieldValue]] = [:]
    private var used = Set<String>()
    let plan: JoinPlan

    /// Reads `plan.source` (relative to `directory`).
    init(_ plan: JoinPlan, directory: String) throws(ReaderError) {
        self.plan = plan
        let reader = try plan.source.openReader(relativeTo: directory)
        let names = reader.fieldNames
        func index(_ name: String) throws(ReaderError) -> Int {
            guard let index = names.firstIndex(of: name) else {
                throw ReaderError(.computedField("\"join\" \(plan.name): the source has no field '\(name)'\(Suggestion.hint(for: name, in: names)) (fields: \(names.joined(separator: ", ")))"),
                                  at: SourceLocation(file: SourceSpec.resolve(plan.source.path, relativeTo: directory)))
            }
            return index
        }
        let keys = try plan.keyFields.map { name throws(ReaderError) in try index(name) }
        let taken = try plan.fields.map { name throws(ReaderError) in try index(name) }
        var firstSeen: [String: SourceLocation] = [:]
        while let record = try reader.next() {
            guard let key = NaturalKey.key(record.values, at: keys) else { continue }
            if let earlier = firstSeen[key] {
                switch plan.duplicates {
                case .error:
                    throw ReaderError(.joinedKeyRepeated(join: plan.name, key: NaturalKey.display(key), earlier: earlier.description),
                                      at: record.location)
                case .first: continue
                case .last: break
                }
            }
            firstSeen[key] = firstSeen[key] ?? record.location
            values[key] = taken.map { record.values[$0] }
        }
    }

    /// The taken fields of the record whose key is `key`, or nil when none has it.
    func lookUp(_ key: String?) -> [FieldValue]? {
        guard let key, let found = values[key] else { return nil }
        used.insert(key)
        return found
    }

    /// Joined keys no primary record looked up.
    var unmatched: Int { values.count - used.count }
}

/// What a join reads: its source, the fields whose key matches the entity's, and the fields taken.
public struct JoinPlan: Sendable, Equatable {
    /// The joined source's name in the spec, for messages and counts.
    public let name: String
    public let source: SourceSpec
    public let keyFields: [String]
    public let fields: [String]
    /// A key the joined source repeats: an error, or its first or last record counts (the entity's
    /// `onDuplicateKey`).
    public let duplicates: Duplicates

    public enum Duplicates: String, Sendable, Equatable {
        case error, first, last
    }
}
