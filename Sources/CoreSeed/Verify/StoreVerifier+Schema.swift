/// The schema checks: tables and their columns first (what Core Data addresses by name), then the SQL
/// text, indexes, triggers and views.
extension StoreVerifier {
    /// One table Core Data expects: entity tables, join tables and the fixed tables.
    struct ExpectedTable {
        let name: String
        let sql: String
        let columns: [StoredSchema.Column]
        /// What it is for, as said in messages ("entity Author", "join table of Author.books ↔ Book.authors").
        let role: String
        let isJoin: Bool
    }

    /// Tables Core Data does not derive from the model: SQLite's own, and those of Core Data's ancillary
    /// models (persistent history `ACHANGE`, `ATRANSACTION`…, CloudKit mirroring `ANSCK…`), which it names
    /// `A` + the entity name where the model's tables are `Z` + the name (decompiled
    /// `NSSQLStoreMappingGenerator generateTableName:isAncillary:`).
    static func isForeign(_ name: String) -> Bool {
        name.hasPrefix("sqlite_") || !name.hasPrefix("Z")
    }

    static func expectedTables(_ layout: StoreLayout) -> [ExpectedTable] {
        var result: [ExpectedTable] = []
        for table in layout.tables {
            let entities = layout.entities.filter { $0.tableName == table.name }.map(\.name)
            result.append(ExpectedTable(
                name: table.name, sql: CoreDataSQL.createTable(table),
                columns: table.columns.map { .init(name: $0.name, type: $0.sqlType.replacingOccurrences(of: " PRIMARY KEY", with: "")) },
                role: "entity \(entities.joined(separator: ", "))", isJoin: false))
        }
        for join in layout.joinTables {
            let names = [join.firstColumn, join.secondColumn] + join.orderColumns.map(\.name)
            result.append(ExpectedTable(
                name: join.name, sql: CoreDataSQL.createJoinTable(join),
                columns: names.map { .init(name: $0, type: "INTEGER") },
                role: "\(join.firstEntity).\(join.firstRelationship) ↔ \(join.secondEntity).\(join.secondRelationship)",
                isJoin: true))
        }
        var fixed = [CoreDataSchema.createPrimaryKeyTable, CoreDataSchema.createMetadataTable]
        if layout.framework.hasModelCache { fixed.append(CoreDataSchema.createModelCacheTable) }
        let (keys, metadata) = (CoreDataSchema.primaryKeyTableColumns, CoreDataSchema.metadataTableColumns)
        let fixedColumns: [String: [StoredSchema.Column]] = [
            CoreDataSchema.primaryKeyTable: [.init(name: keys.entity, type: "INTEGER"), .init(name: keys.name, type: "VARCHAR"),
                                             .init(name: keys.superEntity, type: "INTEGER"), .init(name: keys.max, type: "INTEGER")],
            CoreDataSchema.metadataTable: [.init(name: metadata.version, type: "INTEGER"), .init(name: metadata.uuid, type: "VARCHAR(255)"),
                                           .init(name: metadata.plist, type: "BLOB")],
            CoreDataSchema.modelCacheTable: [.init(name: CoreDataSchema.modelCacheContentColumn, type: "BLOB")],
        ]
        for (name, columns) in fixedColumns where name != CoreDataSchema.modelCacheTable || layout.framework.hasModelCache {
            let sql = fixed.first { $0.hasPrefix("CREATE TABLE \(name) ") }!
            result.append(ExpectedTable(name: name, sql: sql, columns: columns, role: "Core Data's own table", isJoin: false))
        }
        return result
    }

    static func columnList(_ columns: [StoredSchema.Column]) -> String {
        columns.map(\.name).joined(separator: ", ")
    }

    func checkSchema(_ schema: StoredSchema, _ layout: StoreLayout, into report: inout Report) {
        let fresh = standard == .freshStore
        var unmatched = schema.tables.filter { !StoreVerifier.isForeign($0.name) }
        let expected = StoreVerifier.expectedTables(layout).sorted { $0.name < $1.name }
        var missing: [ExpectedTable] = []
        for table in expected {
            guard let position = unmatched.firstIndex(where: { $0.name == table.name }) else {
                missing.append(table)
                continue
            }
            let stored = unmatched.remove(at: position)
            compareTable(table, stored, into: &report)
        }
        // A missing table is named beside the unexpected table most like it (a misnamed join table).
        for table in missing {
            let candidates = unmatched.filter { table.isJoin == StoreVerifier.looksLikeJoinTable($0) }
            let wanted = Set(table.columns.map(\.name))
            let found = candidates.max { a, b in
                wanted.intersection(a.columns.map(\.name)).count < wanted.intersection(b.columns.map(\.name)).count
            }
            let kind = table.isJoin ? "join table" : "table"
            if let found {
                unmatched.removeAll { $0.name == found.name }
                report.differences.append("schema: expected \(kind) \(table.name) (\(StoreVerifier.columnList(table.columns))) for \(table.role), found \(found.name) (\(StoreVerifier.columnList(found.columns)))")
            } else {
                report.differences.append("schema: missing \(kind) \(table.name) (\(StoreVerifier.columnList(table.columns))) for \(table.role)")
            }
        }
        for table in unmatched {
            let line = "schema: unexpected table \(table.name) (\(StoreVerifier.columnList(table.columns))), which the model does not define"
            if fresh { report.differences.append(line) } else { report.warnings.append(line + "; Core Data ignores it") }
        }
        checkIndexes(schema, layout, into: &report)
        let expectedTriggers = Set(layout.triggers)
        for other in schema.others where !(other.type == "trigger" && expectedTriggers.contains(other.sql)) {
            report.differences.append("schema: unexpected \(other.type) \(other.name): \(other.sql)")
        }
        let storedTriggers = Set(schema.others.filter { $0.type == "trigger" }.map(\.sql))
        for derived in layout.derivedCounts {
            for trigger in derived.triggers where !storedTriggers.contains(trigger) {
                let name = trigger.split(separator: " ").dropFirst(2).first.map(String.init) ?? trigger
                report.differences.append("schema: no trigger \(name) as Core Data creates it: without it \(derived.entity).\(derived.attribute) (derived) stops following its rows")
            }
        }
    }

    /// Two or more integer columns and no `Z_PK`: the shape of a many-to-many table.
    static func looksLikeJoinTable(_ table: StoredSchema.Table) -> Bool {
        table.columns.count >= 2 && !table.columns.contains { $0.name == CoreDataSchema.primaryKey }
            && table.columns.allSatisfy { $0.type.uppercased() == "INTEGER" }
    }

    private func compareTable(_ table: ExpectedTable, _ stored: StoredSchema.Table, into report: inout Report) {
        let storedTypes = stored.columnTypes
        var structureAgrees = true
        let known = Set(table.columns.map(\.name))
        var extra = stored.columns.filter { !known.contains($0.name) }
        for column in table.columns {
            guard let type = storedTypes[column.name] else {
                structureAgrees = false
                // A misnamed column: named beside the unknown column of the same type that stands in for it.
                if let position = extra.firstIndex(where: { $0.type.uppercased() == column.type.uppercased() }) {
                    let found = extra.remove(at: position)
                    report.differences.append("schema: table \(table.name) (\(table.role)): expected column \(column.name) \(column.type), found \(found.name) \(found.type)")
                } else {
                    report.differences.append("schema: table \(table.name) (\(table.role)) has no column \(column.name) \(column.type)")
                }
                continue
            }
            if type.uppercased() != column.type.uppercased() {
                structureAgrees = false
                report.differences.append("schema: column \(table.name).\(column.name) is \(type.isEmpty ? "untyped" : type), expected \(column.type)")
            }
        }
        for column in extra {
            structureAgrees = false
            let line = "schema: table \(table.name) has a column \(column.name) \(column.type) that the model does not define"
            if standard == .freshStore { report.differences.append(line) } else { report.warnings.append(line + "; Core Data ignores it") }
        }
        guard structureAgrees, stored.sql != table.sql else { return }
        if standard == .freshStore {
            report.differences.append("schema: table \(table.name) is \(stored.sql), expected \(table.sql)")
            return
        }
        var history: [String] = []
        if stored.sql.hasPrefix("CREATE TABLE \"") { history.append("renamed (its name is quoted)") }
        // SQLite appends an added column's definition right before the final ")", where Core Data writes " )".
        if stored.columns.map(\.name) != table.columns.map(\.name) || !stored.sql.hasSuffix(" )") {
            history.append("columns added with ALTER TABLE … ADD COLUMN")
        }
        if history.isEmpty { history.append("its CREATE TABLE text is not a fresh store's") }
        report.notes.append("migrated in place: table \(table.name): \(history.joined(separator: ", ")); its columns are the model's")
    }

    private func checkIndexes(_ schema: StoredSchema, _ layout: StoreLayout, into report: inout Report) {
        let fresh = standard == .freshStore
        var unmatched = schema.indexes.filter { $0.sql != nil && !StoreVerifier.isForeign($0.table) }
        for index in layout.indexes {
            if let position = unmatched.firstIndex(where: { $0.name == index.name }) {
                let stored = unmatched.remove(at: position)
                if stored.sql != index.sql {
                    let line = "schema: index \(index.name) is \(stored.sql ?? ""), expected \(index.sql)"
                    if fresh { report.differences.append(line) } else { report.warnings.append(line) }
                }
                continue
            }
            // The same index under an older name (a store migrated in place keeps the name it had).
            let columns = StoreVerifier.indexColumns(index.sql)
            if !fresh, let position = unmatched.firstIndex(where: {
                $0.table == index.table && $0.columns == columns && ($0.sql?.hasPrefix("CREATE UNIQUE") == true) == index.sql.hasPrefix("CREATE UNIQUE")
            }) {
                let stored = unmatched.remove(at: position)
                report.notes.append("migrated in place: index \(index.name) is named \(stored.name) in this store")
                continue
            }
            report.differences.append("schema: missing \(index.sql)")
        }
        for index in unmatched {
            if fresh {
                report.differences.append("schema: unexpected \(index.sql ?? index.name)")
            } else {
                report.notes.append("migrated in place: stale index \(index.name) on \(index.table) (\(index.columns.joined(separator: ", "))), which the model does not define")
            }
        }
    }

    /// The column names of one of our `CREATE INDEX` statements, without collation or direction.
    static func indexColumns(_ sql: String) -> [String] {
        guard let open = sql.lastIndex(of: "("), let close = sql.lastIndex(of: ")"), open < close else { return [] }
        return sql[sql.index(after: open)..<close].split(separator: ",").map {
            String($0.split(separator: " ").first ?? "")
        }
    }
}
