/// How a build runs, decided once before any row is read: how rows are numbered, where they go, and
/// which sources each pass reads for which entities.
struct BuildPlan: Sendable {
    /// How rows get their `Z_PK`s.
    enum Numbering: Sendable {
        /// One pass: rows numbered 1, 2, … as read, every to-one taken from the same record (the
        /// tutorial's one-to-one from one list). Per seeded entity and to-one slot: where its value comes from.
        case asRead(slots: [[SlotSource]])
        /// A key pass first (keys indexed, rows numbered, relationships resolved), then the rows.
        case byKeyPass
    }

    /// Where a to-one column's value comes from when rows are numbered as read.
    enum SlotSource: Sendable {
        /// No link feeds it: NULL.
        case none
        /// The row of the same record in a seeded entity numbered 1, 2, … by record.
        case sameRecord(entityNumber: Int64)
    }

    /// Entities fed by the same list of sources: each source is read once per pass for all of them.
    struct SourceGroup: Sendable {
        let entities: [Int]
    }

    let seedPlan: SeedPlan
    /// The model's entities as Core Data numbers them (relationship resolution asks it per link).
    let graph: EntityGraph
    let numbering: Numbering
    let groups: [SourceGroup]
    let specPath: String
    let specDirectory: String
    /// Rejected values tolerated before the build fails.
    let maxErrors: Int
    let dryRun: Bool

    /// Decides the plan: rows are numbered as read when nothing needs a key pass (no upsert, no
    /// tolerated errors, no dry run, no `primaryKey`, no join source, every link to the same record of
    /// the same group).
    init(seedPlan: SeedPlan, specPath: String, options: SeedBuild.Options, updatesAStore: Bool) {
        self.seedPlan = seedPlan
        self.graph = EntityGraph(model: seedPlan.model)
        self.specPath = specPath
        self.specDirectory = seedPlan.spec.directory
        self.maxErrors = options.maxErrors
        self.dryRun = options.dryRun
        let groups = BuildPlan.sourceGroups(seedPlan)
        self.groups = groups
        if !updatesAStore, options.maxErrors == 0, !options.dryRun, !seedPlan.entities.contains(where: \.keepsPrimaryKeys),
           let slots = BuildPlan.asReadSlots(seedPlan, graph: graph, groups: groups) {
            numbering = .asRead(slots: slots)
        } else {
            numbering = .byKeyPass
        }
    }

    var isNumberedAsRead: Bool {
        if case .asRead = numbering { true } else { false }
    }

    /// Whether SQLite can number entity `index`'s new rows as they are inserted (its inserts leave
    /// `Z_PK` out, which saves SQLite a look-up a row): rows numbered as read; or, after a key pass, a
    /// new store (no stored rows to number after), rows numbered by counting (no `primaryKey`), and no
    /// other seeded entity in its table — its rows then arrive numbered 1, 2, 3, … in insert order.
    func numbersByInsertion(_ index: Int, updatesAStore: Bool) -> Bool {
        if isNumberedAsRead { return true }
        let entity = seedPlan.entities[index]
        guard !updatesAStore, !entity.keepsPrimaryKeys else { return false }
        return seedPlan.entities.filter { $0.rootName == entity.rootName }.count == 1
    }

    /// The entities grouped by their source lists, in entity order.
    private static func sourceGroups(_ seedPlan: SeedPlan) -> [SourceGroup] {
        var groups: [[String]: [Int]] = [:]
        var order: [[String]] = []
        for (index, entity) in seedPlan.entities.enumerated() {
            let names = entity.sources.map(\.name)
            if groups[names] == nil { order.append(names) }
            groups[names, default: []].append(index)
        }
        return order.map { SourceGroup(entities: groups[$0]!) }
    }

    /// Per seeded entity and to-one slot, where its values come from; nil when rows cannot be
    /// numbered as read and the build needs its key pass.
    private static func asReadSlots(_ seedPlan: SeedPlan, graph: EntityGraph, groups: [SourceGroup]) -> [[SlotSource]]? {
        guard seedPlan.joinLinks.isEmpty else { return nil }
        var groupOf: [Int: Int] = [:]
        for (number, group) in groups.enumerated() { for index in group.entities { groupOf[index] = number } }
        // Each seeded entity must be alone in its hierarchy, so that its rows are numbered 1, 2, … by record.
        let roots = seedPlan.entities.map(\.rootName)
        guard Set(roots).count == roots.count else { return nil }
        var slots = seedPlan.entities.map { Array(repeating: SlotSource.none, count: $0.toOneSlots.count) }
        for (index, entity) in seedPlan.entities.enumerated() {
            if entity.hasKey && entity.duplicatePolicy != .error { return nil }
            for (linkIndex, link) in entity.fieldLinks.enumerated() {
                let relationship = link.relationship
                guard !relationship.isToMany, link.separator == nil else { return nil }
                let targets = candidates(seedPlan, graph: graph, for: relationship.destinationEntity)
                guard targets.count == 1, let target = targets.first, groupOf[target] == groupOf[index] else { return nil }
                let destination = seedPlan.entities[target]
                guard destination.hasKey,
                      zip(entity.sources, destination.sources).allSatisfy({ $0.linkFields[linkIndex] == $1.keyFields }) else { return nil }
                let inverse = graph.inverse(of: relationship, in: entity.name)
                if let inverse, inverse.isToMany && inverse.isOrdered { return nil }
                slots[index][entity.toOneSlots.firstIndex(of: relationship.name)!] = .sameRecord(entityNumber: Int64(destination.number))
                if let inverse, !inverse.isToMany, let inverseSlot = destination.toOneSlots.firstIndex(of: inverse.name) {
                    slots[target][inverseSlot] = .sameRecord(entityNumber: Int64(entity.number))
                }
            }
        }
        // A relationship rule of the model (a non-optional to-one no link feeds, a to-many count) is
        // checked after linking, by the key pass.
        for (index, entity) in seedPlan.entities.enumerated() {
            for relationship in graph.lineage(entity.name).flatMap(\.relationships) where !relationship.isTransient {
                if relationship.hasCountRule { return nil }
                if !relationship.isToMany, !relationship.isOptional, let slot = entity.toOneSlots.firstIndex(of: relationship.name),
                   case .none = slots[index][slot] { return nil }
            }
        }
        return slots
    }

    /// Seeded entities whose rows are `destination` rows: itself and its sub-entities.
    static func candidates(_ seedPlan: SeedPlan, graph: EntityGraph, for destination: String) -> [Int] {
        seedPlan.entities.indices.filter { graph.lineage(seedPlan.entities[$0].name).contains { $0.name == destination } }
    }

    /// The fields any entity of `group` needs from source `sourceIndex`.
    func projection(_ group: SourceGroup, sourceIndex: Int, fieldCount: Int, values: Bool) -> [Bool] {
        var wanted = Array(repeating: false, count: fieldCount)
        for index in group.entities {
            let source = seedPlan.entities[index].sources[sourceIndex]
            for field in source.keyFields { wanted[field] = true }
            for fields in source.linkFields { for field in fields { wanted[field] = true } }
            if let field = source.primaryKeyField { wanted[field] = true }
            guard values else { continue }
            for fill in source.fills {
                if case .attribute(let attribute) = fill, let field = attribute.fieldIndex { wanted[field] = true }
            }
        }
        return wanted
    }

    /// Entities of one source group see the same records: those keyed by the same fields share one
    /// duplicate index when rows are numbered as read.
    func duplicateIndexKey(_ entityIndex: Int) -> [Int] {
        seedPlan.entities[entityIndex].sources.flatMap { $0.keyFields + [-1] }
    }

    /// The location of record `ordinal` of `entity`, found by reading its sources again (error paths only).
    func locate(entity: EntityPlan, ordinal: Int) throws -> SourceLocation {
        guard let index = seedPlan.entities.firstIndex(where: { $0.name == entity.name }) else { return SourceLocation(file: entity.name) }
        return try locate([.ordinal(entity: index, ordinal)])[.ordinal(entity: index, ordinal)] ?? SourceLocation(file: entity.name)
    }

    /// The locations of `records`, reading each of their entities' sources once, up to the last one
    /// wanted (error paths only). A record not found is missing from the result.
    func locate(_ records: Set<EarlierRecord>) throws -> [EarlierRecord: SourceLocation] {
        var found: [EarlierRecord: SourceLocation] = [:]
        for (entityIndex, wanted) in Dictionary(grouping: records, by: \.entity) {
            let entity = seedPlan.entities[entityIndex]
            var ordinals: Set<Int> = [], keys: Set<String> = []
            for record in wanted {
                switch record {
                case .ordinal(_, let ordinal): ordinals.insert(ordinal)
                case .firstWithKey(_, let key): keys.insert(key)
                }
            }
            var seen = 0
            reading: for source in entity.sources {
                let reader = try source.spec.openReader(relativeTo: specDirectory)
                while let record = try reader.next() {
                    if ordinals.remove(seen) != nil { found[.ordinal(entity: entityIndex, seen)] = record.location }
                    if !keys.isEmpty, let key = NaturalKey.key(record.values, at: source.keyFields), keys.remove(key) != nil {
                        found[.firstWithKey(entity: entityIndex, key)] = record.location
                    }
                    seen += 1
                    if ordinals.isEmpty && keys.isEmpty { break reading }
                }
            }
        }
        return found
    }
}
