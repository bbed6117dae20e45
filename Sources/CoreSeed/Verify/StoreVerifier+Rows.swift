import Foundation

/// The checks that read rows: `Z_PRIMARYKEY`, `Z_ENT` values, dangling keys. Each first finds its table
/// and columns in the `StoredSchema`; what is missing was already reported by the schema check.
extension StoreVerifier {
    /// Whether `table` exists with every one of `columns`.
    static func has(_ schema: StoredSchema, table: String, columns: [String]) -> Bool {
        guard let stored = schema.table(table) else { return false }
        let names = Set(stored.columns.map(\.name))
        return columns.allSatisfy(names.contains)
    }

    func checkPrimaryKeys(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, model: Model,
                          into report: inout Report) throws {
        let table = CoreDataSchema.primaryKeyTable
        let columns = CoreDataSchema.primaryKeyTableColumns
        guard StoreVerifier.has(schema, table: table, columns: [columns.entity, columns.name, columns.superEntity, columns.max]) else { return }
        let rows = try database.rows(CoreDataSQL.verifyPrimaryKeyRows)
        var found: [Int: (name: String, superNumber: Int, max: Int64)] = [:]
        for row in rows {
            guard case .integer(let ent) = row[0] else { continue }
            let name: String = if case .text(let n) = row[1] { n } else { "" }
            let superNumber: Int64 = if case .integer(let s) = row[2] { s } else { -1 }
            guard case .integer(let max) = row[3] else {
                // Not read as 0: a Z_MAX that is not an integer is damage of its own.
                report.differences.append("Z_PRIMARYKEY: Z_MAX of \(name) is \(ExistingRows.shown(row[3])), not an integer")
                continue
            }
            found[Int(ent)] = (name, Int(superNumber), max)
        }
        let renamingIdentifiers = Dictionary(model.entities.compactMap { entity in
            entity.renamingIdentifier.map { (entity.name, $0) }
        }, uniquingKeysWith: { first, _ in first })
        var misplaced: [Int] = []
        for entity in layout.entities {
            guard let row = found.removeValue(forKey: entity.number) else {
                if let elsewhere = found.first(where: { $0.value.name == entity.name }) {
                    misplaced.append(elsewhere.key)
                    report.differences.append("Z_PRIMARYKEY: entity \(entity.name) is Z_ENT \(elsewhere.key), expected Z_ENT \(entity.number) (Core Data would read its rows as another entity)")
                } else {
                    report.differences.append("Z_PRIMARYKEY: no row for entity \(entity.name) (Z_ENT \(entity.number))")
                }
                continue
            }
            var nameAgrees = row.name == entity.name
            if !nameAgrees, standard == .runTime, let old = renamingIdentifiers[entity.name], row.name == old {
                nameAgrees = true
                report.notes.append("migrated in place: Z_PRIMARYKEY names entity \(entity.name) (Z_ENT \(entity.number)) by its renaming identifier '\(old)'")
            }
            if !nameAgrees || row.superNumber != entity.superNumber {
                report.differences.append("Z_PRIMARYKEY: Z_ENT \(entity.number) is \(row.name) with Z_SUPER \(row.superNumber), expected \(entity.name) with Z_SUPER \(entity.superNumber)")
            }
            if entity.superNumber == 0, entity.isInConfiguration, layout.table(forEntity: entity.name) != nil,
               StoreVerifier.has(schema, table: entity.tableName, columns: [CoreDataSchema.primaryKey]) {
                if case .integer(let highest)? = try database.scalar(CoreDataSQL.verifyHighestKey(table: entity.tableName)), highest > row.max {
                    if row.max == -1, standard == .runTime {
                        // An in-place migration leaves -1 for "no key handed out yet" (§4c.6, artsy-folio-1.4);
                        // Core Data's next key is still max(Z_PK) + 1.
                        report.notes.append("migrated in place: Z_MAX of \(entity.name) is -1 (no key handed out since the migration); the next key is \(highest) + 1")
                    } else {
                        report.differences.append("Z_PRIMARYKEY: Z_MAX of \(entity.name) is \(row.max) but \(entity.tableName) holds Z_PK \(highest)")
                    }
                }
            }
        }
        for (number, row) in found.sorted(by: { $0.key < $1.key }) where !misplaced.contains(number) {
            report.differences.append("Z_PRIMARYKEY: unexpected row Z_ENT \(number) (\(row.name))")
        }
    }

    func checkRows(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, builtByCoreSeed: Bool,
                   into report: inout Report) throws {
        let key = CoreDataSchema.primaryKey
        func dangling(_ line: String, column: String) {
            if builtByCoreSeed && !toleratedDangling.contains(column) { report.differences.append(line) } else { report.warnings.append(line + " (Core Data does not enforce foreign keys; a store it wrote may hold these)") }
        }
        for table in layout.tables where StoreVerifier.has(schema, table: table.name, columns: [key, CoreDataSchema.entityColumn]) {
            let allowed = layout.entities.filter { $0.tableName == table.name && !$0.isAbstract }.map { String($0.number) }
            let list = allowed.isEmpty ? "NULL" : allowed.joined(separator: ", ")
            if case .integer(let bad)? = try database.scalar(CoreDataSQL.verifyStrayEntityRows(table: table.name, entityNumbers: list)), bad > 0 {
                report.differences.append("\(table.name): \(bad) row(s) with a Z_ENT that is not a concrete entity of this table (\(list))")
            }
            for column in table.columns {
                // A to-one key points at its destination; a to-many's hidden key back at its source.
                let destination: String, meaning: String
                switch column.role {
                case .toOne(let owner, let name, let to): (destination, meaning) = (to, "\(owner).\(name) → \(to)")
                case .toManyKey(let owner, let name, _): (destination, meaning) = (owner, "the \(owner) whose \(name) holds the row")
                default: continue
                }
                guard let target = layout.table(forEntity: destination),
                      StoreVerifier.has(schema, table: table.name, columns: [column.name]),
                      StoreVerifier.has(schema, table: target.name, columns: [key]) else { continue }
                let sql = CoreDataSQL.verifyDanglingKeys(table: table.name, column: column.name, target: target.name)
                if case .integer(let count)? = try database.scalar(sql), count > 0 {
                    dangling("\(table.name).\(column.name): \(count) dangling key(s) (\(meaning))", column: "\(table.name).\(column.name)")
                }
            }
        }
        for join in layout.joinTables {
            for (column, entity) in [(join.firstColumn, join.firstEntity), (join.secondColumn, join.secondEntity)] {
                guard let target = layout.table(forEntity: entity),
                      StoreVerifier.has(schema, table: join.name, columns: [column]),
                      StoreVerifier.has(schema, table: target.name, columns: [key]) else { continue }
                let sql = CoreDataSQL.verifyDanglingJoinKeys(join: join.name, column: column, target: target.name)
                if case .integer(let count)? = try database.scalar(sql), count > 0 {
                    // The rows named by their pair: a join row has no Z_PK.
                    let pairsSQL = CoreDataSQL.verifyDanglingJoinPairs(join: join.name, column: column, target: target.name,
                                                                       first: join.firstColumn, second: join.secondColumn)
                    let pairs = try database.rows(pairsSQL).map { row in
                        "\(join.firstColumn) \(ExistingRows.shown(row[0])) with \(join.secondColumn) \(ExistingRows.shown(row[1]))"
                    }
                    dangling("\(join.name).\(column): \(count) dangling key(s) (→ \(entity)) (\(pairs.joined(separator: "; "))\(count > 5 ? "; …" : ""))", column: "\(join.name).\(column)")
                }
            }
        }
    }
}

extension StoreVerifier {
    /// Every value of a Binary attribute that allows external storage must carry Core Data's marker
    /// (`ExternalBinary`): an unmarked value is read as a reference to a file that cannot exist. A
    /// reference's file must be a regular file beside the store (not a symbolic link, FIFO or folder).
    /// A store with references but no support folder (copied without it) is a difference when CoreSeed
    /// built it, else a warning. The column holds the marker and UUID only, no size: a file's length
    /// is not recorded anywhere to compare with.
    func checkExternalBinaries(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, model: Model,
                               storePath: String?, builtByCoreSeed: Bool = false, into report: inout Report) throws {
        let directory = storePath.map(ExternalBinary.dataDirectory(forStoreAt:))
        var folderExists: ObjCBool = false
        let hasFolder = directory.map { FileManager.default.fileExists(atPath: $0, isDirectory: &folderExists) && folderExists.boolValue } ?? false
        var unfiled = 0
        for storage in layout.externalStorageColumns {
            guard StoreVerifier.has(schema, table: storage.table, columns: [CoreDataSchema.primaryKey, storage.column]) else { continue }
            let sql = CoreDataSQL.verifyValues(table: storage.table, column: storage.column)
            var malformed: [Int64] = [], missing: [Int64] = [], irregular: [Int64] = []
            for row in try database.rows(sql) {
                guard case .integer(let key) = row[0] else { continue }
                let bytes: [UInt8]
                switch row[1] {
                case .blob(let blob): bytes = blob
                case .text(let text): bytes = Array(text.utf8)
                default: malformed.append(key); continue
                }
                switch ExternalBinary.decode(bytes) {
                case .inline: break
                case .malformed: malformed.append(key)
                case .reference(let uuid):
                    // A store being written (no path): its files are staged beside it, placed with it.
                    guard let directory else { continue }
                    if !hasFolder { unfiled += 1; continue }
                    if let info = try? FileSystem.linkStatus(FilePath(directory).appending(uuid)) {
                        if !info.isRegularFile { irregular.append(key) }
                    } else { missing.append(key) }
                }
            }
            let rows = { (keys: [Int64]) in keys.prefix(5).map(String.init).joined(separator: ", ") + (keys.count > 5 ? ", …" : "") }
            if !malformed.isEmpty {
                report.differences.append("\(storage.table).\(storage.column): \(malformed.count) value(s) without Core Data's external-storage marker (Z_PK \(rows(malformed))): \(storage.entity).\(storage.attribute) allows external storage, so Core Data reads them as references to files that do not exist")
            }
            if !missing.isEmpty {
                report.differences.append("\(storage.table).\(storage.column): \(missing.count) value(s) refer to external files that are missing from \(directory ?? "the store's support folder") (Z_PK \(rows(missing)))")
            }
            if !irregular.isEmpty {
                report.differences.append("\(storage.table).\(storage.column): \(irregular.count) value(s) refer to entries of \(directory ?? "the store's support folder") that are not regular files (a symbolic link, FIFO or folder) (Z_PK \(rows(irregular)))")
            }
        }
        if unfiled > 0, let directory {
            let line = "\(unfiled) external binary value(s) refer to files in \(directory), which is not beside the store (copied without its support folder?); Core Data cannot read them"
            if builtByCoreSeed { report.differences.append(line) } else { report.warnings.append(line) }
        }
    }
}
