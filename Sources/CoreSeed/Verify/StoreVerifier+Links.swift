/// The links as Core Data reads them back (issue 23, item 3), with queries of verify's own: the build
/// fills these columns from its key maps (`KeyPass+Links`), never with SQL, so one mistake cannot hide
/// in both. A key (to-one, the hidden key of a to-many without inverse, a join-table side) must name a
/// row of the entity the model says, the column beside it holding that row's `Z_ENT` must agree, both
/// sides of a one-to-one must point at each other, and the `Z_FOK_` positions of an ordered to-many
/// must be set and distinct per owner. Positions that are not 1…n in a store CoreSeed wrote are a
/// note, not a difference: Core Data reads only their order and itself spaces them 1024 apart
/// (`ddg-bookmarks-v2` `ZBOOKMARKENTITY.Z_FOK_PARENT`).
extension StoreVerifier {
    func checkLinks(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, model: Model,
                    builtByCoreSeed: Bool, into report: inout Report) throws {
        var found: [String] = [], notes: [String] = []
        for table in layout.tables where StoreVerifier.has(schema, table: table.name, columns: [CoreDataSchema.primaryKey]) {
            for column in table.columns {
                switch column.role {
                case .toOne(let owner, let name, let destination):
                    found += try keyProblems(database, schema, layout, model, table: table, key: column, points: destination,
                                             entityColumn: table.columns.first { $0.role == .toOneEntity(entity: owner, relationship: name) },
                                             meaning: "\(owner).\(name)", oneToOne: (owner, name))
                case .toManyKey(let owner, let name, _):
                    found += try keyProblems(database, schema, layout, model, table: table, key: column, points: owner,
                                             entityColumn: table.columns.first { $0.role == .toManyKeyEntity(entity: owner, relationship: name) },
                                             meaning: "the \(owner) whose \(name) holds the row", oneToOne: nil)
                case .toOneOrder(let owner, let name):
                    guard let key = table.columns.first(where: { if case .toOne(owner, name, _) = $0.role { true } else { false } }),
                          let relationship = model.entity(named: owner)?.relationship(named: name) else { continue }
                    let ordered = "\(relationship.destinationEntity).\(relationship.inverseName ?? "?")"
                    try orderProblems(database, schema, table: table.name, owner: key.name, order: column.name,
                                      ordered: ordered, gaps: builtByCoreSeed, into: &found, notes: &notes)
                case .toManyKeyOrder(let owner, let name):
                    guard let key = table.columns.first(where: { if case .toManyKey(owner, name, _) = $0.role { true } else { false } }) else { continue }
                    try orderProblems(database, schema, table: table.name, owner: key.name, order: column.name,
                                      ordered: "\(owner).\(name)", gaps: builtByCoreSeed, into: &found, notes: &notes)
                default: continue
                }
            }
        }
        for join in layout.joinTables {
            found += try joinProblems(database, schema, layout, join)
            for order in join.orderColumns {
                let owner = order.orderedColumn == join.secondColumn ? join.firstColumn : join.secondColumn
                let ordered = owner == join.firstColumn ? "\(join.firstEntity).\(join.firstRelationship)" : "\(join.secondEntity).\(join.secondRelationship)"
                try orderProblems(database, schema, table: join.name, owner: owner, order: order.name,
                                  ordered: ordered, gaps: builtByCoreSeed, into: &found, notes: &notes)
            }
        }
        report.notes += notes
        if builtByCoreSeed { report.differences += found } else { report.warnings += found.map { $0 + " (Core Data would read these links wrongly)" } }
    }

    /// The rows of `table` whose `key` names a row that is not a `points` (or whose entity column
    /// disagrees with that row's `Z_ENT`), and, for a one-to-one, whose destination does not point back.
    private func keyProblems(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, _ model: Model,
                             table: StoreLayout.Table, key: StoreLayout.Column, points: String, entityColumn: StoreLayout.Column?,
                             meaning: String, oneToOne: (owner: String, name: String)?) throws -> [String] {
        guard let target = layout.table(forEntity: points),
              StoreVerifier.has(schema, table: table.name, columns: [key.name]),
              StoreVerifier.has(schema, table: target.name, columns: [CoreDataSchema.primaryKey, CoreDataSchema.entityColumn]) else { return [] }
        // The destination's column pointing back, when the relationship and its inverse are both to-one.
        var back: StoreLayout.Column?
        if let (owner, name) = oneToOne, let relationship = model.entity(named: owner)?.relationship(named: name),
           let inverseName = relationship.inverseName,
           let (inverseOwner, inverse) = StoreVerifier.declared(inverseName, of: relationship.destinationEntity, in: model), !inverse.isToMany {
            back = target.columns.first { $0.role == .toOne(entity: inverseOwner, relationship: inverseName, destination: inverse.destinationEntity) }
        }
        let entity = entityColumn.flatMap { StoreVerifier.has(schema, table: table.name, columns: [$0.name]) ? $0 : nil }
        back = back.flatMap { StoreVerifier.has(schema, table: target.name, columns: [$0.name]) ? $0 : nil }
        let sql = CoreDataSQL.verifyToOneTargets(table: table.name, key: key.name, target: target.name,
                                                 entityColumn: entity?.name, back: back?.name)
        let allowed = StoreVerifier.entityNumbers(under: points, layout)
        var wrongEntity: [Int64] = [], wrongNumber: [Int64] = [], oneSided: [Int64] = []
        for row in try database.rows(sql) {
            guard case .integer(let pk) = row[0] else { continue }
            let number: Int64? = if case .integer(let n) = row[1] { n } else { nil }
            guard let number, allowed.contains(Int(number)) else { wrongEntity.append(pk); continue }
            if entity != nil, row[2] != .integer(number) { wrongNumber.append(pk) }
            if back != nil, row[3] != .integer(pk) { oneSided.append(pk) }
        }
        var lines: [String] = []
        let place = "\(table.name).\(key.name)"
        if !wrongEntity.isEmpty {
            lines.append("\(place): \(wrongEntity.count) key(s) naming a row that is not \(CoercionFailure.article(points)) \(points) (\(meaning)) (Z_PK \(shown(wrongEntity)))")
        }
        if let entity, !wrongNumber.isEmpty {
            lines.append("\(table.name).\(entity.name): \(wrongNumber.count) value(s) that are not the Z_ENT of the row \(key.name) names (\(meaning)) (Z_PK \(shown(wrongNumber)))")
        }
        if let back, !oneSided.isEmpty {
            lines.append("\(place): \(oneSided.count) row(s) whose one-to-one \(meaning) is not pointed back at by \(target.name).\(back.name) (Z_PK \(shown(oneSided)))")
        }
        return lines
    }

    /// The join rows whose sides are rows of entities other than the two the model pairs (a side that
    /// names no row at all is a dangling key, named by `checkRows`).
    private func joinProblems(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout,
                              _ join: StoreLayout.JoinTable) throws -> [String] {
        guard let first = layout.table(forEntity: join.firstEntity), let second = layout.table(forEntity: join.secondEntity),
              StoreVerifier.has(schema, table: join.name, columns: [join.firstColumn, join.secondColumn]),
              StoreVerifier.has(schema, table: first.name, columns: [CoreDataSchema.primaryKey, CoreDataSchema.entityColumn]),
              StoreVerifier.has(schema, table: second.name, columns: [CoreDataSchema.primaryKey, CoreDataSchema.entityColumn]) else { return [] }
        // A side with no row reads NULL through the LEFT JOIN and is left to the dangling-key check.
        let sql = CoreDataSQL.verifyJoinSides(join: join.name, first: join.firstColumn, second: join.secondColumn,
                                              firstTable: first.name, secondTable: second.name)
        let firsts = StoreVerifier.entityNumbers(under: join.firstEntity, layout), seconds = StoreVerifier.entityNumbers(under: join.secondEntity, layout)
        func isOne(_ value: SQLiteValue, of numbers: Set<Int>) -> Bool { if case .integer(let n) = value { numbers.contains(Int(n)) } else { true } }
        var pairs: [String] = []
        for row in try database.rows(sql) where !isOne(row[2], of: firsts) || !isOne(row[3], of: seconds) {
            pairs.append("\(join.firstColumn) \(ExistingRows.shown(row[0])) with \(join.secondColumn) \(ExistingRows.shown(row[1]))")
        }
        guard !pairs.isEmpty else { return [] }
        return ["\(join.name): \(pairs.count) row(s) that do not pair \(CoercionFailure.article(join.firstEntity)) \(join.firstEntity) with \(CoercionFailure.article(join.secondEntity)) \(join.secondEntity) (\(pairs.prefix(5).joined(separator: "; "))\(pairs.count > 5 ? "; …" : ""))"]
    }

    /// The owners in `table` whose rows' positions in `order` repeat or are missing; those whose
    /// positions are not 1…n, when `gaps`, to `notes` (Core Data reads only their order).
    private func orderProblems(_ database: SQLiteDatabase, _ schema: StoredSchema, table: String, owner: String, order: String,
                               ordered: String, gaps: Bool, into found: inout [String], notes: inout [String]) throws {
        guard StoreVerifier.has(schema, table: table, columns: [owner, order]) else { return }
        let q = SQLIdentifier.quoted
        var positions: [Int64: [Int64?]] = [:]
        for row in try database.rows("SELECT \(q(owner)), \(q(order)) FROM \(q(table)) WHERE \(q(owner)) IS NOT NULL") {
            guard case .integer(let key) = row[0] else { continue }
            let position: Int64? = if case .integer(let value) = row[1] { value } else { nil }
            positions[key, default: []].append(position)
        }
        var broken: [Int64] = [], gapped: [Int64] = []
        for (key, list) in positions {
            let set = Set(list.compactMap { $0 })
            if set.count != list.count { broken.append(key) } else if gaps, set != Set(1...Int64(list.count)) { gapped.append(key) }
        }
        if !broken.isEmpty {
            found.append("\(table).\(order): \(broken.count) owner(s) whose ordered \(ordered) has missing or repeated positions (owner Z_PK \(shown(broken.sorted())))")
        }
        if !gapped.isEmpty {
            notes.append("\(table).\(order): \(gapped.count) owner(s) whose ordered \(ordered) positions are not 1…n as a fresh CoreSeed build writes them (owner Z_PK \(shown(gapped.sorted()))); Core Data reads only their order")
        }
    }
}
