import Foundation

/// `"normalize": "nfc"` on an entity mapping or a relationship mapping: keys compared in Unicode NFC,
/// so "Québec" written with one code point for é and with `e` and a combining accent are one key.
/// A key may match a row of any entity of its destination's hierarchy, so the form is the
/// hierarchy's: its entities' keys and every key looked up in it (by any relationship) are
/// normalized, for comparison only — stored attribute values stay as the source wrote them.
extension SeedPlan {
    /// The hierarchies (by root) whose keys the spec asks to compare in NFC.
    static func normalizedRoots(_ spec: SeedSpec, graph: EntityGraph) -> Set<String> {
        var roots = Set<String>()
        for (name, entity) in spec.entities where graph.entity(name) != nil {
            if entity.normalize == .nfc { roots.insert(graph.root(of: name)) }
            for (relationshipName, relationship) in entity.relationships where relationship.normalize == .nfc {
                if let found = graph.relationship(relationshipName, from: name) {
                    roots.insert(graph.root(of: found.relationship.destinationEntity))
                }
            }
        }
        return roots
    }

    /// Marks the entities and links whose keys are compared in NFC.
    static func markNormalized(_ plans: inout [EntityPlan], _ joinLinks: inout [JoinLink], roots: Set<String>, graph: EntityGraph) {
        guard !roots.isEmpty else { return }
        for index in plans.indices {
            plans[index].normalizesKeys = roots.contains(plans[index].rootName)
            for link in plans[index].fieldLinks.indices {
                plans[index].fieldLinks[link].normalizesKeys = roots.contains(graph.root(of: plans[index].fieldLinks[link].relationship.destinationEntity))
            }
        }
        for index in joinLinks.indices {
            joinLinks[index].normalizesKeys = roots.contains(graph.root(of: joinLinks[index].entity))
            joinLinks[index].normalizesDestinationKeys = roots.contains(graph.root(of: joinLinks[index].relationship.destinationEntity))
        }
    }
}

extension KeyNormalization {
    /// `key` in NFC when `normalizes` (ASCII keys as they are: they have one form).
    @inline(__always)
    static func compared(_ key: String, normalizes: Bool) -> String {
        guard normalizes, key.utf8.contains(where: { $0 >= 0x80 }) else { return key }
        return key.precomposedStringWithCanonicalMapping
    }
}
