extension StoreLayout {
    /// Derives the layout Core Data would create for `model`, restricted to `configuration` when given,
    /// in the SQL form of `framework`. Throws for what Core Data itself would refuse or CoreSeed cannot lay out.
    public init(model: Model, configuration: String? = nil, framework: FrameworkVersion = .newest) throws(FileError) {
        let graph = EntityGraph(model: model)
        var members: Set<String>? = nil
        if let configuration {
            guard let found = model.configurations.first(where: { $0.name == configuration }) else {
                let known = model.configurations.map(\.name)
                throw FileError(message: "no configuration '\(configuration)' in model '\(model.versionName)'"
                    + (known.isEmpty ? " (it has none)" : " (configurations: \(known.joined(separator: ", ")))"))
            }
            members = Set(found.entityNames)
        }
        let numbers = graph.numbers
        let infos = graph.ordered.map { entity -> EntityInfo in
            let root = graph.root(of: entity.name)
            return EntityInfo(
                name: entity.name, number: numbers[entity.name]!,
                superNumber: entity.parentName.flatMap { numbers[$0] } ?? 0,
                rootName: root, tableName: CoreDataSchema.prefixed(root), isAbstract: entity.isAbstract,
                isInConfiguration: members.map { $0.contains(entity.name) } ?? true)
        }
        if let members { try graph.checkConfiguration(members, name: configuration ?? "") }

        // Where each relationship is first met in Core Data's walk (§4b.2), which orders `Z_FOK_` columns (§4b.3).
        var visitOrder: [String: Int] = [:]
        for (position, visit) in graph.relationshipVisits().enumerated() {
            let key = "\(visit.owner.name).\(visit.relationship.name)"
            if visitOrder[key] == nil { visitOrder[key] = position }
        }
        var tables: [Table] = []
        var indexes: [Index] = []
        for rootInfo in infos where rootInfo.superNumber == 0 && rootInfo.isInConfiguration {
            let hierarchy = graph.hierarchy(of: rootInfo.name)
            let builder = try TableBuilder(graph: graph, hierarchy: hierarchy, tableName: rootInfo.tableName,
                                           framework: framework, visitOrder: visitOrder)
            tables.append(builder.table)
            indexes += builder.indexes
        }
        let joins = try graph.joinTables(members: members)
        for join in joins {
            indexes.append(Index(
                name: "\(join.name)_\(join.secondColumn)_INDEX", table: join.name,
                sql: "CREATE INDEX \(join.name)_\(join.secondColumn)_INDEX ON \(join.name) (\(join.secondColumn), \(join.firstColumn))"))
        }
        self.framework = framework
        self.entities = infos
        self.tables = tables
        self.joinTables = joins
        self.indexes = indexes
        self.derivedCounts = try StoreLayout.derivedCounts(graph, members: members, tables: tables)
        self.triggers = derivedCounts.flatMap(\.triggers)
        self.externalStorageColumns = tables.flatMap { table in
            table.columns.compactMap { column -> ExternalStorageColumn? in
                guard case .attribute(let entity, let name, .binary) = column.role,
                      graph.entity(entity)?.attribute(named: name)?.allowsExternalBinaryDataStorage == true else { return nil }
                return ExternalStorageColumn(table: table.name, column: column.name, entity: entity, attribute: name)
            }
        }
    }
}

/// Builds one entity table: columns in Core Data's order, then that table's indexes.
private struct TableBuilder {
    private(set) var table: StoreLayout.Table
    private(set) var indexes: [StoreLayout.Index] = []

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

    init(graph: EntityGraph, hierarchy: [Entity], tableName: String, framework: FrameworkVersion,
         visitOrder: [String: Int]) throws(FileError) {
        var built: [(rank: Rank, column: StoreLayout.Column)] = [
            (.fixed, .init(name: CoreDataSchema.primaryKey, sqlType: "INTEGER PRIMARY KEY", role: .primaryKey)),
            (.fixed, .init(name: CoreDataSchema.entityColumn, sqlType: "INTEGER", role: .entity)),
            (.fixed, .init(name: CoreDataSchema.optimisticLockColumn, sqlType: "INTEGER", role: .optimisticLock)),
        ]
        var names = UniqueNames(taken: built.map(\.column.name))
        /// Property (entity.name) → column name, for indexes and constraints.
        var columnOf: [String: String] = [:]
        // A name already taken in the table (a sibling's same-named attribute) gets 1, 2, … in build order.
        func add(_ base: String, _ rank: Rank, _ type: String, _ role: StoreLayout.Column.Role, property: String? = nil) {
            let name = names.name(for: base)
            built.append((rank, .init(name: name, sqlType: type, role: role)))
            if let property { columnOf[property] = name }
        }
        func addAttribute(_ attribute: Attribute, of entity: Entity) throws(FileError) {
            if attribute.type == .composite {
                // Inferred: one column per element, named after the element (docs/LAYOUT.md).
                guard let elements = attribute.compositeName.flatMap({ graph.model.composites[$0] }) else {
                    throw FileError(message: "composite attribute '\(entity.name).\(attribute.name)' names no known composite type")
                }
                for element in elements.sorted(by: TableBuilder.byName(\.name)) {
                    guard let rank = TableBuilder.rank(element.type), let type = TableBuilder.sqlType(element.type) else {
                        throw FileError(message: "composite element '\(entity.name).\(attribute.name).\(element.name)' of type \(element.type.rawValue) cannot be stored")
                    }
                    add(CoreDataSchema.prefixed(element.name), rank, type,
                        .compositeElement(entity: entity.name, attribute: attribute.name, element: element.name, type: element.type))
                }
                return
            }
            guard let rank = TableBuilder.rank(attribute.type), let type = TableBuilder.sqlType(attribute.type) else {
                throw FileError(message: "attribute '\(entity.name).\(attribute.name)' of type \(attribute.type.rawValue) cannot be stored (only transient attributes may have this type)")
            }
            add(CoreDataSchema.prefixed(attribute.name), rank, type,
                .attribute(entity: entity.name, attribute: attribute.name, type: attribute.type),
                property: "\(entity.name).\(attribute.name)")
        }

        var orderKeys: [(visit: Int, name: String, role: StoreLayout.Column.Role)] = []
        for entity in hierarchy {
            for attribute in entity.attributes.sorted(by: TableBuilder.byName(\.name)) where !attribute.isTransient {
                try addAttribute(attribute, of: entity)
            }
            for relationship in entity.relationships.sorted(by: TableBuilder.byName(\.name))
            where !relationship.isToMany && !relationship.isTransient {
                add(CoreDataSchema.prefixed(relationship.name), .integer, "INTEGER",
                    .toOne(entity: entity.name, relationship: relationship.name, destination: relationship.destinationEntity),
                    property: "\(entity.name).\(relationship.name)")
                if graph.hasSubentities(relationship.destinationEntity), let number = graph.numbers[relationship.destinationEntity] {
                    add("Z\(number)_" + CoreDataSchema.uppercased(relationship.name), .integer, "INTEGER",
                        .toOneEntity(entity: entity.name, relationship: relationship.name))
                }
                if let inverseName = relationship.inverseName,
                   let (inverseOwner, inverse) = graph.relationship(inverseName, from: relationship.destinationEntity),
                   inverse.isToMany, inverse.isOrdered {
                    // Met as the ordered to-many side (Wire ZMESSAGE), not as the to-one that holds the key.
                    let visitKey = "\(inverseOwner.name).\(inverse.name)"
                    orderKeys.append((visitOrder[visitKey] ?? Int.max, "Z_FOK_" + CoreDataSchema.uppercased(relationship.name),
                                      .toOneOrder(entity: entity.name, relationship: relationship.name)))
                }
            }
        }
        // Core Data adds the order keys of ordered one-to-many relationships in a later pass, in the order
        // it meets their relationships (§4b.3), so they follow every integer column of the table.
        for key in orderKeys.sorted(by: { $0.visit < $1.visit }) { add(key.name, .orderKey, "INTEGER", key.role) }
        let columns = built.enumerated().sorted { a, b in
            a.element.rank != b.element.rank ? a.element.rank < b.element.rank : a.offset < b.offset
        }.map(\.element.column)

        var indexes = TableIndexes(graph: graph, hierarchy: hierarchy, tableName: tableName,
                                   framework: framework, columnOf: columnOf)
        try indexes.derive(columns: columns)
        self.indexes = indexes.statements
        let inline = indexes.inlineUniqueConstraints
        self.table = StoreLayout.Table(name: tableName, rootEntity: hierarchy[0].name, columns: columns,
                                       inlineUniqueConstraints: inline)
    }
}
