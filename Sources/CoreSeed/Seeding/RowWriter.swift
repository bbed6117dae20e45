/// The statements of the row pass: per entity an insert (and, for a new store, its multi-row form),
/// per entity and source an update (upserts). The producer refers to them by index.
struct RowStatements {
    /// The statements' indexes, which the reading thread puts in each batch row.
    struct Indexes: Sendable {
        /// Per entity: its insert statement's index.
        var insert: [Int32] = []
        /// Per entity: the index of its ``RowWriter/insertRunLength``-row insert, or -1 (updates).
        var insertRun: [Int32] = []
        /// Per entity and source: the update statement's index and, per column, its parameter.
        var update: [[(statement: Int32, parameters: [Int32?])?]] = []
        /// Per entity: its inserts leave `Z_PK` out, for SQLite to number the rows 1, 2, 3, … as they
        /// come (``BuildPlan/numbersByInsertion(_:updatesAStore:)``).
        var numberedByInsertion: [Bool] = []
    }

    var statements: [SQLiteStatement] = []
    var indexes = Indexes()
}

/// The SQLite side of the row pass: binds each row's values to its statement and steps it, counts
/// what upserts changed, then writes the join rows. Not `Sendable`: it owns the connection's statements.
final class RowWriter {
    let writer: StoreWriter
    let prepared: RowStatements
    /// Per entity: stored rows an upsert changed, and those it matched with nothing to change.
    private(set) var updated: [Int]
    private(set) var unchanged: [Int]

    /// Rows per multi-row insert: the statement overhead (cursor, halt, reset) is paid once per run.
    static let insertRunLength = 16

    /// Prepares every statement of the row pass. `numberedByInsertion` says, per entity, whether its
    /// inserts leave `Z_PK` to SQLite; `updateStatement` gives an entity's update for one source in an
    /// upsert (nil: nothing to update).
    init(writer: StoreWriter, seedPlan: SeedPlan, numberedByInsertion: [Bool], updatesAStore: Bool,
         updateStatement: (EntityPlan, Int, SourcePlan) throws -> (SQLiteStatement, [Int32?])?) throws {
        var prepared = RowStatements()
        prepared.indexes.numberedByInsertion = numberedByInsertion
        for (index, entity) in seedPlan.entities.enumerated() {
            prepared.indexes.insert.append(Int32(prepared.statements.count))
            prepared.statements.append(try writer.rowInserter(for: entity.table, entityNumber: entity.number,
                                                              numberedByInsertion: numberedByInsertion[index]))
            if !updatesAStore {
                prepared.indexes.insertRun.append(Int32(prepared.statements.count))
                prepared.statements.append(try writer.rowInserter(for: entity.table, entityNumber: entity.number,
                                                                  numberedByInsertion: numberedByInsertion[index],
                                                                  rows: RowWriter.insertRunLength))
            }
            var updates: [(statement: Int32, parameters: [Int32?])?] = []
            for source in entity.sources {
                if updatesAStore, let (statement, parameters) = try updateStatement(entity, index, source) {
                    updates.append((Int32(prepared.statements.count), parameters))
                    prepared.statements.append(statement)
                } else {
                    updates.append(nil)
                }
            }
            prepared.indexes.update.append(updates)
        }
        self.writer = writer
        self.prepared = prepared
        updated = Array(repeating: 0, count: seedPlan.entities.count)
        unchanged = Array(repeating: 0, count: seedPlan.entities.count)
    }

    /// Writes every batch `handoff` brings. New rows of one table go in runs of ``insertRunLength``
    /// through the multi-row insert, in their order (so rows numbered by insertion keep their numbers);
    /// the rest of a batch's rows one by one at its end.
    func consume(_ handoff: BatchHandoff<RowBatch, any Error>) throws {
        var updateEntity: [Int32: Int] = [:]
        for (index, updates) in prepared.indexes.update.enumerated() {
            for update in updates { if let update { updateEntity[update.statement] = index } }
        }
        // Per statement: its run form, and the value offsets of the rows waiting for a run.
        var runOf = Array(repeating: Int32(-1), count: prepared.statements.count)
        for (entity, run) in prepared.indexes.insertRun.enumerated() { runOf[Int(prepared.indexes.insert[entity])] = run }
        var waiting = Array(repeating: [Int](), count: prepared.statements.count)
        var waitingCount = Array(repeating: 0, count: prepared.statements.count)  // values per waiting row
        let store = writer.store
        while let batch = try handoff.take() {
            // SAFETY: `bytes` is bound in place (`SQLITE_STATIC`) and every row is stepped inside this
            // closure; the deferred clear leaves no binding pointing at the batch once it is gone.
            try batch.bytes.withUnsafeBufferPointer { bytes in
                defer { for statement in prepared.statements { statement.clearBindings() } }
                let base = bytes.baseAddress
                /// Binds the `count` values at `offset` from parameter `first` on.
                func bind(_ statement: SQLiteStatement, offset: Int, count: Int, first: Int32) throws {
                    for parameter in 0..<count {
                        let index = first + Int32(parameter)
                        switch batch.values[offset + parameter] {
                        case .integer(let value): try statement.bindInteger(value, at: index)
                        case .null: try statement.bindNull(at: index)
                        case .real(let value): try statement.bindReal(value, at: index)
                        case .text(let start, let length): try statement.bindStaticText(base.map { $0 + Int(start) }, count: Int(length), at: index)
                        case .blob(let start, let length): try statement.bindStaticBlob(base.map { $0 + Int(start) }, count: Int(length), at: index)
                        case .external(let start, let length, let file):
                            try statement.bind(.blob(try external(batch, start: Int(start), count: Int(length), file: batch.files[Int(file)])), at: index)
                        }
                    }
                }
                var offset = 0
                for (statementIndex, count) in batch.rows {
                    let run = runOf[Int(statementIndex)]
                    if run >= 0 {
                        waiting[Int(statementIndex)].append(offset)
                        waitingCount[Int(statementIndex)] = Int(count)
                        offset += Int(count)
                        guard waiting[Int(statementIndex)].count == RowWriter.insertRunLength else { continue }
                        let statement = prepared.statements[Int(run)]
                        for (row, start) in waiting[Int(statementIndex)].enumerated() {
                            try bind(statement, offset: start, count: Int(count), first: Int32(row) * count + 1)
                        }
                        try statement.step()
                        statement.resetKeepingBindings()
                        waiting[Int(statementIndex)].removeAll(keepingCapacity: true)
                        continue
                    }
                    let statement = prepared.statements[Int(statementIndex)]
                    try bind(statement, offset: offset, count: Int(count), first: 1)
                    offset += Int(count)
                    try statement.step()
                    statement.resetKeepingBindings()
                    if let entity = updateEntity[statementIndex] {
                        if store.changes > 0 { updated[entity] += 1 } else { unchanged[entity] += 1 }
                    }
                }
                // Rows short of a run, one by one and in order, while the batch's bytes are alive.
                for statementIndex in waiting.indices where !waiting[statementIndex].isEmpty {
                    let statement = prepared.statements[statementIndex]
                    for start in waiting[statementIndex] {
                        try bind(statement, offset: start, count: waitingCount[statementIndex], first: 1)
                        try statement.step()
                        statement.resetKeepingBindings()
                    }
                    waiting[statementIndex].removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// Writes the bytes of an external value to its file (staged until the store is installed) and
    /// returns the column value that refers to it: the store side of ``RowMapping/Column/external(_:above:)``.
    private func external(_ batch: RowBatch, start: Int, count: Int, file: RowBatch.ExternalFile) throws -> [UInt8] {
        try writer.externalData.store(batch.bytes[start..<start + count], table: file.table, column: file.column, primaryKey: file.primaryKey)
    }

    /// Writes the join rows of every join table (duplicates ignored when the store already holds some).
    /// Inserts the join rows; per join table, how many were added (an upsert ignores pairs the store
    /// has already).
    @discardableResult
    func writeJoinRows(_ rows: [String: [JoinRow]], layout: StoreLayout, ignoringDuplicates: Bool) throws -> [String: Int] {
        var added: [String: Int] = [:]
        for join in layout.joinTables {
            guard let rows = rows[join.name], !rows.isEmpty else { continue }
            let statement = try writer.joinInserter(for: join, ignoringDuplicates: ignoringDuplicates)
            var count = 0
            for row in rows {
                try statement.bindInteger(row.first, at: 1)
                try statement.bindInteger(row.second, at: 2)
                for (offset, order) in row.orders.enumerated() { try statement.bindInteger(order, at: Int32(3 + offset)) }
                try statement.step()
                count += Int(writer.store.changes)
                statement.reset()
            }
            added[join.name] = count
        }
        return added
    }
}
