import Foundation

/// The values a build has rejected so far, and how many it tolerates (`--max-errors`): one more
/// fails the build with every problem found.
///
/// A repeat (a duplicate key, a uniqueness constraint's values, a `primaryKey`) names the earlier
/// record's location, which the pass that finds the repeat does not hold. It is found afterwards, for
/// every repeat at once, in one more read of the sources (`BuildPlan.locate(_:)`): one read per
/// entity, not one per repeat (which made `--max-errors` with many repeats quadratic).
struct Rejections: Sendable {
    let limit: Int
    /// The errors so far; those waiting for their earlier record's location (`pending`) say
    /// "first seen at" nothing until `locatePending()`.
    private(set) var errors: [MappingError] = []
    /// Errors (by index) whose earlier record is still to be located.
    private var pending: [(error: Int, earlier: EarlierRecord)] = []
    /// The plan whose sources are read to locate earlier records.
    private let plan: BuildPlan?

    init(limit: Int, errors: [MappingError] = [], plan: BuildPlan? = nil) {
        self.limit = limit
        self.errors = errors
        self.plan = plan
    }

    /// Records a rejected value; throws `BuildFailure` once more than `limit` have been seen.
    mutating func reject(_ error: MappingError) throws(BuildFailure) {
        errors.append(error)
        if errors.count > limit { throw failure() }
    }

    /// Records a repeat of `earlier`'s key or values, its failure's "first seen" left empty until
    /// `locatePending()`; throws `BuildFailure` once more than `limit` have been seen.
    mutating func reject(_ error: MappingError, repeating earlier: EarlierRecord) throws(BuildFailure) {
        pending.append((errors.count, earlier))
        errors.append(error)
        if errors.count > limit { throw failure() }
    }

    private mutating func failure() -> BuildFailure {
        locatePending()
        return BuildFailure(problems: errors, report: BuildReport())
    }

    /// Fills in the location of every repeat's earlier record, reading each entity's sources once. A
    /// record that cannot be found again (the source changed or cannot be read) is named by its entity.
    mutating func locatePending() {
        guard !pending.isEmpty, let plan else { return }
        let locations = (try? plan.locate(Set(pending.map(\.earlier)))) ?? [:]
        for (index, earlier) in pending {
            let old = errors[index]
            let seen = locations[earlier]?.description ?? plan.seedPlan.entities[earlier.entity].name
            errors[index] = MappingError(location: old.location, field: old.field, entity: old.entity, attribute: old.attribute,
                                         failure: old.failure.firstSeen(at: seen))
        }
        pending = []
    }

    /// Records a record left out as a consequence of another's rejection: listed, not counted
    /// against the limit (the rejection that caused it was).
    mutating func note(_ error: MappingError) {
        errors.append(error)
    }

    /// The error for one value of `record`, located at its field's column when the reader knows it.
    static func mappingError(_ record: Record, fieldIndex: Int?, field: String, entity: String, attribute: String,
                             failure: CoercionFailure) -> MappingError {
        var location = record.location
        if let fieldIndex, let lines = record.fieldLines, fieldIndex < lines.count, lines[fieldIndex] > 0 { location.line = lines[fieldIndex] }
        if let fieldIndex, let columns = record.fieldColumns, fieldIndex < columns.count, columns[fieldIndex] > 0 { location.column = columns[fieldIndex] }
        return MappingError(location: location, field: field, entity: entity, attribute: attribute, failure: failure)
    }
}

/// An earlier record that a rejected one repeats: by its ordinal among its entity's records, or, where
/// rows are numbered as read and no ordinal is kept, as the first record with a natural key.
enum EarlierRecord: Sendable, Hashable {
    case ordinal(entity: Int, Int)
    case firstWithKey(entity: Int, String)

    var entity: Int {
        switch self {
        case .ordinal(let entity, _), .firstWithKey(let entity, _): return entity
        }
    }
}
