/// Core Data's walk over the model's relationships (`-[NSSQLModel _generateModelWithError:]`): what
/// names many-to-many tables (§4b.2), orders `Z_FOK_` columns (§4b.3) and places the hidden key of a
/// to-many without inverse (§4c.4).
///
/// Two phases, as in the decompiled `NSSQLEntity.m`:
/// 1. `_generateProperties` gives every entity a CF-476 table of its property keys (`CFLeopardTable`):
///    a root starts with `_ent`, `_pk`, `_opt`, a sub-entity with its parent's keys in the parent's slot
///    order; then its own stored attributes in the slot order of a CF-476 table of its attributes, then
///    its own stored relationships likewise, each to-one as `_<key column>`, `_<entity column>` when its
///    destination has sub-entities, then its name.
/// 2. `_generateInverseRelationshipsAndMore` runs for every entity in case-insensitive name order: its
///    keys go into a CF-368 table (`CFBucketOrder`) in that slot order, and it meets its relationships in
///    the CF-368 slot order. Meeting a to-many without inverse adds a virtual to-one to the destination
///    (and its sub-entities); meeting a to-one whose inverse is ordered adds its order key to the entity
///    (and its sub-entities). Keys added this way change the tables of entities walked later.
struct PropertyWalk {
    /// One step: `entity` meets `relationship`, declared on `owner` (itself or an ancestor).
    struct Visit {
        let entity: Entity
        let owner: Entity
        let relationship: Relationship
    }

    /// A to-many relationship with no inverse: Core Data keeps it as a hidden to-one on the destination.
    struct VirtualToOne: Sendable, Equatable {
        /// The entity that declares the to-many.
        let sourceEntity: String
        let relationship: String
        /// The to-many's destination, which gets the hidden key column.
        let destinationEntity: String
        /// The virtual relationship's name: the source's entity number, then the to-many's name (`1documents`).
        let name: String
        let isOrdered: Bool
    }

    private(set) var visits: [Visit] = []
    /// In the order the walk creates them.
    private(set) var virtualToOnes: [VirtualToOne] = []

    /// - Parameter keyColumn: the column a to-one key lives in (`ZOWNER`, or `ZOWNER1` where a sibling
    ///   took the name), by declaring entity and relationship; its key in the tables is `_` + that name.
    init(graph: EntityGraph, keyColumn: (_ owner: String, _ relationship: String) -> String) {
        var tables: [String: CFLeopardTable] = [:]
        for entity in graph.ordered {
            tables[entity.name] = PropertyWalk.keys(of: entity, graph: graph, inherited: entity.parentName.flatMap { tables[$0] },
                                                    keyColumn: keyColumn)
        }
        func addKeys(_ keys: [String], to entity: String) {
            for member in graph.hierarchy(of: entity) {
                for key in keys { tables[member.name]?.insert(key) }
            }
        }
        var metToManys = Set<String>()
        for entity in graph.model.entities.sorted(by: { EntityGraph.precedes($0.name, $1.name) }) {
            var relationships: [String: (owner: Entity, relationship: Relationship)] = [:]
            for owner in graph.lineage(entity.name) {
                for relationship in owner.relationships where !relationship.isTransient && relationships[relationship.name] == nil {
                    relationships[relationship.name] = (owner, relationship)
                }
            }
            for key in CFBucketOrder.ordered(tables[entity.name]?.keys ?? []) {
                guard let (owner, relationship) = relationships[key] else { continue }
                visits.append(Visit(entity: entity, owner: owner, relationship: relationship))
                let declared = "\(owner.name).\(relationship.name)"
                if relationship.isToMany {
                    guard graph.inverse(of: relationship, in: owner.name) == nil, metToManys.insert(declared).inserted,
                          let number = graph.numbers[owner.name] else { continue }
                    let virtual = VirtualToOne(sourceEntity: owner.name, relationship: relationship.name,
                                               destinationEntity: relationship.destinationEntity,
                                               name: "\(number)\(relationship.name)", isOrdered: relationship.isOrdered)
                    virtualToOnes.append(virtual)
                    addKeys(PropertyWalk.keys(of: virtual, graph: graph), to: virtual.destinationEntity)
                } else if let inverse = graph.inverse(of: relationship, in: owner.name), inverse.isToMany, inverse.isOrdered {
                    addKeys([CoreDataSchema.hiddenOrderKey(relationship.name)], to: entity.name)
                }
            }
        }
    }

    /// An entity's keys after `_generateProperties`, in CF-476 slot order.
    private static func keys(of entity: Entity, graph: EntityGraph, inherited: CFLeopardTable?,
                             keyColumn: (String, String) -> String) -> CFLeopardTable {
        var table = CFLeopardTable()
        if let inherited {
            for key in inherited.keys { table.insert(key) }
        } else {
            for key in ["_ent", "_pk", "_opt"] { table.insert(key) }
        }
        // A composite attribute's elements are keyed `attribute.element`, as they are created (inferred order).
        for attribute in entity.attributes where !attribute.isTransient && attribute.type == .composite {
            for element in attribute.compositeName.flatMap({ graph.model.composites[$0] }) ?? [] {
                table.insert("\(attribute.name).\(element.name)")
            }
        }
        let attributes = Dictionary(entity.attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in CFLeopardTable(entity.attributes.map(\.name)).keys {
            guard let attribute = attributes[name], !attribute.isTransient, attribute.type != .composite else { continue }
            table.insert(name)
        }
        let relationships = Dictionary(entity.relationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in CFLeopardTable(entity.relationships.map(\.name)).keys {
            guard let relationship = relationships[name], !relationship.isTransient else { continue }
            if !relationship.isToMany {
                table.insert("_" + keyColumn(entity.name, name))
                if graph.hasSubentities(relationship.destinationEntity), let number = graph.numbers[relationship.destinationEntity] {
                    table.insert("_Z\(number)_" + CoreDataSchema.uppercased(name))
                }
            }
            table.insert(name)
        }
        return table
    }

    /// The keys a virtual to-one adds to its destination (`_addVirtualToOneForToMany:`): its key column,
    /// its entity column when the source has sub-entities, its name, and its order key when ordered.
    private static func keys(of virtual: VirtualToOne, graph: EntityGraph) -> [String] {
        let column = PropertyWalk.keyColumn(of: virtual)
        var keys = ["_" + column]
        if let entityColumn = PropertyWalk.entityColumn(of: virtual, graph: graph) { keys.append("_" + entityColumn) }
        keys.append(virtual.name)
        if virtual.isOrdered { keys.append("_" + PropertyWalk.orderColumn(of: virtual)) }
        return keys
    }

    /// `Z<source #><NAME>` (`NSSQLForeignKey` of the virtual to-one).
    static func keyColumn(of virtual: VirtualToOne) -> String { CoreDataSchema.prefixed(virtual.name) }

    /// `Z<source #>_<source #><NAME>` when the source entity has sub-entities (`NSSQLForeignEntityKey`).
    static func entityColumn(of virtual: VirtualToOne, graph: EntityGraph) -> String? {
        guard graph.hasSubentities(virtual.sourceEntity), let number = graph.numbers[virtual.sourceEntity] else { return nil }
        return CoreDataSchema.entityKeyColumn(number, virtual.name)
    }

    /// `Z_FOK_<source #><NAME>` for an ordered to-many (`NSSQLForeignOrderKey`).
    static func orderColumn(of virtual: VirtualToOne) -> String { CoreDataSchema.orderColumn(virtual.name) }
}
