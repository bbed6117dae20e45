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

        // Each table's columns as `_generateProperties` creates them, then Core Data's walk over the whole
        // model (§4b.2, §4c.1), which names join tables, adds the hidden keys of to-manys without inverse
        // (§4c.4) and orders `Z_FOK_` columns (§4b.3).
        var builders: [TableBuilder] = []
        for rootInfo in infos where rootInfo.superNumber == 0 {
            builders.append(try TableBuilder(graph: graph, hierarchy: graph.hierarchy(of: rootInfo.name),
                                             tableName: rootInfo.tableName, framework: framework))
        }
        var keyColumns: [String: String] = [:]
        for builder in builders { keyColumns.merge(builder.keyColumns) { first, _ in first } }
        let walk = PropertyWalk(graph: graph) { owner, relationship in
            keyColumns["\(owner).\(relationship)"] ?? CoreDataSchema.prefixed(relationship)
        }
        var visitOrder: [String: Int] = [:]
        for (position, visit) in walk.visits.enumerated() {
            let key = "\(visit.owner.name).\(visit.relationship.name)"
            if visitOrder[key] == nil { visitOrder[key] = position }
        }
        var tables: [Table] = []
        var indexes: [Index] = []
        var hiddenKeys: [HiddenToManyKey] = []
        for (rootInfo, var builder) in zip(infos.filter { $0.superNumber == 0 }, builders) where rootInfo.isInConfiguration {
            builder.addWalkColumns(walk, visitOrder: visitOrder)
            let (table, tableIndexes) = try builder.finish()
            tables.append(table)
            indexes += tableIndexes
            hiddenKeys += builder.hiddenKeys
        }
        let joins = graph.joinTables(visits: walk.visits, members: members)
        if framework.indexesJoinTables {
            for join in joins {
                indexes.append(Index(
                    name: "\(join.name)_\(join.secondColumn)_INDEX", table: join.name,
                    sql: CoreDataSQL.createJoinIndex(join, named: "\(join.name)_\(join.secondColumn)_INDEX")))
            }
        }
        self.framework = framework
        self.entities = infos
        self.tables = tables
        self.joinTables = joins
        self.hiddenToManyKeys = hiddenKeys.filter { members?.contains($0.sourceEntity) ?? true }
        self.indexes = indexes
        (self.derivedCounts, self.derivedKeyPaths) = try StoreLayout.derivations(graph, members: members, tables: tables)
        self.triggers = derivedCounts.flatMap(\.triggers) + derivedKeyPaths.flatMap(\.triggers)
        self.historyTombstoneCount = HistoryTombstones.widest(graph, members: members)?.count ?? 0
        self.historyColumns = HistoryColumns.of(graph, tables: tables, hiddenKeys: hiddenToManyKeys, infos: infos)
        self.externalStorageColumns = tables.flatMap { table in
            table.columns.compactMap { column -> ExternalStorageColumn? in
                guard case .attribute(let entity, let name, .binary) = column.role,
                      graph.entity(entity)?.attribute(named: name)?.storesExternally == true else { return nil }
                return ExternalStorageColumn(table: table.name, column: column.name, entity: entity, attribute: name)
            }
        }
    }
}

