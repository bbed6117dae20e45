import Foundation

/// One concrete entity's export: which columns, the SELECT that reads them, and what the rows held
/// (NULLs and empty values per attribute, which the spec needs to rebuild them faithfully).
struct EntityExport {
    enum Kind {
        case key
        case attribute(Attribute)
        /// A to-one: the destination's `pk`. `inSpec` is false when the other side feeds the relationship.
        case toOne(Relationship, inSpec: Bool)
        /// Keys of an ordered one-to-many or a many-to-many, joined with ";", in order.
        case list(Relationship)
    }

    struct Column {
        let name: String
        let kind: Kind
        /// The SELECT expression (table alias `t`).
        let expression: String
        var nulls = 0
        var empties = 0
        /// A Transformable whose every value is a keyed archive of values with a JSON form: written as
        /// that JSON (`export --spec` then says `"archive": "json"`), else as base64.
        var archived = false
        /// External storage: the largest value stored inline and the smallest stored in a file, so that
        /// `export --spec` can give the `externalAbove` that puts each value where it was.
        var largestInline = -1
        var smallestExternal: Int?
    }

    let info: StoreLayout.EntityInfo
    let table: StoreLayout.Table
    /// The `Z_ENT` of every entity whose rows the table holds (abstract ones too).
    let tableEntityNumbers: [Int]
    private(set) var columns: [Column] = []
    var rows = 0
    /// The entity and its ancestors.
    let lineageNames: [String]
    var keyName: String { columns[0].name }

    init(info: StoreLayout.EntityInfo, layout: StoreLayout, graph: EntityGraph, warnings: inout [String]) throws {
        self.info = info
        self.table = layout.table(forEntity: info.name)!
        self.tableEntityNumbers = layout.entities.filter { $0.tableName == info.tableName }.map(\.number)
        let lineage = Array(graph.lineage(info.name).reversed())
        self.lineageNames = lineage.map(\.name)
        let propertyNames = Set(lineage.flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) })
        let keyName = ["pk", "_pk", CoreDataSchema.primaryKey].first { !propertyNames.contains($0) }!
        columns.append(Column(name: keyName, kind: .key, expression: "t.\(CoreDataSchema.primaryKey)"))

        for owner in lineage {
            for attribute in owner.attributes where !attribute.isTransient {
                guard let column = table.columns.first(where: {
                    if case .attribute(owner.name, attribute.name, _) = $0.role { return true }
                    return false
                }) else {
                    if attribute.type == .composite { warnings.append("\(info.name).\(attribute.name): Composite attributes are not exported") }
                    continue
                }
                columns.append(Column(name: attribute.name, kind: .attribute(attribute), expression: "t.\(SQLIdentifier.quoted(column.name))"))
            }
        }
        for owner in lineage {
            for relationship in owner.relationships where !relationship.isTransient {
                if let column = try relationshipColumn(relationship, owner: owner.name, layout: layout, graph: graph, warnings: &warnings) {
                    columns.append(column)
                }
            }
        }
    }

    private func relationshipColumn(_ relationship: Relationship, owner: String, layout: StoreLayout, graph: EntityGraph,
                                    warnings: inout [String]) throws -> Column? {
        let inverse = graph.inverse(of: relationship, in: owner)
        let inverseOwner = inverse.flatMap { graph.relationship($0.name, from: relationship.destinationEntity)?.owner.name }
        if !relationship.isToMany {
            guard let column = table.columns.first(where: {
                if case .toOne(owner, relationship.name, _) = $0.role { return true }
                return false
            }) else { return nil }
            var inSpec = true
            if let inverse, let inverseOwner {
                if inverse.isToMany && inverse.isOrdered {
                    inSpec = false  // the ordered list on the other side carries the order
                } else if !inverse.isToMany {
                    // One-to-one: feed it from one side only (the lower of owner.name).
                    inSpec = (owner, relationship.name) <= (inverseOwner, inverse.name)
                }
            }
            return Column(name: relationship.name, kind: .toOne(relationship, inSpec: inSpec), expression: "t.\(SQLIdentifier.quoted(column.name))")
        }
        let separator = "'\(StoreExporter.listSeparator)'"
        guard let inverse, let inverseOwner else {
            // No inverse: the destination rows hold this row's Z_PK in a hidden key (§4c.4).
            guard let hidden = layout.hiddenToManyKeys.first(where: { $0.sourceEntity == owner && $0.relationship == relationship.name }) else {
                return nil
            }
            let expression = CoreDataSQL.exportKeyList(destination: hidden.table, keyColumn: hidden.column, orderColumn: hidden.orderColumn, separator: separator)
            return Column(name: relationship.name, kind: .list(relationship), expression: expression)
        }
        if !inverse.isToMany {
            guard relationship.isOrdered, let destination = layout.table(forEntity: relationship.destinationEntity) else { return nil }
            var keyColumn: String?, orderColumn: String?
            for column in destination.columns {
                switch column.role {
                case .toOne(inverseOwner, inverse.name, _): keyColumn = column.name
                case .toOneOrder(inverseOwner, inverse.name): orderColumn = column.name
                default: break
                }
            }
            guard let keyColumn else { return nil }
            let expression = CoreDataSQL.exportKeyList(destination: destination.name, keyColumn: keyColumn, orderColumn: orderColumn, separator: separator)
            return Column(name: relationship.name, kind: .list(relationship), expression: expression)
        }
        // Many-to-many: exported from one side only, so a rebuild does not add every pair twice.
        guard let join = layout.joinTables.first(where: {
            ($0.firstEntity == owner && $0.firstRelationship == relationship.name)
                || ($0.secondEntity == owner && $0.secondRelationship == relationship.name)
        }) else { return nil }
        let isFirst = join.firstEntity == owner && join.firstRelationship == relationship.name
        let (selfColumn, otherColumn) = isFirst ? (join.firstColumn, join.secondColumn) : (join.secondColumn, join.firstColumn)
        // The first entity's side, unless only the second side is ordered (then its order is the one kept).
        let exportFromSecond = inverse.isOrdered && !relationship.isOrdered
        guard isFirst != exportFromSecond else { return nil }
        if relationship.isOrdered && inverse.isOrdered {
            warnings.append("\(info.name).\(relationship.name): both sides are ordered; only this side's order is kept")
        }
        let orderColumn = join.orderColumns.first { $0.orderedColumn == otherColumn }?.name
        let expression = CoreDataSQL.exportJoinList(join: join.name, selfColumn: selfColumn, otherColumn: otherColumn, orderColumn: orderColumn, separator: separator)
        return Column(name: relationship.name, kind: .list(relationship), expression: expression)
    }

    /// `SELECT … FROM table t WHERE Z_ENT = number ORDER BY Z_PK`.
    var selectSQL: String {
        CoreDataSQL.exportRows(table: table.name, expressions: columns.map(\.expression))
    }

    /// Rows of the table whose `Z_ENT` is no entity of it would be in no file: an error naming them,
    /// not a silent gap in the export (issue 24, item 14).
    private func refuseStrayRows(_ database: SQLiteDatabase) throws {
        let list = tableEntityNumbers.map(String.init).joined(separator: ", ")
        let sql = CoreDataSQL.exportStrayRows(table: table.name, entityNumbers: list)
        let rows = try database.rows(sql)
        guard !rows.isEmpty else { return }
        let shown = rows.prefix(5).map { "Z_PK \(ExistingRows.shown($0[0])) (Z_ENT \(ExistingRows.shown($0[1])))" }.joined(separator: ", ")
        throw FileError(message: "\(table.name): rows whose Z_ENT is no entity of this table (\(list)), which no file would hold: \(shown)\(rows.count > 5 ? ", …" : ""); the store is damaged (coreseed verify lists them)")
    }

    /// Marks the Transformable columns whose every value ``KeyedUnarchiver`` reads (`Column.archived`).
    /// A value past the unarchiver's limits (an archive of shared references that expands beyond what
    /// JSON can hold) is an error naming its row, not a quiet fall back to base64.
    private mutating func decideArchives(_ database: SQLiteDatabase) throws {
        for index in columns.indices {
            guard case .attribute(let attribute) = columns[index].kind, attribute.type == .transformable,
                  KeyedArchiver.isReadAsArchive(attribute) else { continue }
            let expression = columns[index].expression
            let statement = try database.prepare(CoreDataSQL.exportValues(table: table.name, expression: expression))
            try statement.bind([.integer(Int64(info.number))])
            var readable = true
            while readable, try statement.step() {
                guard case .blob(let bytes) = statement.value(at: 0) else { readable = false; break }
                do {
                    _ = try KeyedUnarchiver.value(bytes)
                } catch where error.isLimit {
                    let key = if case .integer(let key) = statement.value(at: 1) { String(key) } else { "?" }
                    throw FileError(message: "\(table.name), \(CoreDataSchema.primaryKey) \(key) (\(info.name).\(attribute.name)): \(error.message); export cannot write it as JSON")
                } catch {
                    readable = false
                }
            }
            columns[index].archived = readable
        }
    }

    /// Streams the rows into `path` (in the export's staging folder; errors name `name`); returns the
    /// row count. `externalData` is the store's folder of external binary values (`ExternalBinary`).
    mutating func write(from database: SQLiteDatabase, format: StoreExporter.Format, to path: String, name: String,
                        externalData: String) throws -> Int {
        try refuseStrayRows(database)
        try decideArchives(database)
        let statement = try database.prepare(selectSQL)
        try statement.bind([.integer(Int64(info.number))])
        let file = try ExportFile(path: path, name: name)
        switch format {
        case .csv: try file.append(columns.map { ExportValue.csvField($0.name) }.joined(separator: ",") + "\r\n")
        case .json: try file.append("[")
        }
        var count = 0
        var fields: [String] = []
        while try statement.step() {
            fields.removeAll(keepingCapacity: true)
            for index in columns.indices {
                var value = statement.value(at: index)
                if case .attribute(let attribute) = columns[index].kind, attribute.storesExternally, case .blob(let stored) = value {
                    let key = if case .integer(let key) = statement.value(at: 0) { String(key) } else { "?" }
                    value = try ExternalBinary.load(stored, from: externalData, row: "\(info.name) \(keyName) \(key)",
                                                    attribute: attribute.name)
                    if case .blob(let bytes) = value {
                        if stored.first == ExternalBinary.inlineMarker {
                            columns[index].largestInline = max(columns[index].largestInline, bytes.count)
                        } else {
                            columns[index].smallestExternal = min(columns[index].smallestExternal ?? .max, bytes.count)
                        }
                    }
                }
                var rendered = render(value, as: columns[index].kind)
                if columns[index].archived, case .blob(let bytes) = value, let archived = try? KeyedUnarchiver.value(bytes) {
                    rendered = .text(archived.json)
                }
                switch rendered {
                case .null: columns[index].nulls += 1
                case .text(""): columns[index].empties += 1
                default: break
                }
                switch format {
                case .csv: fields.append(rendered.csv)
                case .json: fields.append(JSONWriter.quoted(columns[index].name) + ": " + rendered.json)
                }
            }
            switch format {
            case .csv: try file.append(fields.joined(separator: ",") + "\r\n")
            case .json: try file.append((count == 0 ? "\n{" : ",\n{") + fields.joined(separator: ", ") + "}")
            }
            count += 1
        }
        if format == .json { try file.append("\n]\n") }
        try file.finish()
        return count
    }
}
