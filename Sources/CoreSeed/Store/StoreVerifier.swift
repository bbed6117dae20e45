import Foundation

/// Checks a store against a model: which version wrote it (its hashes match), then schema,
/// `Z_PRIMARYKEY`, `Z_ENT` values, dangling keys, metadata keys and `PRAGMA integrity_check`.
///
/// Works on a `StoreSnapshot`, so a WAL store is read with its `-wal` and never modified.
public struct StoreVerifier {
    /// What `verify` found.
    public struct Report: Sendable, Equatable {
        /// The model version whose hashes equal the store's, if any.
        public var matchedVersion: String?
        /// The store's `NSPersistenceFrameworkVersion`.
        public var frameworkVersion: Int?
        /// One line per difference; empty when the store matches.
        public var differences: [String] = []
        /// Facts worth knowing that are not differences (sidecar files, row counts).
        public var notes: [String] = []
        public var isMatch: Bool { differences.isEmpty }
    }

    public let versions: ModelVersions
    public let configuration: String?

    public init(versions: ModelVersions, configuration: String? = nil) {
        self.versions = versions
        self.configuration = configuration
    }

    /// Verifies the store at `path`.
    public func verify(storeAt path: String) throws -> Report {
        let snapshot = try StoreSnapshot(path: path)
        var report = Report()
        for sidecar in snapshot.sidecars {
            report.notes.append("sidecar file \(sidecar.name) (\(sidecar.size) bytes) beside the store")
        }
        try verify(snapshot.database, into: &report)
        return report
    }

    /// Verifies an open store (used by the writer on its own temporary file).
    /// `integrity: false` leaves out `PRAGMA integrity_check` (for a caller that runs it alongside).
    public func verify(_ database: SQLiteDatabase, into report: inout Report, integrity: Bool = true) throws {
        let (_, metadata): (String, StoreMetadata)
        do {
            (_, metadata) = try StoreMetadata.read(from: database)
        } catch {
            report.differences.append("cannot read Z_METADATA: \(error)")
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
        if let digest = metadata.hashesDigest, digest != hashes.digest {
            report.differences.append("NSStoreModelVersionHashesDigest is \(digest), the model's is \(hashes.digest)")
        }
        if let checksum = metadata.checksum, checksum != hashes.checksum {
            report.differences.append("NSStoreModelVersionChecksumKey is \(checksum), the model's is \(hashes.checksum)")
        }

        let layout = try StoreLayout(model: model, configuration: configuration,
                                     framework: FrameworkVersion(metadata.frameworkVersion))
        try checkSchema(database, layout, into: &report)
        try checkPrimaryKeys(database, layout, into: &report)
        try checkRows(database, layout, into: &report)
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
        var lines: [String] = []
        for entity in Set(store.keys).union(model.entities.keys).sorted() {
            switch (store[entity], model.entities[entity]) {
            case (nil, _?): lines.append("entity \(entity) is in model version \(name) but not in the store")
            case (_?, nil): lines.append("entity \(entity) is in the store but not in model version \(name)")
            case let (s?, m?) where s != m:
                lines.append("entity \(entity): store hash \(Data(s).base64EncodedString()) differs from model version \(name)'s \(Data(m).base64EncodedString())")
            default: break
            }
        }
        return lines
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

    /// Statements Core Data does not derive from the model: SQLite's own and persistent-history tables.
    private static func isForeignStatement(name: String, table: String) -> Bool {
        name.hasPrefix("sqlite_") || ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"].contains(table)
    }

    private func checkSchema(_ database: SQLiteDatabase, _ layout: StoreLayout, into report: inout Report) throws {
        var stored: [String] = []
        for row in try database.rows("SELECT name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid") {
            guard case .text(let name) = row[0], case .text(let table) = row[1], case .text(let sql) = row[2] else { continue }
            if !StoreVerifier.isForeignStatement(name: name, table: table) { stored.append(sql) }
        }
        let expected = layout.statements
        let storedSet = Set(stored), expectedSet = Set(expected)
        for statement in expected where !storedSet.contains(statement) {
            report.differences.append("schema: missing \(statement)")
        }
        for statement in stored where !expectedSet.contains(statement) {
            report.differences.append("schema: unexpected \(statement)")
        }
    }

    private func checkPrimaryKeys(_ database: SQLiteDatabase, _ layout: StoreLayout, into report: inout Report) throws {
        let rows = try database.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
        var found: [Int: (String, Int, Int64)] = [:]
        for row in rows {
            guard case .integer(let ent) = row[0] else { continue }
            let name: String = if case .text(let n) = row[1] { n } else { "" }
            let superNumber: Int64 = if case .integer(let s) = row[2] { s } else { -1 }
            let max: Int64 = if case .integer(let m) = row[3] { m } else { 0 }
            found[Int(ent)] = (name, Int(superNumber), max)
        }
        for entity in layout.entities {
            guard let row = found.removeValue(forKey: entity.number) else {
                report.differences.append("Z_PRIMARYKEY: no row for entity \(entity.name) (Z_ENT \(entity.number))")
                continue
            }
            if row.0 != entity.name || row.1 != entity.superNumber {
                report.differences.append("Z_PRIMARYKEY: Z_ENT \(entity.number) is \(row.0) with Z_SUPER \(row.1), expected \(entity.name) with Z_SUPER \(entity.superNumber)")
            }
            if entity.superNumber == 0, entity.isInConfiguration, layout.table(forEntity: entity.name) != nil {
                let table = entity.tableName
                if case .integer(let highest)? = try database.scalar("SELECT max(Z_PK) FROM \(table)"), highest > row.2 {
                    report.differences.append("Z_PRIMARYKEY: Z_MAX of \(entity.name) is \(row.2) but \(table) holds Z_PK \(highest)")
                }
            }
        }
        for (number, row) in found.sorted(by: { $0.key < $1.key }) {
            report.differences.append("Z_PRIMARYKEY: unexpected row Z_ENT \(number) (\(row.0))")
        }
    }

    private func checkRows(_ database: SQLiteDatabase, _ layout: StoreLayout, into report: inout Report) throws {
        let names = Set(try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { row -> String? in
            if case .text(let name) = row[0] { return name }
            return nil
        })
        for table in layout.tables where names.contains(table.name) {
            let allowed = layout.entities.filter { $0.tableName == table.name && !$0.isAbstract }.map { String($0.number) }
            let list = allowed.isEmpty ? "NULL" : allowed.joined(separator: ", ")
            if case .integer(let bad)? = try database.scalar("SELECT count(*) FROM \(table.name) WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(list))"), bad > 0 {
                report.differences.append("\(table.name): \(bad) row(s) with a Z_ENT that is not a concrete entity of this table (\(list))")
            }
            for column in table.columns {
                guard case .toOne(let entity, let relationship, let destination) = column.role,
                      let target = layout.table(forEntity: destination), names.contains(target.name) else { continue }
                let sql = "SELECT count(*) FROM \(table.name) WHERE \(column.name) IS NOT NULL AND \(column.name) NOT IN (SELECT Z_PK FROM \(target.name))"
                if case .integer(let dangling)? = try database.scalar(sql), dangling > 0 {
                    report.differences.append("\(table.name).\(column.name): \(dangling) dangling key(s) (\(entity).\(relationship) → \(destination))")
                }
            }
        }
        for join in layout.joinTables where names.contains(join.name) {
            for (column, entity) in [(join.firstColumn, join.firstEntity), (join.secondColumn, join.secondEntity)] {
                guard let target = layout.table(forEntity: entity) else { continue }
                let sql = "SELECT count(*) FROM \(join.name) WHERE \(column) NOT IN (SELECT Z_PK FROM \(target.name))"
                if case .integer(let dangling)? = try database.scalar(sql), dangling > 0 {
                    report.differences.append("\(join.name).\(column): \(dangling) dangling key(s) (→ \(entity))")
                }
            }
        }
    }
}
