/// What `--mode sync` deletes, and what each deletion does to the rows it leaves, as Core Data's
/// `deleteObject:` and a save would (`docs/SPEC.md`, "Sync"): the stored rows of the seeded entities
/// whose key is in no record are deleted; each relationship of a deleted row applies its delete rule:
///
/// - Cascade deletes the related rows (recursively, each row once), naming the relationship as cause;
/// - Deny refuses the whole run when the relationship holds any row (also one this run deletes: Core
///   Data's order of propagation and validation there is not known, so the careful reading is taken);
/// - Nullify clears the inverse: a to-one key (with its `Z<n>_` entity and `Z_FOK_` order columns) on
///   the related rows, which get `Z_OPT` + 1; a related row whose to-many lost the deleted member
///   gets `Z_OPT` + 1 and no other change (the other members keep their `Z_FOK_` positions);
/// - No Action leaves the related rows' keys pointing at the deleted row (dangling, as Core Data
///   leaves them), and says so.
///
/// Join rows of a deleted row always go. The plan is made by reading only; `apply` writes it.
/// Refused, with a message naming the rows: a cascade that reaches a row the input has, a Nullify that
/// would empty a non-optional to-one, a Nullify or No Action on a to-many without inverse (what Core
/// Data does to its hidden key is not known) and a relationship that is its own inverse.
struct SyncDeletion {
    /// A row, named by its table and `Z_PK` (unique per table: one hierarchy per table).
    struct Row: Hashable, Comparable {
        let table: String
        let primaryKey: Int64

        static func < (a: Row, b: Row) -> Bool { (a.table, a.primaryKey) < (b.table, b.primaryKey) }
    }

    /// A row the sync deletes.
    struct Deleted {
        let row: Row
        let entity: String
        /// "Entity.relationship" whose Cascade rule deleted it; nil for a row whose key is in no record.
        let cascade: String?
    }

    /// Per entity: rows deleted, and of those, how many each cascading relationship deleted.
    struct EntityDeletions: Sendable, Equatable {
        public var rows = 0
        /// "Entity.relationship" (Cascade) → rows.
        public var cascades: [String: Int] = [:]
    }

    private(set) var deleted: [Deleted] = []
    private var position: [Row: Int] = [:]
    /// Rows whose to-one columns Nullify clears.
    private(set) var cleared: [Row: Set<String>] = [:]
    /// Rows that lost a to-many member and change otherwise not at all (`Z_OPT` + 1).
    private(set) var touched: Set<Row> = []
    /// Join rows to delete: the join table and the column that holds a deleted row's `Z_PK`.
    private(set) var joinDeletes: [(join: String, column: String, primaryKey: Int64)] = []
    /// "TABLE.COLUMN (why)" → keys left pointing at deleted rows (No Action, to-one without inverse).
    private(set) var leftReferences: [String: Int] = [:]
    /// Layout columns ("TABLE.COLUMN") that hold those keys (the self-check tolerates them there).
    private(set) var leftColumns: Set<String> = []

    func isDeleted(_ row: Row) -> Bool { position[row] != nil }

    /// Per entity, what is deleted.
    var perEntity: [String: EntityDeletions] {
        var result: [String: EntityDeletions] = [:]
        for item in deleted {
            result[item.entity, default: .init()].rows += 1
            if let cause = item.cascade { result[item.entity, default: .init()].cascades[cause, default: 0] += 1 }
        }
        return result
    }

    mutating func add(_ row: Row, entity: String, cascade: String?) -> Bool {
        guard position[row] == nil else { return false }
        position[row] = deleted.count
        deleted.append(Deleted(row: row, entity: entity, cascade: cascade))
        return true
    }

    mutating func clear(_ row: Row, columns: [String]) { cleared[row, default: []].formUnion(columns) }
    mutating func touch(_ row: Row) { touched.insert(row) }
    mutating func deleteJoinRows(_ join: String, column: String, primaryKey: Int64) {
        joinDeletes.append((join, column, primaryKey))
    }
    mutating func leave(_ table: String, column: String, why: String) {
        leftReferences["\(table).\(column) (\(why))", default: 0] += 1
        leftColumns.insert("\(table).\(column)")
    }

    /// Writes the plan into the store being updated (inside its transaction): keys cleared, `Z_OPT`
    /// raised, join rows and rows deleted. The store's `Z_DA_` triggers keep derived counts.
    func apply(to database: SQLiteDatabase) throws {
        for (row, columns) in cleared.sorted(by: { $0.key < $1.key }) where !isDeleted(row) {
            let statement = try database.prepare(CoreDataSQL.syncNullify(table: row.table, columns: columns.sorted()))
            try statement.bind([.integer(row.primaryKey)])
            _ = try statement.step()
        }
        for row in touched.sorted() where !isDeleted(row) && cleared[row] == nil {
            let statement = try database.prepare(CoreDataSQL.syncTouch(table: row.table))
            try statement.bind([.integer(row.primaryKey)])
            _ = try statement.step()
        }
        for item in joinDeletes {
            let statement = try database.prepare(CoreDataSQL.syncJoinDelete(join: item.join, column: item.column))
            try statement.bind([.integer(item.primaryKey)])
            _ = try statement.step()
        }
        var statements: [String: SQLiteStatement] = [:]
        for item in deleted {
            let statement: SQLiteStatement
            if let prepared = statements[item.row.table] {
                statement = prepared
            } else {
                statement = try database.prepare(CoreDataSQL.syncRowDelete(table: item.row.table))
                statements[item.row.table] = statement
            }
            try statement.bind([.integer(item.row.primaryKey)])
            _ = try statement.step()
            statement.reset()
        }
    }
}
