import Foundation

/// Writes a new store: schema from a `StoreLayout`, rows through prepared inserts inside one transaction,
/// then indexes, `Z_PRIMARYKEY`, `Z_METADATA`, checks, and an atomic rename over the target.
///
/// The store is built in a temporary file beside the target (same folder, so the rename is atomic) with
/// no journal and `synchronous=OFF`; only a finished, checked file replaces the target. If the writer is
/// released without `finish()`, the temporary file is removed and the target is untouched.
/// Not `Sendable`: it owns an open connection.
public final class StoreWriter {
    public let layout: StoreLayout
    public let targetPath: String
    /// The temporary file being built.
    public let temporaryPath: String
    private var database: SQLiteDatabase?
    private var finished = false
    /// The temporary file's removal on SIGINT/SIGTERM, until it is renamed into place or removed.
    private var cleanup: InterruptCleanup.Registration?
    /// How long a lock another process holds on the store being replaced or read is waited for.
    public let timeout: Duration
    /// The store's external files (values of external-storage attributes above `externalAbove`).
    public let externalData: ExternalDataFolder
    /// The lock on the store an upsert replaces, from before it is read until its update is in place.
    private var lock: StoreLock?

    /// Creates the temporary file and the entity and join tables. Indexes come after the load:
    /// building an index once over the loaded table is cheaper than keeping it up row by row.
    public init(layout: StoreLayout, targetPath: String, timeout: Duration = StoreSnapshot.defaultTimeout) throws(FileError) {
        let targetPath = StoreWriter.throughSymlinks(targetPath)
        self.layout = layout
        self.timeout = timeout
        self.targetPath = targetPath
        self.externalData = ExternalDataFolder(targetStore: targetPath, sourceStore: nil)
        try ExternalDataFolder.refuseSharedSupportFolder(targetPath)
        self.temporaryPath = StoreLocations(targetPath).temporary
        cleanup = try StoreInstall.prepare(temporary: temporaryPath, besides: targetPath, reportedAs: targetPath)
        do {
            self.database = try StoreWriter.create(at: temporaryPath, layout: layout)
        } catch {
            StoreInstall.removeStore(at: temporaryPath)
            throw FileError(.cannotWriteOutput, path: targetPath, message: "cannot create the store: \(error.description)")
        }
    }

    /// Opens a copy of the existing store at `targetPath` for an upsert: a consistent copy through SQLite's
    /// backup API (its `-wal` included) in the temporary file, where rows are then added and updated.
    /// The existing store is read, never written, until the finished copy replaces it.
    /// `writingTo`: where the updated store goes (`--into A --output B`); the store itself by default,
    /// and then `A` is left as it was.
    public init(updating sourcePath: String, writingTo output: String? = nil, layout: StoreLayout,
                timeout: Duration = StoreSnapshot.defaultTimeout) throws(FileError) {
        let targetPath = StoreWriter.throughSymlinks(output ?? sourcePath)
        self.layout = layout
        self.timeout = timeout
        self.targetPath = targetPath
        self.externalData = ExternalDataFolder(targetStore: targetPath, sourceStore: StoreWriter.throughSymlinks(sourcePath))
        try ExternalDataFolder.refuseSharedSupportFolder(targetPath)
        // Held until the update is in place: a second update of the store waits for this one.
        self.lock = try StoreLock.acquire(targetPath, timeout: timeout)
        self.temporaryPath = StoreLocations(targetPath).temporary
        cleanup = try StoreInstall.prepare(temporary: temporaryPath, besides: targetPath, reportedAs: targetPath)
        let temporaryPath = self.temporaryPath
        do {
            self.database = try StoreSnapshot.read(path: sourcePath, timeout: timeout) { snapshot in
                StoreInstall.removeStore(at: temporaryPath)
                do {
                    return try StoreWriter.copy(snapshot.database, to: temporaryPath)
                } catch let error as SQLiteError {
                    throw FileError(.cannotWriteOutput, path: targetPath, message: "cannot copy the existing store: \(error.description)")
                }
            }
        } catch {
            StoreInstall.removeStore(at: temporaryPath)
            cleanup.map(InterruptCleanup.unregister)
            cleanup = nil
            throw error as? FileError ?? FileError(path: sourcePath, message: "cannot read the store: \(FileError.words(error))")
        }
    }

    /// A copy of `source` (in its read transaction) at `path` through SQLite's online backup API, open for writing.
    private static func copy(_ source: SQLiteDatabase, to path: String) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        try source.backup(into: database)
        // The store's Z_DA_ triggers call these when rows change; the counts update all the same.
        try database.registerInertFunctions(DerivedCount.triggerFunctions)
        try database.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -8192; BEGIN")
        return database
    }

    /// The connection to the store being built (for reading existing rows during an upsert).
    public var store: SQLiteDatabase { connection }

    /// Finishes an upsert: raises `Z_MAX` where rows were added, sets `extraMetadata` keys in the
    /// existing metadata (the store keeps its UUID and hashes), gives an empty `Z_MODELCACHE` the row
    /// `modelCache` (a store's own cache is kept as it is), then checks and renames like `finish`.
    public func finishUpdate(maxPrimaryKeys: [String: Int64], extraMetadata: [String: PropertyListValue], modelCache: [UInt8]? = nil,
                             check: (SQLiteDatabase) throws -> [String]) throws {
        do {
            try completeUpdate(connection, maxPrimaryKeys: maxPrimaryKeys, extraMetadata: extraMetadata, modelCache: modelCache)
        } catch {
            throw StoreWriter.writeFailure(error, path: targetPath)
        }
        try install(check: check)
    }

    /// The file a symlinked output points at (followed to its end), so that the store replaces that file
    /// and the link stays a link; `path` itself when it is not a symlink.
    static func throughSymlinks(_ path: String) -> String {
        var current = path
        for _ in 0..<32 {
            guard let info = try? FileSystem.linkStatus(FilePath(current)), info.isSymbolicLink,
                  let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else { return current }
            current = destination.hasPrefix("/") ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(destination).path
        }
        return current
    }

    /// A failure while the store was written, said of the output (the user's file, never the temporary
    /// one), with the likely cause when the file could not grow.
    public static func writeFailure(_ error: any Error, path: String) -> FileError {
        guard let error = error as? SQLiteError else {
            return error as? FileError ?? FileError(.cannotWriteOutput, path: path, message: "cannot write the store: \(FileError.words(error))")
        }
        let cause = [SQLiteResultCode.full, .ioError].contains(error.code.primary)
            ? FileError.fileCannotGrowHint : ""
        return FileError(.cannotWriteOutput, path: path, message: "cannot write the store: \(error.message)\(cause); nothing was replaced")
    }

    private func completeUpdate(_ database: SQLiteDatabase, maxPrimaryKeys: [String: Int64],
                                extraMetadata: [String: PropertyListValue], modelCache: [UInt8]?) throws {
        let raise = try database.prepare(CoreDataSQL.primaryKeyMaxRaise)
        for (entity, max) in maxPrimaryKeys.sorted(by: { $0.key < $1.key }) {
            try raise.bind([.integer(max), .text(entity), .integer(max)])
            try raise.step()
            raise.reset()
        }
        if !extraMetadata.isEmpty {
            var (_, metadata) = try StoreMetadata.read(from: database)
            for (key, value) in extraMetadata { metadata.other[key] = value }
            let write = try database.prepare(CoreDataSQL.metadataUpdate)
            try write.bind([.blob(metadata.binaryPropertyList())])
            try write.step()
        }
        if let modelCache, !(try database.rows(CoreDataSQL.modelCacheTableExists)).isEmpty,
           try database.rows(CoreDataSQL.modelCacheContent).isEmpty {
            let row = try database.prepare(CoreDataSQL.modelCacheInsert)
            try row.bind([.blob(modelCache)])
            try row.step()
        }
        try database.execute("COMMIT")
        try database.execute("PRAGMA locking_mode = NORMAL; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; SELECT count(*) FROM sqlite_master")
    }

    private static func create(at path: String, layout: StoreLayout) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        // Page size and auto-vacuum must be set before the first table exists.
        try database.execute("""
            PRAGMA page_size = 4096; PRAGMA auto_vacuum = INCREMENTAL; PRAGMA encoding = 'UTF-8';
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA cache_size = -8192
            """)
        try database.execute("BEGIN")
        for table in layout.tables {
            try database.execute(CoreDataSQL.createTable(table))
            for join in layout.joinTables where layout.entity(named: join.firstEntity)?.tableName == table.name {
                try database.execute(CoreDataSQL.createJoinTable(join))
            }
        }
        return database
    }

    deinit {
        if !finished {
            database = nil
            StoreInstall.removeStore(at: temporaryPath)
            externalData.abandon()
        }
        cleanup.map(InterruptCleanup.unregister)
    }

    /// Gives up: closes and removes the temporary file now (the target is untouched). A failed build
    /// calls this rather than relying on `deinit`, which may come too late when the process exits.
    public func abandon() {
        guard !finished else { return }
        database = nil
        StoreInstall.removeStore(at: temporaryPath)
        externalData.abandon()
        finished = true
        cleanup.map(InterruptCleanup.unregister)
        cleanup = nil
    }

    private var connection: SQLiteDatabase {
        guard let database else { preconditionFailure("StoreWriter used after finish()") }
        return database
    }

    /// A prepared insert of every column of `table`, in column order (parameter i+1 is column i).
    ///
    /// With `entityNumber`, `Z_ENT` and `Z_OPT` are written into the statement as constants (the
    /// entity's number and 1) and take no parameter: parameters then follow the other columns in order.
    ///
    /// With `numberedByInsertion`, `Z_PK` is left out and SQLite assigns it (the rowid: one more than the
    /// highest so far), which saves a lookup per row when rows arrive numbered 1, 2, 3, … anyway.
    /// `rows` > 1 prepares one statement that inserts that many rows (`VALUES (…), (…), …`, the
    /// parameters row after row): SQLite opens the table once for all of them.
    public func rowInserter(for table: StoreLayout.Table, entityNumber: Int? = nil,
                            numberedByInsertion: Bool = false, rows: Int = 1) throws(SQLiteError) -> SQLiteStatement {
        try connection.prepare(CoreDataSQL.rowInsert(table, entityNumber: entityNumber, numberedByInsertion: numberedByInsertion, rows: rows))
    }

    /// A prepared insert into a join table: first key, second key, then the order columns.
    public func joinInserter(for join: StoreLayout.JoinTable, ignoringDuplicates: Bool = false) throws(SQLiteError) -> SQLiteStatement {
        try connection.prepare(CoreDataSQL.joinInsert(join, ignoringDuplicates: ignoringDuplicates))
    }

    private func complete(_ database: SQLiteDatabase, maxPrimaryKeys: [String: Int64], uuid: String,
                          metadata: StoreMetadata, modelCache: [UInt8]?, history: HistoryTransaction?) throws(SQLiteError) {
        let timing = PhaseTiming()
        for index in layout.indexes { try database.execute(index.sql) }
        timing.mark("  indexes")
        // Rows were loaded without the triggers of derived attributes: set the values, then create them.
        for derived in layout.derivedCounts { try database.execute(derived.fillSQL) }
        for derived in layout.derivedKeyPaths { try database.execute(derived.fillSQL) }
        for trigger in layout.triggers { try database.execute(trigger) }
        try database.execute(CoreDataSchema.createPrimaryKeyTable)
        try database.execute(CoreDataSchema.createMetadataTable)
        if layout.framework.hasModelCache {
            try database.execute(CoreDataSchema.createModelCacheTable)
            if let modelCache {
                let row = try database.prepare(CoreDataSQL.modelCacheInsert)
                try row.bind([.blob(modelCache)])
                try row.step()
            }
        }
        if history != nil { try PersistentHistory.createTables(in: database, tombstones: layout.historyTombstoneCount) }
        let primaryKey = try database.prepare(CoreDataSQL.primaryKeyInsert)
        for entity in layout.entities {
            let max = entity.superNumber == 0 ? (maxPrimaryKeys[entity.name] ?? 0) : 0
            try primaryKey.bind([.integer(Int64(entity.number)), .text(entity.name), .integer(Int64(entity.superNumber)), .integer(max)])
            try primaryKey.step()
            primaryKey.reset()
        }
        if let history {
            try PersistentHistory.insertPrimaryKeyRows(in: database)
            try PersistentHistory.record(history, in: database, layout: layout, formerMaxima: [:])
        }
        let metadataRow = try database.prepare(CoreDataSQL.metadataInsert)
        try metadataRow.bind([.text(uuid), .blob(metadata.binaryPropertyList())])
        try metadataRow.step()
        try database.execute("COMMIT")
        timing.mark("  fixed tables, commit")
        // Leaving exclusive locking mode takes effect at the next read: do one, so that the checks'
        // second connection can read the file.
        try database.execute("PRAGMA locking_mode = NORMAL; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; SELECT count(*) FROM sqlite_master")
        timing.mark("  journal mode")
    }

    /// Finishes the store: indexes, `Z_PRIMARYKEY` (with `maxPrimaryKeys` per root entity), fixed tables
    /// (`Z_MODELCACHE` with `modelCache` as its one row when given), `Z_METADATA`; commits; switches to
    /// `journal_mode=DELETE`; runs `check` (a `verify` of the finished file); then renames it over the target.
    /// With `history`, the store gets the persistent-history tables and every row an insert change of
    /// that one transaction.
    public func finish(maxPrimaryKeys: [String: Int64], uuid: String, metadata: StoreMetadata, modelCache: [UInt8]? = nil,
                       history: HistoryTransaction? = nil, check: (SQLiteDatabase) throws -> [String]) throws {
        let database = connection
        do {
            try complete(database, maxPrimaryKeys: maxPrimaryKeys, uuid: uuid, metadata: metadata, modelCache: modelCache, history: history)
        } catch {
            throw StoreWriter.writeFailure(error, path: targetPath)
        }
        try install(check: check)
    }

    /// Checks the finished temporary file, closes it, and renames it over the target.
    private func install(check: (SQLiteDatabase) throws -> [String]) throws {
        let timing = PhaseTiming()
        let problems = try check(connection)
        timing.mark("  quick_check and verification")
        if !problems.isEmpty {
            throw FileError(path: targetPath, message: "the built store fails its own verification: " + problems.joined(separator: "; "))
        }
        let referenced: Set<String>
        do {
            referenced = try ExternalDataFolder.references(in: connection, layout: layout)
        } catch {
            throw StoreWriter.writeFailure(error, path: targetPath)
        }
        self.database = nil  // closes the connection: the file is complete on disk
        // A new store takes the lock now; an update has held it since before it read the store, which
        // must be as it was then (no other writer in between).
        defer { lock = nil }
        try StoreInstall.install(temporaryPath, over: targetPath, lock: lock, referenced: referenced, externalData: externalData,
                                 keepOwnership: true, what: "the finished store", timeout: timeout) {
            finished = true
            timing.mark("  close, fsync, rename")
        }
    }
}
