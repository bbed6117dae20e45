/// Persistent history (`NSPersistentHistoryTrackingKey`) as Core Data records it in a store: the three
/// `A…` tables, their `Z_PRIMARYKEY` rows (entities 16001–16003), and per save one transaction with one
/// change per object. The format and its evidence: docs/LAYOUT.md, "Persistent history".
public enum PersistentHistory {
    /// `NSPersistentHistoryChangeType` (public SDK header): what a change did to its object.
    public enum ChangeType: Int64, Sendable {
        case insert = 0
        case update = 1
        case delete = 2
    }

    /// Why an update of a tracked store that changed stored objects' relationships is refused: Core Data
    /// would record them (and their related objects) as update changes whose `ZCOLUMNS` bits for
    /// relationships are not proven (docs/LAYOUT.md, "Persistent history").
    static func storedRowsRefusal(_ changes: StoreWriter.StoredRowChanges) -> String {
        var parts: [String] = []
        func say(_ count: Int, _ one: String, _ many: String, _ first: String?, _ lead: String) {
            guard count > 0 else { return }
            parts.append("\(count) \(count == 1 ? one : many)" + (first.map { ", \(lead) \($0)" } ?? ""))
        }
        say(changes.updated, "stored row's relationships updated", "stored rows' relationships updated", changes.firstUpdated, "first")
        say(changes.newRowsReferringToStored, "new row refers to a stored row", "new rows refer to stored rows", changes.firstReferring, "through")
        say(changes.joinRowsWithStored, "new join row links a stored row", "new join rows link stored rows", changes.firstJoin, "through")
        return "the store tracks persistent history, and this update changes stored objects (\(parts.joined(separator: "; "))), which Core Data records as update changes whose column bitmap (ZCOLUMNS) CoreSeed cannot yet write for relationships; nothing was replaced: update only attribute values and new rows that do not refer to stored ones, or pass \(RunOption.noHistory) to update it without history"
    }

    /// Notes, on this connection, each stored row an update changes and which of its columns
    /// (``StoreWriter/recordUpdateHistory(_:formerMaxima:updatedRows:addedJoinRows:)`` reads them).
    static func watchUpdates(in database: SQLiteDatabase, layout: StoreLayout) throws(SQLiteError) {
        try database.execute(CoreDataSQL.createHistoryUpdates)
        for table in layout.tables { try database.execute(CoreDataSQL.historyUpdateTrigger(table)) }
    }

    /// One stored object an update changed: its entity number, `Z_PK` and `ZCOLUMNS` bitmap.
    struct Update: Equatable {
        let entity: Int64
        let key: Int64
        let columns: [UInt8]
    }

    /// Whether the store has the history tables.
    public static func isTracked(_ database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        guard case .integer(let count)? = try database.scalar(CoreDataSQL.historyTableCount) else { return false }
        return count > 0
    }

    /// Creates the history tables and indexes in a new store (after `Z_MODELCACHE`, as in the corpus
    /// store's `sqlite_master`), `ACHANGE` with `tombstones` tombstone columns.
    static func createTables(in database: SQLiteDatabase, tombstones: Int) throws(SQLiteError) {
        for table in CoreDataSchema.History.tables(tombstones: tombstones) { try database.execute(CoreDataSQL.createHistoryTable(table)) }
        for index in CoreDataSQL.createHistoryIndexes { try database.execute(index) }
    }

    /// Records `transaction` in a store that has the history tables: its strings (each once, reusing
    /// those already stored), the transaction row, one insert change per row of `layout`'s tables whose
    /// `Z_PK` is above its hierarchy's `formerMaxima` entry (0 or absent: every row), one update change
    /// per entry of `updates`, and the three
    /// `Z_MAX` values; nothing when there is no such row (no save, no transaction). `Z_PRIMARYKEY` must
    /// hold the history rows. Returns the number of changes.
    @discardableResult
    static func record(_ transaction: HistoryTransaction, in database: SQLiteDatabase, layout: StoreLayout,
                       formerMaxima: [String: Int64], updates: [Update] = []) throws(SQLiteError) -> Int64 {
        let history = CoreDataSchema.History.self
        var maxima = try highestKeys(database)
        var strings: [String: Int64] = [:]
        func stringKey(_ text: String?) throws(SQLiteError) -> SQLiteValue {
            guard let text else { return .null }
            if let key = strings[text] { return .integer(key) }
            if case .integer(let key)? = try database.scalar(CoreDataSQL.historyStringLookup, [.text(text)]) {
                strings[text] = key
                return .integer(key)
            }
            maxima.strings += 1
            let insert = try database.prepare(CoreDataSQL.historyStringInsert)
            try insert.bind([.integer(maxima.strings), .text(text)])
            try insert.step()
            strings[text] = maxima.strings
            return .integer(maxima.strings)
        }
        // The changes first, of the next transaction: a save that inserted nothing records none.
        let before = maxima.changes, transactionKey = maxima.transactions + 1
        for table in layout.tables {
            let changes = try database.prepare(CoreDataSQL.historyChangesOfRows(table: table.name))
            try changes.bind([.integer(maxima.changes), .integer(ChangeType.insert.rawValue), .integer(transactionKey),
                              .integer(formerMaxima[table.rootEntity] ?? 0)])
            try changes.step()
            maxima.changes += database.changes
        }
        // Then one update change per changed stored object, after the inserts (Core Data's order follows
        // its sets of objects; no reader depends on it).
        if !updates.isEmpty {
            let insert = try database.prepare(CoreDataSQL.historyStoredChangeInsert)
            for update in updates {
                maxima.changes += 1
                try insert.bind([.integer(maxima.changes), .integer(ChangeType.update.rawValue), .integer(update.entity), .integer(update.key),
                                 .integer(transactionKey), .blob(update.columns)])
                try insert.step()
                insert.reset()
            }
        }
        guard maxima.changes > before else { return 0 }
        // Column order of ATRANSACTION: author, bundle id, context name, process id.
        let references = [try stringKey(transaction.author), try stringKey(transaction.bundleID),
                          try stringKey(transaction.contextName), try stringKey(transaction.processID)]
        maxima.transactions = transactionKey
        // Never before a stored transaction: history is read and pruned by date too (fetchHistory(after:),
        // deleteHistory(before:)), so a transaction dated before its predecessors would be misread.
        var timestamp = transaction.timestamp
        if case .real(let latest)? = try database.scalar(CoreDataSQL.historyLatestTimestamp), latest > timestamp { timestamp = latest }
        let insert = try database.prepare(CoreDataSQL.historyTransactionInsert)
        try insert.bind([.integer(maxima.transactions)] + references + [.real(timestamp)])
        try insert.step()
        let raise = try database.prepare(CoreDataSQL.primaryKeyMaxSet)
        for (table, max) in zip(history.tables, [maxima.changes, maxima.transactions, maxima.strings]) {
            try raise.bind([.integer(max), .integer(Int64(table.number))])
            try raise.step()
            raise.reset()
        }
        return maxima.changes - before
    }

    /// Inserts the three history rows of `Z_PRIMARYKEY` (`Z_MAX` 0; `record` raises them).
    static func insertPrimaryKeyRows(in database: SQLiteDatabase) throws(SQLiteError) {
        let insert = try database.prepare(CoreDataSQL.primaryKeyInsert)
        for table in CoreDataSchema.History.tables {
            try insert.bind([.integer(Int64(table.number)), .text(table.entity), .integer(0), .integer(0)])
            try insert.step()
            insert.reset()
        }
    }

    /// The `Z_MAX` of the history entities: Core Data numbers new rows above it, even when older rows
    /// were deleted (`NSPersistentHistoryChangeRequest.deleteHistory`), so a stored row's key is never reused.
    private static func highestKeys(_ database: SQLiteDatabase) throws(SQLiteError) -> (changes: Int64, transactions: Int64, strings: Int64) {
        var result: [Int64] = []
        for table in CoreDataSchema.History.tables {
            let value = try database.scalar(CoreDataSQL.primaryKeyMaxOfNumber, [.integer(Int64(table.number))])
            if case .integer(let max)? = value { result.append(max) } else { result.append(0) }
        }
        return (result[0], result[1], result[2])
    }
}

/// One save's transaction as `PersistentHistory.record` writes it. Strings are stored once each in
/// `ATRANSACTIONSTRING` and referred to by key.
public struct HistoryTransaction: Sendable, Equatable {
    /// `NSManagedObjectContext.transactionAuthor`.
    public var author: String?
    /// The bundle identifier of the process that saved (`Bundle.main.bundleIdentifier` in an app).
    public var bundleID: String
    /// `NSManagedObjectContext.name`: nil, as CoreSeed has no context to name.
    public var contextName: String?
    /// The saving process's name (`ProcessInfo.processName`).
    public var processID: String
    /// When the transaction was saved: seconds since 2001-01-01 00:00:00 UTC (Core Data's reference date).
    public var timestamp: Double

    /// The author unless `--author` names another.
    public static let defaultAuthor = "coreseed"
    /// The bundle id CoreSeed records: a command-line tool has no bundle, so the reverse-DNS name the
    /// project's own tools use (`org.coreseed.…`).
    public static let defaultBundleID = "org.coreseed.coreseed"
    /// The process name CoreSeed records: its executable's name.
    public static let defaultProcessID = "coreseed"

    public init(author: String? = defaultAuthor, bundleID: String = defaultBundleID, contextName: String? = nil,
                processID: String = defaultProcessID, timestamp: Double = 0) {
        self.author = author
        self.bundleID = bundleID
        self.contextName = contextName
        self.processID = processID
        self.timestamp = timestamp
    }
}
