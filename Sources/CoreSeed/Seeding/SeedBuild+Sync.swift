extension SeedBuild {
    /// The share of an entity's stored rows above which a sync stops unless `--allow-deletes` says so:
    /// more than half. A source that lost more than half of an entity's rows is far more often a
    /// truncated or mis-filtered export than an intended change; real syncs remove a few per cent.
    static let deletionShareLimit = 0.5

    /// A sync's key pass leaves out of its look-ups the stored rows it will delete (those of the seeded
    /// entities whose key no record has): a record that links to one finds no row, as in a new build.
    static func leaveOutDeletedRows(_ keys: inout KeyPass) {
        guard var existing = keys.existing else { return }
        for (index, entity) in keys.seedPlan.entities.enumerated() where !entity.hasStoredRowsOnly {
            let seen = keys.states[index].storedSeen
            existing.keys[index] = existing.keys[index].filter { seen.contains($0.value) }
        }
        keys.existing = existing
    }

    /// Plans and writes a sync's deletions into the store being updated (`SyncDeletion`); returns what
    /// the report says of them. Throws, changing nothing, when a delete rule refuses, a left-out
    /// record's key cannot be read, or an entity would lose more than `deletionShareLimit` of its rows
    /// without `allowDeletes` (in a dry run that is a warning: the run would stop there).
    static func deleteUnlisted(_ keys: KeyPass, existing: ExistingRows, store: SQLiteDatabase, plan: BuildPlan,
                               options: Options, storePath: String, recordsHistory: Bool, report: inout BuildReport) throws -> SyncDeletion {
        let seedPlan = plan.seedPlan
        let layout = seedPlan.layout
        var start: [(entity: String, primaryKey: Int64)] = []
        for (index, entity) in seedPlan.entities.enumerated() where !entity.hasStoredRowsOnly {
            let seen = keys.states[index].storedSeen
            let unlisted = existing.keys[index].values.filter { !seen.contains($0) }.sorted()
            if !unlisted.isEmpty, let location = keys.states[index].unreadableLeftOut {
                throw FileError(path: storePath, message: "\(location): a left-out \(entity.name) record's key cannot be read as the store holds it, so which stored row it stands for is unknown and a sync cannot tell which \(entity.name) rows to delete: nothing was changed; fix the record, or run \(RunOption.upsert)")
            }
            start += unlisted.map { (entity.name, $0) }
            let stored = try rowCount(store, entity: entity.name, layout: layout)
            if stored > existing.keys[index].count {
                let columns = existing.keyReaders[index].columnsShown
                report.warnings.append(Diagnostic(.warning, at: storePath, "\(stored - existing.keys[index].count) \(entity.name) row(s) have no key (\(columns) empty): a sync keeps them, as their key can be in no record"))
            }
        }
        let context = SyncDeletion.Context(
            database: store, layout: layout, graph: plan.graph,
            describe: { entity, primaryKey in describe(entity, primaryKey, store: store, plan: plan, existing: existing) },
            isProtected: { entity, primaryKey in
                guard let root = layout.entity(named: entity)?.rootName else { return false }
                if primaryKey > existing.maxPrimaryKeys[root] ?? 0 { return true }  // written by this run
                return seedPlan.entities.indices.contains { seedPlan.entities[$0].name == entity && keys.states[$0].storedSeen.contains(primaryKey) }
            })
        let deletion = try SyncDeletion.plan(start: start, context: context, storePath: storePath)
        var shares: [String] = []
        for (entity, counts) in deletion.perEntity.sorted(by: { $0.key < $1.key }) {
            let stored = try rowCount(store, entity: entity, layout: layout)
            report.deletions[entity] = BuildReport.Deletions(rows: counts.rows, cascades: counts.cascades)
            guard stored > 0, Double(counts.rows) / Double(stored) > deletionShareLimit, !options.allowDeletes else { continue }
            shares.append("\(entity): the sync would delete \(counts.rows) of its \(stored) rows (\(counts.rows * 100 / stored)%), more than half")
        }
        for (place, count) in deletion.leftReferences.sorted(by: { $0.key < $1.key }) {
            report.warnings.append(Diagnostic(.warning, at: storePath, "\(place): \(count) key(s) left pointing at deleted rows, as Core Data leaves them; verify reports them as dangling"))
        }
        if !shares.isEmpty {
            let fix = "check the sources (a truncated export? a filter too strict?) or pass \(RunOption.allowDeletes) to delete them"
            if options.dryRun {
                for line in shares { report.warnings.append(Diagnostic(.warning, at: storePath, "\(line): the run would stop here; \(fix)")) }
            } else {
                throw BuildFailure(problems: shares.map { FileError(path: storePath, message: "\($0): nothing was changed; \(fix)") }, report: report)
            }
        }
        // Never silent: deletions a tracked store's history does not record are invisible to CloudKit
        // and extensions, and CoreSeed does not write delete changes (docs/LAYOUT.md, persistent history).
        if recordsHistory, !deletion.deleted.isEmpty {
            let each = deletion.perEntity.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.rows)" }.joined(separator: "; ")
            let problem = FileError(path: storePath, message: "the store tracks persistent history and the sync would delete \(deletion.deleted.count) row(s), which CoreSeed cannot record in it yet (\(each); without history CloudKit never exports the deletions and extensions do not see them): nothing was changed; pass \(RunOption.noHistory) to delete them without history")
            guard options.dryRun else { throw BuildFailure(problems: [problem], report: report) }
            report.warnings.append(Diagnostic(.warning, at: storePath, "\(problem.message) (the run would stop here)"))
        }
        try deletion.apply(to: store)
        return deletion
    }

    private static func rowCount(_ store: SQLiteDatabase, entity: String, layout: StoreLayout) throws -> Int {
        guard let info = layout.entity(named: entity) else { return 0 }
        return try store.rows(CoreDataSQL.syncEntityRows(table: info.tableName, entityNumber: info.number)).count
    }

    /// A row as messages name it: `Owner 'A' (Z_PK 1)` when its entity is seeded and keyed by
    /// attributes, else `Item Z_PK 4`.
    private static func describe(_ entity: String, _ primaryKey: Int64, store: SQLiteDatabase, plan: BuildPlan,
                                 existing: ExistingRows) -> String {
        guard let index = plan.seedPlan.entities.firstIndex(where: { $0.name == entity }),
              case .attributes(let columns, _) = existing.keyReaders[index], !columns.isEmpty,
              let table = plan.seedPlan.layout.entity(named: entity)?.tableName else { return "\(entity) \(CoreDataSchema.primaryKey) \(primaryKey)" }
        var parts: [String] = []
        for column in columns {
            guard let value = try? store.rows(CoreDataSQL.syncRowColumn(table: table, column: column), [.integer(primaryKey)]).first?[1],
                  let part = NaturalKey.part(FieldValue(value)) else { return "\(entity) \(CoreDataSchema.primaryKey) \(primaryKey)" }
            parts.append(part)
        }
        return "\(entity) '\(parts.joined(separator: ", "))' (\(CoreDataSchema.primaryKey) \(primaryKey))"
    }
}

extension ExistingRows.ExistingKeyReader {
    /// The key's columns, as a message names them.
    var columnsShown: String {
        switch self {
        case .attributes(let columns, _): columns.joined(separator: ", ")
        case .through(let column, _, _): column
        }
    }
}
