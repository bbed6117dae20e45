/// `"prefer": "<SubEntity>"` on a relationship mapping: which sub-entity's row a key decides for when
/// it matches rows of more than one sub-entity of an abstract (or parent) destination.
extension SeedPlan {
    /// The preferred sub-entity, checked: a sub-entity (direct or deeper) of the relationship's destination.
    static func preferred(_ spec: RelationshipSpec, relationship: Relationship, graph: EntityGraph, specPath: String,
                          context: String) throws(FileError) -> String? {
        guard let name = spec.prefer else { return nil }
        let destination = relationship.destinationEntity
        let subentities = graph.hierarchy(of: graph.root(of: destination))
            .filter { $0.name != destination && graph.lineage($0.name).contains { $0.name == destination } }.map(\.name)
        guard subentities.contains(name) else {
            let known = subentities.isEmpty ? "'\(destination)' has no sub-entities" : "its sub-entities: \(subentities.joined(separator: ", "))"
            throw FileError(path: specPath, message: "\(context).prefer: '\(name)' is not a sub-entity of '\(destination)', the destination of '\(relationship.name)' (\(known))\(Suggestion.hint(for: name, in: subentities))")
        }
        return name
    }
}
