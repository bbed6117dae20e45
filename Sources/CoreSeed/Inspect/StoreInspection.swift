import Foundation

/// What `coreseed inspect` shows about a store: its metadata, entities with row counts, journal mode,
/// page size, auto-vacuum, sidecar files and whether it tracks persistent history.
///
/// The header facts come from the original file's first 100 bytes; everything else through a
/// `StoreSnapshot` (one committed state, the `-wal` included; nothing changed). A store whose tables
/// that inspect reads are views is refused.
public struct StoreInspection: Sendable {
    /// One row of `Z_PRIMARYKEY`, with the number of rows whose `Z_ENT` is this entity.
    public struct EntityRow: Sendable, Equatable {
        public let number: Int64
        public let name: String
        public let superNumber: Int64
        public let max: Int64
        /// Rows of exactly this entity (sub-entities' rows not included); nil when its table is absent.
        public let rows: Int64?
    }

    /// A file beside the store.
    public struct Sidecar: Sendable, Equatable {
        public let name: String
        public let size: Int
    }

    /// What a store that tracks persistent history holds of it (docs/LAYOUT.md, "Persistent history").
    public struct History: Sendable, Equatable {
        /// `ATRANSACTION` rows: saves recorded.
        public let transactions: Int64
        /// `ACHANGE` rows: objects inserted, updated or deleted by them.
        public let changes: Int64
    }

    /// The store as the user named it.
    public let path: String
    public let header: StoreFileHeader
    /// `Z_METADATA.Z_UUID`.
    public let uuid: String?
    /// Every key of `Z_METADATA.Z_PLIST`, in display order (see `metadataKeyOrder`).
    public let metadata: [(key: String, value: PropertyListValue)]
    public let entities: [EntityRow]
    public let sidecars: [Sidecar]
    /// The folder of external-storage values beside the store (`.<name>_SUPPORT/_EXTERNAL_DATA`), when
    /// there is one: its path, and the number and total size of its files.
    public let externalData: (folder: String, files: Int, bytes: Int)?
    /// The persistent history, when the store has the history tables; nil when it does not track it.
    public let history: History?

    /// Known metadata keys, shown first and in this order; any other key follows in UTF-8 order.
    public static let metadataKeyOrder: [String] = [
        StoreMetadata.Key.frameworkVersion, StoreMetadata.Key.maximumFrameworkVersion, StoreMetadata.Key.storeType, StoreMetadata.Key.storeUUID,
        StoreMetadata.Key.versionHashesVersion, StoreMetadata.Key.versionIdentifiers,
        StoreMetadata.Key.hashesDigest, StoreMetadata.Key.checksum, StoreMetadata.Key.autoVacuumLevel,
        StoreMetadata.Key.versionHashes,
    ]

    /// Inspects the store at `path`; `timeout`: how long a lock another process holds on it is waited for.
    public init(path: String, timeout: Duration = StoreSnapshot.defaultTimeout) throws {
        let header = try StoreFileHeader(path: path)
        self = try StoreSnapshot.read(path: path, timeout: timeout) { snapshot in
            try StoreInspection(snapshot, path: path, header: header)
        }
    }

    private init(_ snapshot: StoreSnapshot, path: String, header: StoreFileHeader) throws {
        let database = snapshot.database
        self.path = path
        self.header = header
        self.sidecars = snapshot.sidecars.map { Sidecar(name: $0.name, size: $0.size) }
        let folder = ExternalBinary.dataDirectory(forStoreAt: path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue {
            let files = ExternalDataFolder.files(in: folder)
            let bytes = files.reduce(0) { total, name in
                // Saturating: sizes come from the file system, and sparse files can claim exabytes.
                let (sum, overflow) = total.addingReportingOverflow((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0)
                return overflow ? Int.max : sum
            }
            externalData = (folder, files.count, bytes)
        } else {
            externalData = nil
        }

        let schema = try StoredSchema.read(database)
        let tables = Set(schema.tables.map(\.name))
        let own = "Core Data's own table"
        try schema.refuseAlteredObjects(reading: [(CoreDataSchema.metadataTable, own), (CoreDataSchema.primaryKeyTable, own)],
                                        allowedTriggers: nil, path: path)
        guard tables.contains(CoreDataSchema.metadataTable), tables.contains(CoreDataSchema.primaryKeyTable) else {
            throw FileError(path: path, message: "not a Core Data store: no \(CoreDataSchema.metadataTable) or \(CoreDataSchema.primaryKeyTable) table")
        }

        var uuid: String?
        var metadata: [(String, PropertyListValue)] = []
        if let row = try database.rows(CoreDataSQL.metadataRow).first {
            if case .text(let text) = row[0] { uuid = text }
            if case .blob(let bytes) = row[1] {
                let plist: [String: PropertyListValue]
                do {
                    plist = try StoreMetadata.dictionary(propertyList: bytes)
                } catch {
                    throw FileError(path: path, message: "Z_METADATA: \(error.message)")
                }
                let known = StoreInspection.metadataKeyOrder.filter { plist[$0] != nil }
                let others = plist.keys.filter { !StoreInspection.metadataKeyOrder.contains($0) }
                    .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                metadata = (known + others).map { ($0, plist[$0]!) }
            }
        }
        self.uuid = uuid
        self.metadata = metadata

        let rows = try database.rows(CoreDataSQL.inspectPrimaryKeyRows)
        var parsed: [(Int64, String, Int64, Int64)] = []
        for row in rows {
            guard case .integer(let number) = row[0] else { continue }
            let name: String = if case .text(let n) = row[1] { n } else { "" }
            let superNumber: Int64 = if case .integer(let s) = row[2] { s } else { 0 }
            let max: Int64 = if case .integer(let m) = row[3] { m } else { 0 }
            parsed.append((number, name, superNumber, max))
        }
        let byNumber = Dictionary(parsed.map { ($0.0, $0) }, uniquingKeysWith: { first, _ in first })
        // The root of the hierarchy names the table: Z + upper-cased name (A… for persistent-history entities).
        let candidates = parsed.map { (_, name, superNumber, _) -> [String] in
            var root = name, parent = superNumber, steps = 0
            while parent != 0, let next = byNumber[parent], steps < parsed.count {
                root = next.1
                parent = next.2
                steps += 1
            }
            return [CoreDataSchema.prefixed(root), "A" + CoreDataSchema.uppercased(root)]
        }
        var readers: [(table: String, entities: [String])] = []
        for (entity, names) in zip(parsed, candidates) {
            for table in names {
                if let index = readers.firstIndex(where: { $0.table == table }) {
                    readers[index].entities.append(entity.1)
                } else {
                    readers.append((table, [entity.1]))
                }
            }
        }
        try schema.refuseAlteredObjects(reading: readers.map { table, entities in
            (table, "the table of \(entities.count == 1 ? "entity" : "entities") \(entities.joined(separator: ", "))")
        }, allowedTriggers: nil, path: path)
        var entities: [EntityRow] = []
        for ((number, name, superNumber, max), candidates) in zip(parsed, candidates) {
            var count: Int64?
            if let table = candidates.first(where: tables.contains) {
                let sql = CoreDataSQL.inspectRowCount(table: table)
                if case .integer(let n)? = try database.scalar(sql, [.integer(number)]) { count = n }
            }
            entities.append(EntityRow(number: number, name: name, superNumber: superNumber, max: max, rows: count))
        }
        self.entities = entities
        if CoreDataSchema.History.tables.allSatisfy({ tables.contains($0.name) }) {
            func count(_ sql: String) throws -> Int64 {
                if case .integer(let n)? = try database.scalar(sql) { n } else { 0 }
            }
            history = History(transactions: try count(CoreDataSQL.historyTransactionCount), changes: try count(CoreDataSQL.historyChangeCount))
        } else {
            history = nil
        }
    }
}
