extension SyncDeletion {
    /// What the planning reads: the store being updated, its layout and model, how rows are named in
    /// messages, and which rows the run must not delete (the input has them, or the run wrote them).
    struct Context {
        let database: SQLiteDatabase
        let layout: StoreLayout
        let graph: EntityGraph
        /// "Owner 'A' (Z_PK 1)": the row's entity, key where known, and `Z_PK`.
        let describe: (String, Int64) -> String
        let isProtected: (String, Int64) -> Bool
    }

    /// A change the Nullify or No Action rule makes to a related row, decided once every deletion is known.
    private enum Effect {
        case clear(Row, entity: String, columns: [String], required: String?)
        case touch(Row)
        case leave(Row, table: String, column: String, why: String)
    }

    /// Follows the delete rules from `start` (rows whose key is in no record). Throws `BuildFailure`
    /// with one problem per refused deletion; nothing is written.
    static func plan(start: [(entity: String, primaryKey: Int64)], context: Context, storePath: String) throws -> SyncDeletion {
        var plan = SyncDeletion()
        var problems: [FileError] = []
        var effects: [Effect] = []
        var queue: [Deleted] = []
        func refuse(_ message: String) { problems.append(FileError(path: storePath, message: message)) }
        for item in start {
            guard let table = context.layout.entity(named: item.entity)?.tableName else { continue }
            let row = Row(table: table, primaryKey: item.primaryKey)
            if plan.add(row, entity: item.entity, cascade: nil) { queue.append(plan.deleted[plan.deleted.count - 1]) }
        }
        let entityNames = Dictionary(context.layout.entities.map { ($0.number, $0.name) }, uniquingKeysWith: { a, _ in a })
        func entity(of row: Row) throws -> String? {
            guard case .integer(let number)? = try context.database.scalar(CoreDataSQL.syncRowEntity(table: row.table), [.integer(row.primaryKey)]) else { return nil }
            return entityNames[Int(number)]
        }
        var next = 0
        while next < queue.count {
            let item = queue[next]
            next += 1
            let me = context.describe(item.entity, item.row.primaryKey)
            for owner in context.graph.lineage(item.entity) {
                for relationship in owner.relationships where !relationship.isTransient {
                    let related = try relatedRows(of: item, relationship, owner: owner.name, context: context, plan: &plan,
                                                  effects: &effects, refuse: refuse, entity: entity)
                    switch relationship.deleteRule {
                    case .cascade:
                        for (row, name) in related where !plan.isDeleted(row) {
                            if context.isProtected(name, row.primaryKey) {
                                refuse("\(me) is deleted (its key is in no record) and its relationship '\(relationship.name)' (Cascade) would delete \(context.describe(name, row.primaryKey)), which the input has: nothing was changed; keep \(me)'s key in the input, or change the delete rule")
                                continue
                            }
                            if plan.add(row, entity: name, cascade: "\(owner.name).\(relationship.name)") {
                                queue.append(plan.deleted[plan.deleted.count - 1])
                            }
                        }
                    case .deny:
                        guard !related.isEmpty else { continue }
                        let named = related.prefix(5).map { context.describe($0.entity, $0.row.primaryKey) }.joined(separator: ", ")
                        let more = related.count > 5 ? " and \(related.count - 5) more" : ""
                        refuse("\(me) cannot be deleted: its relationship '\(relationship.name)' has the delete rule Deny and holds \(named)\(more): nothing was changed; keep \(me)'s key in the input, or remove those rows first")
                    case .nullify, .noAction:
                        continue  // the effects were noted with the related rows
                    }
                }
            }
            try incomingWithoutInverse(item, context: context, effects: &effects)
        }
        for effect in effects {
            switch effect {
            case .clear(let row, let name, let columns, let required):
                guard !plan.isDeleted(row) else { continue }
                if let required {
                    refuse("deleting \(required) would leave the non-optional to-one relationship of \(context.describe(name, row.primaryKey)) empty (Nullify), which Core Data refuses to save: nothing was changed; keep the deleted row's key in the input, or delete this row too")
                    continue
                }
                plan.clear(row, columns: columns)
            case .touch(let row):
                if !plan.isDeleted(row) { plan.touch(row) }
            case .leave(let row, let table, let column, let why):
                if !plan.isDeleted(row) { plan.leave(table, column: column, why: why) }
            }
        }
        if !problems.isEmpty { throw BuildFailure(problems: problems, report: BuildReport()) }
        return plan
    }

    /// The rows `relationship` (declared on `owner`) of a deleted row holds, each with its entity; notes
    /// what Nullify or No Action would do to them, and the join rows that go with the deleted row.
    private static func relatedRows(of item: Deleted, _ relationship: Relationship, owner: String, context: Context,
                                    plan: inout SyncDeletion, effects: inout [Effect], refuse: (String) -> Void,
                                    entity: (Row) throws -> String?) throws -> [(row: Row, entity: String)] {
        let layout = context.layout, database = context.database
        guard let destinationTable = layout.table(forEntity: relationship.destinationEntity)?.name else { return [] }
        let inverse = relationship.inverseName.flatMap { context.graph.relationship($0, from: relationship.destinationEntity) }
        let rule = relationship.deleteRule
        let me = "\(context.describe(item.entity, item.row.primaryKey))"
        var related: [(row: Row, entity: String)] = []
        if !relationship.isToMany {
            guard let key = toOneColumns(layout, owner: owner, relationship: relationship.name),
                  case .integer(let target)? = try database.rows(CoreDataSQL.syncRowColumn(table: key.table, column: key.key),
                                                                 [.integer(item.row.primaryKey)]).first?[1] else { return [] }
            let row = Row(table: destinationTable, primaryKey: target)
            guard let name = try entity(row) else { return [] }  // already dangling: nothing to follow
            related.append((row, name))
            guard let (inverseOwner, inverse) = inverse else { return related }
            if inverse.isToMany {
                if rule == .nullify { effects.append(.touch(row)) }
            } else if let back = toOneColumns(layout, owner: inverseOwner.name, relationship: inverse.name),
                      case .integer(item.row.primaryKey)? = try database.rows(CoreDataSQL.syncRowColumn(table: back.table, column: back.key),
                                                                              [.integer(target)]).first?[1] {
                switch rule {
                case .nullify:
                    effects.append(.clear(row, entity: name, columns: [back.key] + back.extra,
                                          required: inverse.isOptional ? nil : me))
                case .noAction:
                    effects.append(.leave(row, table: back.table, column: back.key, why: "\(owner).\(relationship.name) is No Action"))
                default: break
                }
            }
            return related
        }
        if let (inverseOwner, inverse) = inverse, !inverse.isToMany {
            guard let back = toOneColumns(layout, owner: inverseOwner.name, relationship: inverse.name) else { return [] }
            for row in try database.rows(CoreDataSQL.syncRowsPointingAt(table: back.table, column: back.key), [.integer(item.row.primaryKey)]) {
                guard case .integer(let primaryKey) = row[0], case .integer(let number) = row[1],
                      let name = layout.entities.first(where: { $0.number == Int(number) })?.name else { continue }
                let member = Row(table: back.table, primaryKey: primaryKey)
                related.append((member, name))
                switch rule {
                case .nullify:
                    effects.append(.clear(member, entity: name, columns: [back.key] + back.extra, required: inverse.isOptional ? nil : me))
                case .noAction:
                    effects.append(.leave(member, table: back.table, column: back.key, why: "\(owner).\(relationship.name) is No Action"))
                default: break
                }
            }
            return related
        }
        if inverse != nil {
            // Many-to-many: the deleted row's join rows always go; Nullify changes each partner's to-many.
            let sides = layout.joinTables.compactMap { join -> (StoreLayout.JoinTable, String, String)? in
                if join.firstEntity == owner && join.firstRelationship == relationship.name { return (join, join.firstColumn, join.secondColumn) }
                if join.secondEntity == owner && join.secondRelationship == relationship.name { return (join, join.secondColumn, join.firstColumn) }
                return nil
            }
            guard sides.count == 1, let (join, mine, theirs) = sides.first, join.secondColumn != "REFLEXIVE" else {
                refuse("\(me) has the many-to-many relationship '\(relationship.name)', whose join table a sync cannot edit exactly (a relationship that is its own inverse): nothing was changed; remove the row with Core Data")
                return []
            }
            for value in try database.rows(CoreDataSQL.syncJoinPartners(join: join.name, mine: mine, theirs: theirs), [.integer(item.row.primaryKey)]) {
                guard case .integer(let partner) = value[0] else { continue }
                let row = Row(table: destinationTable, primaryKey: partner)
                guard let name = try entity(row) else { continue }
                related.append((row, name))
                if rule == .nullify { effects.append(.touch(row)) }
            }
            plan.deleteJoinRows(join.name, column: mine, primaryKey: item.row.primaryKey)
            return related
        }
        // A to-many without inverse: a hidden key on each member (§4c.4).
        guard let hidden = layout.hiddenToManyKeys.first(where: { $0.sourceEntity == owner && $0.relationship == relationship.name }) else { return [] }
        for row in try database.rows(CoreDataSQL.syncRowsPointingAt(table: hidden.table, column: hidden.column), [.integer(item.row.primaryKey)]) {
            guard case .integer(let primaryKey) = row[0], case .integer(let number) = row[1],
                  let name = layout.entities.first(where: { $0.number == Int(number) })?.name else { continue }
            related.append((Row(table: hidden.table, primaryKey: primaryKey), name))
        }
        if !related.isEmpty, rule == .nullify || rule == .noAction {
            refuse("\(me) is deleted and its to-many relationship '\(relationship.name)' has no inverse and the delete rule \(rule.rawValue): what Core Data does to the members' hidden key (\(hidden.table).\(hidden.column)) is not known, so a sync does not guess: nothing was changed; make the rule Cascade, or remove the row with Core Data")
        }
        return related
    }

    /// Keys of to-one relationships without inverse that point at a deleted row: Core Data does not
    /// know of them and leaves them (dangling).
    private static func incomingWithoutInverse(_ item: Deleted, context: Context, effects: inout [Effect]) throws {
        let lineage = Set(context.graph.lineage(item.entity).map(\.name))
        for entity in context.graph.model.entities {
            for relationship in entity.relationships
            where !relationship.isToMany && !relationship.isTransient && relationship.inverseName == nil && lineage.contains(relationship.destinationEntity) {
                guard let key = toOneColumns(context.layout, owner: entity.name, relationship: relationship.name) else { continue }
                for row in try context.database.rows(CoreDataSQL.syncRowsPointingAt(table: key.table, column: key.key), [.integer(item.row.primaryKey)]) {
                    guard case .integer(let primaryKey) = row[0] else { continue }
                    effects.append(.leave(Row(table: key.table, primaryKey: primaryKey), table: key.table, column: key.key,
                                          why: "\(entity.name).\(relationship.name) has no inverse"))
                }
            }
        }
    }

    /// The table and key column of a to-one relationship, with its `Z<n>_` entity and `Z_FOK_` order columns.
    static func toOneColumns(_ layout: StoreLayout, owner: String, relationship: String) -> (table: String, key: String, extra: [String])? {
        for table in layout.tables {
            var key: String?, extra: [String] = []
            for column in table.columns {
                switch column.role {
                case .toOne(owner, relationship, _): key = column.name
                case .toOneEntity(owner, relationship), .toOneOrder(owner, relationship): extra.append(column.name)
                default: break
                }
            }
            if let key { return (table.name, key, extra) }
        }
        return nil
    }
}
