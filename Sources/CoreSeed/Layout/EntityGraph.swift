/// The model's entities as Core Data numbers them: roots in case-insensitive name order, each followed
/// by its sub-entities depth-first in the same order (§4b.1). Observed in every corpus store's `Z_PRIMARYKEY`.
struct EntityGraph: Sendable {
    let model: Model
    /// Entities in `Z_ENT` order.
    let ordered: [Entity]
    let numbers: [String: Int]
    private let byName: [String: Entity]
    private let children: [String: [Entity]]

    /// A problem with the model itself, at `line` of its file when the model has one.
    func modelError(_ message: String, line: Int = 0) -> FileError {
        FileError(path: model.path.isEmpty ? nil : model.path, line: line > 0 ? line : nil, message: message)
    }

    init(model: Model) {
        self.model = model
        var byName: [String: Entity] = [:]
        for entity in model.entities { byName[entity.name] = entity }
        let precedes: (Entity, Entity) -> Bool = { EntityGraph.precedes($0.name, $1.name) }
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

    /// Core Data's name order (`caseInsensitiveCompare:` in `_sortedEntitiesForConfiguration:`, §4b.1):
    /// ASCII letters folded to lower case; names equal but for case fall back to byte order.
    static func precedes(_ a: String, _ b: String) -> Bool {
        let folded = { (byte: UInt8) -> UInt8 in (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
        if a.utf8.lazy.map(folded).elementsEqual(b.utf8.lazy.map(folded)) {
            return a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        return a.utf8.lazy.map(folded).lexicographicallyPrecedes(b.utf8.lazy.map(folded))
    }

    /// Many-to-many join tables, one per pair, in the order Core Data creates them: the side it visits
    /// first names the table after its declaring entity; each column is named after the relationship
    /// it serves and that relationship's destination, made unique across the model in the same order.
    /// The whole model is walked, as `NSSQLModel` does whatever the configuration; only tables of the
    /// configuration's entities (`members`) are kept.
    func joinTables(visits: [PropertyWalk.Visit], members: Set<String>?) -> [StoreLayout.JoinTable] {
        var result: [StoreLayout.JoinTable] = []
        var claimed = Set<String>()
        var columnNames = UniqueNames()
        func unique(_ base: String) -> String { columnNames.name(for: base) }
        for visit in visits where visit.relationship.isToMany {
            let (a, r) = (visit.owner, visit.relationship)
            let key = "\(a.name).\(r.name)"
            guard !claimed.contains(key) else { continue }
            // No inverse: a hidden key on the destination (`PropertyWalk.VirtualToOne`); one-to-many: the key
            // lives on the to-one side.
            guard let inverseName = r.inverseName, let (b, s) = self.relationship(inverseName, from: r.destinationEntity),
                  s.isToMany else { continue }
            claimed.insert(key)
            claimed.insert("\(b.name).\(s.name)")
            let aNumber = numbers[a.name]!
            let table = CoreDataSchema.numbered(aNumber, r.name)
            let first = unique(CoreDataSchema.numbered(numbers[s.destinationEntity]!, s.name))
            let reflexive = a.name == b.name && r.name == s.name
            // A relationship that is its own inverse (decompiled CoreData: NSSQLManyToMany `inverseColumnName`).
            let second = reflexive ? "REFLEXIVE" : unique(CoreDataSchema.numbered(numbers[r.destinationEntity]!, r.name))
            var orders: [StoreLayout.JoinTable.OrderColumn] = []
            // The key column named after an ordered relationship gets a Z_FOK_ column (observed, contentful store).
            if s.isOrdered { orders.append(.init(name: CoreDataSchema.joinOrderColumn(first), orderedColumn: first)) }
            if r.isOrdered {
                // An ordered relationship that is its own inverse keeps its second order in FOK_REFLEXIVE
                // (decompiled CoreData, NSSQLManyToMany `inverseOrderColumnName`).
                orders.append(.init(name: reflexive ? "FOK_REFLEXIVE" : CoreDataSchema.joinOrderColumn(second), orderedColumn: second))
            }
            if let members, !members.contains(a.name) { continue }
            result.append(.init(name: table, firstColumn: first, secondColumn: second, orderColumns: orders,
                                firstEntity: a.name, firstRelationship: r.name,
                                secondEntity: b.name, secondRelationship: s.name))
        }
        return result
    }

    /// A relationship must not cross from the configuration's entities to others.
    func checkConfiguration(_ members: Set<String>, name: String) throws(FileError) {
        for entity in ordered where members.contains(entity.name) {
            for (owner, relationship) in lineage(entity.name).flatMap({ e in e.relationships.map { (e, $0) } })
            where !relationship.isTransient && !members.contains(relationship.destinationEntity) {
                throw FileError(message: "relationship '\(owner.name).\(relationship.name)' crosses from configuration '\(name)' to entity '\(relationship.destinationEntity)', which is not in it")
            }
        }
    }
}
