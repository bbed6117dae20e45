import Foundation

/// Checks a store against a model: which version wrote it (its hashes match), then schema,
/// `Z_PRIMARYKEY`, `Z_ENT` values, dangling keys, persistent history, the cached model, metadata keys and
/// `PRAGMA integrity_check`.
///
/// A store is judged by what Core Data addresses at run time (entity numbers and names, tables,
/// column names and types, join tables, hashes, metadata): history that a store migrated in place keeps
/// (quoted renamed tables, `ADD COLUMN` text, stale indexes, renaming identifiers in `Z_PRIMARYKEY`)
/// is a note, and what Core Data tolerates in real stores (dangling keys) a warning. A store CoreSeed
/// has just built is held to `Standard.freshStore`: the SQL text of a fresh store, no dangling key.
///
/// Every check that queries a table or column first finds it in the `StoredSchema`, so a missing or
/// misnamed one is reported as the schema difference it is, never as an SQLite error.
///
/// Reads the store through a `StoreSnapshot`: one committed state even while an app writes to it (its
/// `-wal` included), never modified, and hardened against a schema altered to hang or mislead a reader.
public struct StoreVerifier {
    /// How strictly a store is judged.
    public enum Standard: Sendable {
        /// What Core Data addresses at run time must agree (any store an app wrote).
        case runTime
        /// Also the SQL text of a fresh store, and no dangling key (a store CoreSeed just built).
        case freshStore
    }

    /// What `verify` found.
    public struct Report: Sendable, Equatable {
        /// The model version whose hashes equal the store's, if any.
        public var matchedVersion: String?
        /// The store's `NSPersistenceFrameworkVersion`.
        public var frameworkVersion: Int?
        /// One line per difference; empty when the store matches.
        public var differences: [String] = []
        /// What Core Data tolerates but a careful reader wants to know (dangling keys in a store
        /// CoreSeed did not build, a differing `NSStoreModelVersionIdentifiers`); `--strict` fails on them.
        public var warnings: [String] = []
        /// Facts worth knowing that are not differences (sidecar files, migration history).
        public var notes: [String] = []
        public var isMatch: Bool { differences.isEmpty }
        /// Whether the store passes: no difference, and no warning when `strict`.
        public func passes(strict: Bool) -> Bool { differences.isEmpty && (!strict || warnings.isEmpty) }
    }

    public let versions: ModelVersions
    public let configuration: String?
    public let standard: Standard
    /// How long `verify(storeAt:)` waits for a lock another process holds on the store before it says the
    /// store is in use.
    public var timeout: Duration
    /// Key columns ("TABLE.COLUMN") whose dangling keys are warnings even in a store CoreSeed wrote:
    /// those a sync left pointing at deleted rows, as Core Data's No Action rule leaves them.
    public var toleratedDangling: Set<String>

    public init(versions: ModelVersions, configuration: String? = nil, standard: Standard = .runTime,
                timeout: Duration = StoreSnapshot.defaultTimeout, toleratedDangling: Set<String> = []) {
        self.versions = versions
        self.configuration = configuration
        self.standard = standard
        self.timeout = timeout
        self.toleratedDangling = toleratedDangling
    }

    /// Verifies the store at `path`.
    public func verify(storeAt path: String) throws -> Report {
        try StoreSnapshot.read(path: path, timeout: timeout) { snapshot in
            var report = Report()
            for sidecar in snapshot.sidecars {
                report.notes.append("sidecar file \(sidecar.name) (\(sidecar.size) bytes) beside the store")
            }
            try verify(snapshot.database, into: &report, storePath: path)
            return report
        }
    }

    /// Verifies an open store (used by the writer on its own temporary file).
    /// `integrity: false` leaves out `PRAGMA integrity_check` (for a caller that runs it alongside).
    /// `storePath`: where the store is (its external binary values live beside it); nil for a store
    /// being written, whose external files are staged and placed with it (not checked here). `values: false` leaves out the check of each value's
    /// form (for the writer: its values came from CoreSeed's own conversions, and the check would
    /// scan every column of the new store).
    public func verify(_ database: SQLiteDatabase, into report: inout Report, integrity: Bool = true,
                       storePath: String? = nil, values: Bool = true) throws {
        let schema = try StoredSchema.read(database)
        guard StoreVerifier.has(schema, table: CoreDataSchema.metadataTable, columns: [CoreDataSchema.metadataTableColumns.uuid, CoreDataSchema.metadataTableColumns.plist]) else {
            let tables = schema.tables.map(\.name).filter { !$0.hasPrefix("sqlite_") }
            report.differences.append("no Z_METADATA table with Z_UUID and Z_PLIST: not a Core Data store (tables: \(tables.isEmpty ? "none" : tables.joined(separator: ", ")))")
            return
        }
        let (_, metadata): (String, StoreMetadata)
        do {
            (_, metadata) = try StoreMetadata.read(from: database)
        } catch let error as FileError {
            report.differences.append("Z_METADATA: \(error.message)")
            return
        } catch let error as SQLiteError {
            report.differences.append("Z_METADATA cannot be read: \(error.message)")
            return
        }
        report.frameworkVersion = metadata.frameworkVersion
        checkMetadataKeys(metadata, into: &report)

        // Which version wrote the store: every entity hash equal, same entity set.
        let candidates = versions.versions.map { ($0, ModelHashes.compute(for: $0)) }
        guard let (model, hashes) = candidates.first(where: { $0.1.entities == metadata.versionHashes }) else {
            let current = candidates.first { $0.0.versionName == versions.currentVersionName } ?? candidates[0]
            report.differences.append("no version of the model matches the store's version hashes (versions: \(versions.versions.map(\.versionName).joined(separator: ", ")))")
            report.differences += hashDifferences(store: metadata.versionHashes, model: current.1, name: current.0.versionName)
            return
        }
        report.matchedVersion = model.versionName
        if metadata.versionIdentifiers != [model.versionIdentifier] {
            let quoted = { (list: [String]) in "[" + list.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
            report.warnings.append("NSStoreModelVersionIdentifiers is \(quoted(metadata.versionIdentifiers)), model version \(model.versionName) says \(quoted([model.versionIdentifier])) (Core Data matches a store by its hashes alone and does not use this key)")
        }
        if let digest = metadata.hashesDigest, digest != hashes.digest {
            report.differences.append("NSStoreModelVersionHashesDigest is \(digest), the model's is \(hashes.digest)")
        }
        if let checksum = metadata.checksum, checksum != hashes.checksum {
            report.differences.append("NSStoreModelVersionChecksumKey is \(checksum), the model's is \(hashes.checksum)")
        }

        let layout = try StoreLayout(model: model, configuration: configuration,
                                     framework: FrameworkVersion(metadata.frameworkVersion))
        checkSchema(schema, layout, into: &report)
        try checkPrimaryKeys(database, schema, layout, model: model, into: &report)
        // A store CoreSeed wrote is held to what CoreSeed writes; any other to what Core Data tolerates.
        let builtByCoreSeed = standard == .freshStore || metadata.other["CoreSeedVersion"] != nil
        try checkRows(database, schema, layout, builtByCoreSeed: builtByCoreSeed, into: &report)
        try checkHistory(database, schema, layout, builtByCoreSeed: builtByCoreSeed, into: &report)
        try checkModelCache(database, schema, matching: hashes, version: model.versionName, fresh: standard == .freshStore, into: &report)
        try checkExternalBinaries(database, schema, layout, model: model, storePath: storePath, builtByCoreSeed: builtByCoreSeed, into: &report)
        if values {
            try checkValues(database, schema, layout, model: model, into: &report)
            try checkRules(database, schema, layout, model: model, builtByCoreSeed: builtByCoreSeed, into: &report)
            try checkLinks(database, schema, layout, model: model, builtByCoreSeed: builtByCoreSeed, into: &report)
        }
        if integrity { report.differences += try StoreVerifier.integrityProblems(database) }
    }

    /// What `PRAGMA integrity_check` finds, one line per problem; empty when it says "ok".
    ///
    /// `quick: true` runs `PRAGMA quick_check` instead: every page, b-tree and record format is
    /// checked, in time linear in the file, but index entries are not looked up row by row against
    /// their tables (the part that grows as N log N).
    public static func integrityProblems(_ database: SQLiteDatabase, quick: Bool = false) throws -> [String] {
        let pragma = quick ? "quick_check" : "integrity_check"
        let integrity = try database.rows("PRAGMA \(pragma)").compactMap { row -> String? in
            if case .text(let text) = row.first { return text }
            return nil
        }
        return integrity == ["ok"] ? [] : integrity.map { "\(pragma): \($0)" }
    }

    private func hashDifferences(store: [String: [UInt8]], model: ModelHashes, name: String) -> [String] {
        StoreVerifier.entityHashDifferences(store, model.entities).map { entity, difference in
            switch difference {
            case .onlyInSecond: "entity \(entity) is in model version \(name) but not in the store"
            case .onlyInFirst: "entity \(entity) is in the store but not in model version \(name)"
            case .differs(let s, let m):
                "entity \(entity): store hash \(Data(s).base64EncodedString()) differs from model version \(name)'s \(Data(m).base64EncodedString())"
            }
        }
    }

    /// How two sets of entity version hashes differ, entity by entity in name order.
    enum HashDifference {
        case onlyInFirst, onlyInSecond
        case differs([UInt8], [UInt8])
    }

    static func entityHashDifferences(_ first: [String: [UInt8]], _ second: [String: [UInt8]]) -> [(String, HashDifference)] {
        Set(first.keys).union(second.keys).sorted().compactMap { entity in
            switch (first[entity], second[entity]) {
            case (nil, _?): (entity, .onlyInSecond)
            case (_?, nil): (entity, .onlyInFirst)
            case let (a?, b?) where a != b: (entity, .differs(a, b))
            default: nil
            }
        }
    }

    private func checkMetadataKeys(_ metadata: StoreMetadata, into report: inout Report) {
        if metadata.versionHashesVersion != 3 {
            report.differences.append("NSStoreModelVersionHashesVersion is \(metadata.versionHashesVersion.map(String.init) ?? "missing"), expected 3")
        }
        if metadata.storeType != "SQLite" {
            report.differences.append("NSStoreType is \"\(metadata.storeType)\", expected \"SQLite\"")
        }
        if metadata.versionHashes.isEmpty {
            report.differences.append("NSStoreModelVersionHashes is missing or empty")
        }
    }
}
