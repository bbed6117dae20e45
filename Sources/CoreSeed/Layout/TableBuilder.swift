/// Builds one entity table in Core Data's two steps: the columns `_generateProperties` creates (every
/// attribute and to-one of the hierarchy), then those Core Data's walk adds (`addWalkColumns`: the hidden
/// keys of to-manys without inverse, the `Z_FOK_` order keys); `finish` orders them and derives indexes.
struct TableBuilder {
    let graph: EntityGraph
    let hierarchy: [Entity]
    let tableName: String
    let framework: FrameworkVersion
    /// Each to-one's key column, by `entity.relationship` of its declaring entity.
    private(set) var keyColumns: [String: String] = [:]
    /// The hidden keys of to-manys without inverse this table holds, in walk order.
    private(set) var hiddenKeys: [StoreLayout.HiddenToManyKey] = []

    private var built: [(rank: Rank, column: StoreLayout.Column)]
    private var names: UniqueNames
    /// Property (entity.name) → column name, for indexes and constraints.
    private var columnOf: [String: String] = [:]
    /// Order keys with the walk position of the ordered to-many side they serve.
    private var orderKeys: [(visit: Int, base: String, role: StoreLayout.Column.Role)] = []

    /// Core Data's column rank: columns are built entity by entity (root first; each entity's attributes by
    /// name, then its to-one relationships by name), then stably sorted by this rank, so ties keep build order.
    /// Observed in the corpus; the UUID-before-other-blobs split is observed once (see docs/LAYOUT.md).
    private enum Rank: Int, Comparable {
        case fixed, integer, orderKey, dateOrFloat, decimal, text, uuid, transformable, binary
        static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private static func rank(_ type: AttributeType) -> Rank? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: .integer
        case .date, .double, .float: .dateOrFloat
        case .decimal: .decimal
        case .string, .uri: .text
        case .uuid: .uuid
        case .transformable: .transformable
        case .binary: .binary
        case .undefined, .objectID, .composite: nil
        }
    }

    private static func sqlType(_ type: AttributeType) -> String? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: "INTEGER"
        case .date: "TIMESTAMP"
        case .double, .float: "FLOAT"
        case .decimal: "DECIMAL"
        case .string, .uri: "VARCHAR"
        case .uuid, .binary, .transformable: "BLOB"
        case .undefined, .objectID, .composite: nil
        }
    }

    private static func byName<T>(_ name: KeyPath<T, String>) -> (T, T) -> Bool {
        { $0[keyPath: name].utf8.lexicographicallyPrecedes($1[keyPath: name].utf8) }
    }

    /// The columns of `_generateProperties`: fixed ones, then per entity of the hierarchy its attributes
    /// and its to-one keys.
    init(graph: EntityGraph, hierarchy: [Entity], tableName: String, framework: FrameworkVersion) throws(FileError) {
        self.graph = graph
        self.hierarchy = hierarchy
        self.tableName = tableName
        self.framework = framework
        built = [
            (.fixed, .init(name: CoreDataSchema.primaryKey, sqlType: "INTEGER PRIMARY KEY", role: .primaryKey)),
            (.fixed, .init(name: CoreDataSchema.entityColumn, sqlType: "INTEGER", role: .entity)),
            (.fixed, .init(name: CoreDataSchema.optimisticLockColumn, sqlType: "INTEGER", role: .optimisticLock)),
        ]
        names = UniqueNames(taken: built.map(\.column.name))
        for entity in hierarchy {
            for attribute in entity.attributes.sorted(by: TableBuilder.byName(\.name)) where !attribute.isTransient {
                try addAttribute(attribute, of: entity)
            }
            for relationship in entity.relationships.sorted(by: TableBuilder.byName(\.name))
            where !relationship.isToMany && !relationship.isTransient {
                let key = add(CoreDataSchema.prefixed(relationship.name), .integer, "INTEGER",
                              .toOne(entity: entity.name, relationship: relationship.name, destination: relationship.destinationEntity),
                              property: "\(entity.name).\(relationship.name)")
                keyColumns["\(entity.name).\(relationship.name)"] = key
                if graph.hasSubentities(relationship.destinationEntity), let number = graph.numbers[relationship.destinationEntity] {
                    add(CoreDataSchema.entityKeyColumn(number, relationship.name), .integer, "INTEGER",
                        .toOneEntity(entity: entity.name, relationship: relationship.name))
                }
            }
        }
    }

    /// A name already taken in the table (a sibling's same-named attribute) gets 1, 2, … in build order.
    @discardableResult
    private mutating func add(_ base: String, _ rank: Rank, _ type: String, _ role: StoreLayout.Column.Role,
                              property: String? = nil) -> String {
        let name = names.name(for: base)
        built.append((rank, .init(name: name, sqlType: type, role: role)))
        if let property { columnOf[property] = name }
        return name
    }

    private mutating func addAttribute(_ attribute: Attribute, of entity: Entity) throws(FileError) {
        if attribute.type == .composite {
            // Inferred: one column per element, named after the element (docs/LAYOUT.md).
            guard let elements = attribute.compositeName.flatMap({ graph.model.composites[$0] }) else {
                throw graph.modelError("composite attribute '\(entity.name).\(attribute.name)' names no known composite type: declare the composite in the model", line: attribute.line)
            }
            for element in elements.sorted(by: TableBuilder.byName(\.name)) {
                guard let rank = TableBuilder.rank(element.type), let type = TableBuilder.sqlType(element.type) else {
                    throw graph.modelError("composite element '\(entity.name).\(attribute.name).\(element.name)' of type \(element.type.rawValue) cannot be stored", line: attribute.line)
                }
                add(CoreDataSchema.prefixed(element.name), rank, type,
                    .compositeElement(entity: entity.name, attribute: attribute.name, element: element.name, type: element.type))
            }
            return
        }
        guard let rank = TableBuilder.rank(attribute.type), let type = TableBuilder.sqlType(attribute.type) else {
            throw graph.modelError("attribute '\(entity.name).\(attribute.name)' of type \(attribute.type.rawValue) cannot be stored (only transient attributes may have this type)", line: attribute.line)
        }
        add(CoreDataSchema.prefixed(attribute.name), rank, type,
            .attribute(entity: entity.name, attribute: attribute.name, type: attribute.type),
            property: "\(entity.name).\(attribute.name)")
    }

    /// The columns Core Data's walk adds to this table. A to-many without inverse whose destination lives
    /// here gets its hidden key after every column `_generateProperties` made (artsy-folio-1.6 `ZDOCUMENT`:
    /// `…, ZSHOW INTEGER, Z1DOCUMENTS INTEGER, ZFILENAME …`), then its entity column and, when ordered, its
    /// order key. Order keys of ordered to-manys follow every integer column, in the order the walk meets
    /// their to-many sides (§4b.3).
    mutating func addWalkColumns(_ walk: PropertyWalk, visitOrder: [String: Int]) {
        let members = Set(hierarchy.map(\.name))
        for virtual in walk.virtualToOnes where members.contains(virtual.destinationEntity) {
            let role = StoreLayout.Column.Role.toManyKey(entity: virtual.sourceEntity, relationship: virtual.relationship,
                                                          destination: virtual.destinationEntity)
            let column = add(PropertyWalk.keyColumn(of: virtual), .integer, "INTEGER", role)
            var entityColumn: String?
            if let base = PropertyWalk.entityColumn(of: virtual, graph: graph) {
                entityColumn = add(base, .integer, "INTEGER",
                                   .toManyKeyEntity(entity: virtual.sourceEntity, relationship: virtual.relationship))
            }
            if virtual.isOrdered {
                orderKeys.append((visitOrder["\(virtual.sourceEntity).\(virtual.relationship)"] ?? Int.max,
                                  PropertyWalk.orderColumn(of: virtual),
                                  .toManyKeyOrder(entity: virtual.sourceEntity, relationship: virtual.relationship)))
            }
            hiddenKeys.append(.init(sourceEntity: virtual.sourceEntity, relationship: virtual.relationship,
                                    destinationEntity: virtual.destinationEntity, table: tableName, column: column,
                                    entityColumn: entityColumn, orderColumn: nil))
        }
        for entity in hierarchy {
            for relationship in entity.relationships.sorted(by: TableBuilder.byName(\.name))
            where !relationship.isToMany && !relationship.isTransient {
                guard let inverseName = relationship.inverseName,
                      let (inverseOwner, inverse) = graph.relationship(inverseName, from: relationship.destinationEntity),
                      inverse.isToMany, inverse.isOrdered else { continue }
                // Met as the ordered to-many side (Wire ZMESSAGE), not as the to-one that holds the key.
                orderKeys.append((visitOrder["\(inverseOwner.name).\(inverse.name)"] ?? Int.max,
                                  CoreDataSchema.orderColumn(relationship.name),
                                  .toOneOrder(entity: entity.name, relationship: relationship.name)))
            }
        }
        for key in orderKeys.sorted(by: { $0.visit < $1.visit }) {
            let name = add(key.base, .orderKey, "INTEGER", key.role)
            if case .toManyKeyOrder(let source, let relationship) = key.role,
               let index = hiddenKeys.firstIndex(where: { $0.sourceEntity == source && $0.relationship == relationship }) {
                hiddenKeys[index].orderColumn = name
            }
        }
        orderKeys = []
    }

    /// The table with its columns in Core Data's order, and its indexes.
    func finish() throws(FileError) -> (StoreLayout.Table, [StoreLayout.Index]) {
        let columns = built.enumerated().sorted { a, b in
            a.element.rank != b.element.rank ? a.element.rank < b.element.rank : a.offset < b.offset
        }.map(\.element.column)
        var indexes = TableIndexes(graph: graph, hierarchy: hierarchy, tableName: tableName,
                                   framework: framework, columnOf: columnOf)
        try indexes.derive(columns: columns)
        let table = StoreLayout.Table(name: tableName, rootEntity: hierarchy[0].name, columns: columns,
                                      inlineUniqueConstraints: indexes.inlineUniqueConstraints)
        return (table, indexes.statements)
    }
}
