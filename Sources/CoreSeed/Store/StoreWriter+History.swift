extension StoreWriter {
    /// What an update of a tracked store changed besides inserting rows: the stored rows it touched, which
    /// Core Data would record as update changes (docs/LAYOUT.md, "Persistent history": not proven, so
    /// not written).
    public struct StoredRowChanges: Sendable, Equatable {
        /// Stored rows whose relationships changed (keys, entity or order columns), or whose bitmap is
        /// not known.
        public var updated = 0
        /// New rows that refer to a stored row (a to-one or a hidden to-many key): the stored row's
        /// inverse gains a member.
        public var newRowsReferringToStored = 0
        /// New join rows with a stored row on one side.
        public var joinRowsWithStored = 0
        /// The first of each kind, as a user finds it: `Entity Z_PK n (columns)`, `Entity.relationship`.
        public var firstUpdated: String?, firstReferring: String?, firstJoin: String?

        public var isEmpty: Bool { updated == 0 && newRowsReferringToStored == 0 && joinRowsWithStored == 0 }
    }

    /// Records an update of a tracked store as one transaction: an insert change per row above
    /// `formerMaxima` (each hierarchy root's `Z_MAX` before the update), and an update change per stored
    /// row whose attribute values changed (noted by ``PersistentHistory/watchUpdates(in:layout:)``, its
    /// `ZCOLUMNS` marking those attributes). Throws, naming what Core Data would have recorded that
    /// CoreSeed cannot, when a stored row's relationships changed or a new row refers to a stored one.
    /// `updatedRows`: rows the update changed; `addedJoinRows`: join rows it added, per join table.
    public func recordUpdateHistory(_ transaction: HistoryTransaction, formerMaxima: [String: Int64], updatedRows: Int,
                                    addedJoinRows: [String: Int]) throws {
        var changes = StoredRowChanges()
        var updates: [PersistentHistory.Update] = []
        do {
            let noted: Int
            (updates, changes.updated, noted, changes.firstUpdated) = try storedRowUpdates()
            // Every updated row must have been noted; any other is counted as unknown, never skipped.
            changes.updated += max(0, updatedRows - noted)
            (changes.newRowsReferringToStored, changes.firstReferring) = try newRowsReferringToStored(formerMaxima)
            for join in layout.joinTables {
                guard let added = addedJoinRows[join.name], added > 0 else { continue }
                let statement = try store.prepare(CoreDataSQL.historyJoinRowsOfNewRows(join))
                try statement.bind([.integer(formerMaximum(of: join.firstEntity, formerMaxima)), .integer(formerMaximum(of: join.secondEntity, formerMaxima))])
                let withStored = max(0, added - (try StoreWriter.count(statement)))
                changes.joinRowsWithStored += withStored
                if withStored > 0, changes.firstJoin == nil { changes.firstJoin = "\(join.firstEntity).\(join.firstRelationship)" }
            }
        } catch {
            throw StoreWriter.writeFailure(error, path: targetPath)
        }
        guard changes.isEmpty else { throw FileError(path: targetPath, message: PersistentHistory.storedRowsRefusal(changes)) }
        do {
            try PersistentHistory.record(transaction, in: store, layout: layout, formerMaxima: formerMaxima, updates: updates)
        } catch {
            throw StoreWriter.writeFailure(error, path: targetPath)
        }
    }

    /// The stored objects the update changed, one update each (a row updated twice has the union of its
    /// columns, as one save records one change per object): those whose changed columns are all
    /// attribute columns with a known bitmap; how many others there are; how many updates were noted.
    private func storedRowUpdates() throws(SQLiteError) -> ([PersistentHistory.Update], Int, Int, String?) {
        var updates: [PersistentHistory.Update] = [], others = 0, noted = 0, first: String?
        let names = Dictionary(layout.entities.map { (Int64($0.number), $0.name) }) { first, _ in first }
        for row in try store.rows(CoreDataSQL.historyUpdatedRows) {
            guard case .integer(let entity) = row[0], case .integer(let key) = row[1], case .integer(let count) = row[3] else {
                others += 1
                continue
            }
            noted += Int(count)
            // A raised Z_OPT with no column changed: a to-many of the row changed (its keys are elsewhere).
            let columns: Set<String> = if case .text(let list) = row[2] { Set(list.split(separator: ",").map(String.init)) } else { [] }
            guard row[4] == row[3], !columns.isEmpty, let name = names[entity],
                  let bitmap = layout.historyColumns[name]?.bitmap(changing: columns) else {
                others += 1
                if first == nil {
                    let what = columns.isEmpty ? "a to-many relationship" : columns.sorted().map { propertyName(ofColumn: $0, entity: names[entity]) }.joined(separator: ", ")
                    first = "\(names[entity] ?? "entity \(entity)") \(CoreDataSchema.primaryKey) \(key), \(what)"
                }
                continue
            }
            updates.append(PersistentHistory.Update(entity: entity, key: key, columns: bitmap))
        }
        return (updates, others, noted, first)
    }

    /// New rows whose to-one (or hidden to-many key) names a stored row, and the first such relationship.
    private func newRowsReferringToStored(_ formerMaxima: [String: Int64]) throws(SQLiteError) -> (Int, String?) {
        var total = 0, first: String?
        for table in layout.tables {
            for column in table.columns {
                let destination: String, relationship: String
                switch column.role {
                case .toOne(let entity, let name, let to), .toManyKey(let entity, let name, let to): (destination, relationship) = (to, "\(entity).\(name)")
                default: continue
                }
                let statement = try store.prepare(CoreDataSQL.historyNewRowsReferringToStored(table: table.name, column: column.name))
                try statement.bind([.integer(formerMaxima[table.rootEntity] ?? 0), .integer(formerMaximum(of: destination, formerMaxima))])
                let count = try StoreWriter.count(statement)
                total += count
                if count > 0, first == nil { first = relationship }
            }
        }
        return (total, first)
    }

    /// The property a column of `entity`'s table keeps (`City.country` for `ZCOUNTRY`), else the column.
    private func propertyName(ofColumn column: String, entity: String?) -> String {
        guard let table = entity.flatMap({ layout.entity(named: $0)?.tableName }),
              let role = layout.tables.first(where: { $0.name == table })?.columns.first(where: { $0.name == column })?.role else { return column }
        switch role {
        case .attribute(let owner, let name, _), .compositeElement(let owner, let name, _, _), .toOne(let owner, let name, _),
             .toOneEntity(let owner, let name), .toOneOrder(let owner, let name), .toManyKeyEntity(let owner, let name),
             .toManyKeyOrder(let owner, let name), .toManyKey(let owner, let name, _):
            return "\(owner).\(name)"
        default:
            return column
        }
    }

    /// The one integer a bound `count(*)` statement gives.
    private static func count(_ statement: SQLiteStatement) throws(SQLiteError) -> Int {
        guard try statement.step(), case .integer(let count) = statement.value(at: 0) else { return 0 }
        return Int(count)
    }

    /// The former `Z_MAX` of the hierarchy `entity` belongs to.
    private func formerMaximum(of entity: String, _ formerMaxima: [String: Int64]) -> Int64 {
        guard let table = layout.entity(named: entity)?.tableName,
              let root = layout.tables.first(where: { $0.name == table })?.rootEntity else { return 0 }
        return formerMaxima[root] ?? 0
    }
}
