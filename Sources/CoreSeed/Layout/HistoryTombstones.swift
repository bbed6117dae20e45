/// The values a tracked store keeps of a deleted object: its tombstone (docs/LAYOUT.md, "Persistent
/// history"). Core Data gives the history change table `ACHANGE` one `ZTOMBSTONE<i>` column (BLOB) per
/// place, as many as the entity with the most needs, so the table's shape follows the model even
/// before anything is deleted (decompiled `+[_PFPersistentHistoryModel createModelsWithTombstoneCount:
/// andOptions:]`, `_retainedTombstonesForEntity:`).
enum HistoryTombstones {
    /// Core Data refuses a model with more ("NSPersistentHistoryTrackingKey only supports a max of 100
    /// tombstones per entity in the Model").
    static let limit = 100

    /// The entity's userInfo key naming more attributes to keep, comma-separated.
    static let userInfoKey = "NSPersistentHistoryTombstoneAttributes"

    /// What `entity`'s delete change keeps, in `ZTOMBSTONE<i>` order, each once: for the entity, then each
    /// ancestor, the names its userInfo lists, then its stored attributes preserved after deletion in
    /// `NSSQLEntity`'s attribute-column order (inherited ones first, root first, then its own by name).
    static func names(of entity: String, in graph: EntityGraph) -> [String] {
        var result: [String] = []
        var seen: Set<String> = []
        func add(_ name: String) { if seen.insert(name).inserted { result.append(name) } }
        let lineage = graph.lineage(entity)
        for (depth, owner) in lineage.enumerated() {
            if let listed = owner.userInfo[userInfoKey] {
                for name in listed.split(separator: ",") {
                    let trimmed = name.trimmingCharacters(in: .whitespaces)
                    if !trimmed.isEmpty { add(trimmed) }
                }
            }
            // The attribute columns `owner` has: its ancestors' first (root first), then its own by name.
            for declaring in lineage[depth...].reversed() {
                let own = declaring.attributes.filter { !$0.isTransient }.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
                for attribute in own where attribute.preserveAfterDeletion { add(attribute.name) }
            }
        }
        return result
    }

    /// The entity of `members` (nil: all) that keeps the most, and how many: `ACHANGE` has that many
    /// `ZTOMBSTONE<i>` columns. Nil when none keeps any.
    static func widest(_ graph: EntityGraph, members: Set<String>?) -> (entity: String, count: Int)? {
        var widest: (entity: String, count: Int)?
        for entity in graph.ordered where members?.contains(entity.name) ?? true {
            let count = names(of: entity.name, in: graph).count
            if count > (widest?.count ?? 0) { widest = (entity.name, count) }
        }
        return widest
    }

    /// Why a tracked store of `members` cannot be made, as Core Data refuses it: an entity keeps more
    /// than ``limit``; nil when none does.
    static func refusal(_ graph: EntityGraph, members: Set<String>?) -> String? {
        guard let (entity, count) = widest(graph, members: members), count > limit else { return nil }
        return "entity '\(entity)' keeps \(count) attributes in persistent history after deletion (preserveAfterDeletion and the userInfo key \(userInfoKey)); Core Data tracks at most \(limit) per entity: mark fewer of its attributes Preserve After Deletion"
    }
}
