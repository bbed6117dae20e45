/// The model's entities as Core Data numbers them: roots by name, each followed by its sub-entities
/// depth-first (children by name). Observed in every corpus store's `Z_PRIMARYKEY`.
struct EntityGraph {
    let model: Model
    /// Entities in `Z_ENT` order.
    let ordered: [Entity]
    let numbers: [String: Int]
    private let byName: [String: Entity]
    private let children: [String: [Entity]]

    init(model: Model) {
        self.model = model
        var byName: [String: Entity] = [:]
        for entity in model.entities { byName[entity.name] = entity }
        let precedes: (Entity, Entity) -> Bool = { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        var children: [String: [Entity]] = [:]
        for entity in model.entities {
            if let parent = entity.parentName { children[parent, default: []].append(entity) }
        }
        for key in children.keys { children[key]!.sort(by: precedes) }
        var ordered: [Entity] = []
        func visit(_ entity: Entity) {
            ordered.append(entity)
            for child in children[entity.name] ?? [] { visit(child) }
        }
        for root in model.entities.filter({ $0.parentName == nil }).sorted(by: precedes) { visit(root) }
        self.ordered = ordered
        self.byName = byName
        self.children = children
        var numbers: [String: Int] = [:]
        for (offset, entity) in ordered.enumerated() { numbers[entity.name] = offset + 1 }
        self.numbers = numbers
    }

    func entity(_ name: String) -> Entity? { byName[name] }

    func root(of name: String) -> String {
        var current = name
        while let parent = byName[current]?.parentName { current = parent }
        return current
    }

    /// The root and all its descendants, in `Z_ENT` order.
    func hierarchy(of root: String) -> [Entity] {
        var result: [Entity] = []
        func visit(_ entity: Entity) {
            result.append(entity)
            for child in children[entity.name] ?? [] { visit(child) }
        }
        if let entity = byName[root] { visit(entity) }
        return result
    }

    func hasSubentities(_ name: String) -> Bool { !(children[name] ?? []).isEmpty }

    /// `name` and its ancestors, nearest first.
    func lineage(_ name: String) -> [Entity] {
        var result: [Entity] = []
        var current = byName[name]
        while let entity = current {
            result.append(entity)
            current = entity.parentName.flatMap { byName[$0] }
        }
        return result
    }

    /// The declared relationship `name` as seen from `entity` (own or inherited), with its declaring entity.
    func relationship(_ name: String, from entity: String) -> (owner: Entity, relationship: Relationship)? {
        for candidate in lineage(entity) {
            if let relationship = candidate.relationship(named: name) { return (candidate, relationship) }
        }
        return nil
    }

    /// The inverse of `relationship` (declared on `owner`), looked up from its destination.
    func inverse(of relationship: Relationship, in owner: String) -> Relationship? {
        guard let name = relationship.inverseName else { return nil }
        return self.relationship(name, from: relationship.destinationEntity)?.relationship
    }

    /// Many-to-many join tables: one per pair, named after the lower-numbered entity's relationship.
    func joinTables(members: Set<String>?) throws(LayoutError) -> [StoreLayout.JoinTable] {
        var result: [StoreLayout.JoinTable] = []
        var seen = Set<String>()
        for entity in ordered {
            if let members, !members.contains(entity.name) { continue }
            for relationship in entity.relationships.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) })
            where relationship.isToMany && !relationship.isTransient {
                let key = "\(entity.name).\(relationship.name)"
                guard !seen.contains(key) else { continue }
                guard let inverseName = relationship.inverseName,
                      let (inverseOwner, inverse) = self.relationship(inverseName, from: relationship.destinationEntity) else {
                    throw LayoutError("to-many relationship '\(key)' has no inverse; Core Data's storage for it is not supported (give it an inverse in the model)")
                }
                guard inverse.isToMany else { continue }  // one-to-many: the key lives on the to-one side
                seen.insert(key)
                seen.insert("\(inverseOwner.name).\(inverse.name)")
                let n1 = numbers[entity.name]!, n2 = numbers[inverseOwner.name]!
                // A is the lower-numbered side; for a reflexive pair, the relationship first by name.
                let (a, r, b, s): (Entity, Relationship, Entity, Relationship)
                if n1 < n2 || (n1 == n2 && relationship.name.utf8.lexicographicallyPrecedes(inverse.name.utf8)) || key == "\(inverseOwner.name).\(inverse.name)" {
                    (a, r, b, s) = (entity, relationship, inverseOwner, inverse)
                } else {
                    (a, r, b, s) = (inverseOwner, inverse, entity, relationship)
                }
                let aNumber = numbers[a.name]!, bNumber = numbers[b.name]!
                let table = "Z_\(aNumber)" + CoreDataSchema.uppercased(r.name)
                let first = "Z_\(aNumber)" + CoreDataSchema.uppercased(s.name)
                var second = "Z_\(bNumber)" + CoreDataSchema.uppercased(r.name)
                if a.name == b.name && r.name == s.name {
                    second = "REFLEXIVE"  // a relationship that is its own inverse (inferred: docs/LAYOUT.md)
                } else if second == first {
                    second += "1"
                }
                var orders: [StoreLayout.JoinTable.OrderColumn] = []
                // The key column named after an ordered relationship gets a Z_FOK_ column (observed, contentful store).
                if s.isOrdered { orders.append(.init(name: "Z_FOK_" + first.dropFirst(2), orderedColumn: first)) }
                if r.isOrdered && second != "REFLEXIVE" {
                    orders.append(.init(name: "Z_FOK_" + second.dropFirst(2), orderedColumn: second))
                }
                result.append(.init(name: table, firstColumn: first, secondColumn: second, orderColumns: orders,
                                    firstEntity: a.name, firstRelationship: r.name,
                                    secondEntity: b.name, secondRelationship: s.name))
            }
        }
        return result
    }

    /// A relationship must not cross from the configuration's entities to others.
    func checkConfiguration(_ members: Set<String>, name: String) throws(LayoutError) {
        for entity in ordered where members.contains(entity.name) {
            for (owner, relationship) in lineage(entity.name).flatMap({ e in e.relationships.map { (e, $0) } })
            where !relationship.isTransient && !members.contains(relationship.destinationEntity) {
                throw LayoutError("relationship '\(owner.name).\(relationship.name)' crosses from configuration '\(name)' to entity '\(relationship.destinationEntity)', which is not in it")
            }
        }
    }
}
