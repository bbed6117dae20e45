import Foundation

/// The model's rules, checked on the stored rows (issue 23): non-optional to-ones, to-many counts,
/// attribute bounds and patterns. Written apart from the build's checks (`KeyPass+Rules`,
/// `AttributeRules`): the counts come from grouped SQL over the stored keys, the values are read back
/// and judged here, so that one mistake cannot hide in both. On a store CoreSeed has just built, or
/// one whose metadata says CoreSeed wrote it (`CoreSeedVersion`), a broken rule is a difference; on
/// any other store a warning with its count (an app may have saved such rows before a model change).
extension StoreVerifier {
    func checkRules(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, model: Model,
                    builtByCoreSeed: Bool, into report: inout Report) throws {
        var found: [String] = []
        for table in layout.tables where StoreVerifier.has(schema, table: table.name, columns: [CoreDataSchema.primaryKey, CoreDataSchema.entityColumn]) {
            for column in table.columns where StoreVerifier.has(schema, table: table.name, columns: [column.name]) {
                switch column.role {
                case .toOne(let owner, let name, _):
                    guard let relationship = model.entity(named: owner)?.relationship(named: name), !relationship.isOptional else { continue }
                    let keys = try keyList(database, CoreDataSQL.verifyMissingToOne(table: table.name, rows: rowsOf(owner, layout, model), column: column.name))
                    if !keys.isEmpty { found.append("\(table.name).\(column.name): \(keys.count) row(s) with no \(owner).\(name) (Z_PK \(shown(keys))): the relationship is not optional") }
                case .attribute(let owner, let name, let type):
                    guard let attribute = model.entity(named: owner)?.attribute(named: name) else { continue }
                    let keys = try valuesBreaking(attribute, type: type, database, table: table.name, column: column.name)
                    if !keys.isEmpty { found.append("\(table.name).\(column.name): \(keys.count) value(s) outside \(owner).\(name)'s model rules (Z_PK \(shown(keys))): \(ruleText(attribute))") }
                default: continue
                }
            }
        }
        for entity in model.entities {
            for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient
                && (relationship.minCount > 0 || relationship.maxCount > 0 || !relationship.isOptional) {
                guard let table = layout.table(forEntity: entity.name), let pointing = try pointingCounts(database, schema, layout, model, entity.name, relationship) else { continue }
                var keys: [Int64] = []
                for row in try database.rows(CoreDataSQL.verifyKeys(table: table.name, rows: rowsOf(entity.name, layout, model))) {
                    guard case .integer(let key) = row[0] else { continue }
                    let have = pointing[key] ?? 0
                    let tooFew = have < relationship.minCount || (!relationship.isOptional && have < 1)
                    let tooMany = relationship.maxCount != 0 && have > relationship.maxCount
                    // Core Data does not check the count of an empty optional to-many.
                    if (tooFew && !(have == 0 && relationship.isOptional)) || tooMany { keys.append(key) }
                }
                if !keys.isEmpty {
                    found.append("\(table.name): \(keys.count) \(entity.name) row(s) whose '\(relationship.name)' count is outside \(relationship.minCount)…\(relationship.maxCount == 0 ? "any" : String(relationship.maxCount))\(relationship.isOptional ? "" : " (not optional)") (Z_PK \(shown(keys)))")
                }
            }
        }
        if builtByCoreSeed { report.differences += found } else { report.warnings += found.map { $0 + " (Core Data would refuse to save these rows)" } }
    }

    /// Per `Z_PK` of `owner`'s rows: how many rows its to-many `relationship` holds, from the key
    /// columns that store it (the inverse to-one, the hidden key, or the join table).
    private func pointingCounts(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, _ model: Model,
                                _ owner: String, _ relationship: Relationship) throws -> [Int64: Int]? {
        var table: String?, column: String?
        if let join = layout.joinTables.first(where: { ($0.firstEntity == owner && $0.firstRelationship == relationship.name) || ($0.secondEntity == owner && $0.secondRelationship == relationship.name) }) {
            table = join.name
            column = join.firstEntity == owner && join.firstRelationship == relationship.name ? join.firstColumn : join.secondColumn
        } else if let destination = layout.table(forEntity: relationship.destinationEntity) {
            table = destination.name
            column = destination.columns.first { column in
                switch column.role {
                case .toOne(_, let name, _): return name == relationship.inverseName
                case .toManyKey(let source, let name, _): return relationship.inverseName == nil && source == owner && name == relationship.name
                default: return false
                }
            }?.name
        }
        guard let table, let column, StoreVerifier.has(schema, table: table, columns: [column]) else { return nil }
        var counts: [Int64: Int] = [:]
        for row in try database.rows(CoreDataSQL.verifyPointingCounts(table: table, column: column)) {
            if case .integer(let key) = row[0], case .integer(let count) = row[1] { counts[key] = Int(count) }
        }
        return counts
    }

    /// `Z_ENT IN (…)`: the rows of `entity` and of every entity below it.
    private func rowsOf(_ entity: String, _ layout: StoreLayout, _ model: Model) -> String {
        func isUnder(_ name: String) -> Bool {
            var current: String? = name
            while let this = current {
                if this == entity { return true }
                current = model.entity(named: this)?.parentName
            }
            return false
        }
        let numbers = layout.entities.filter { isUnder($0.name) }.map { String($0.number) }
        return CoreDataSQL.verifyRowsOf(entityNumbers: numbers)
    }

    /// The `Z_PK`s whose stored value breaks `attribute`'s bounds or pattern, read back and judged here.
    private func valuesBreaking(_ attribute: Attribute, type: AttributeType, _ database: SQLiteDatabase, table: String, column: String) throws -> [Int64] {
        let low: String?, high: String?
        switch type {
        case .date: (low, high) = (attribute.minDateTimeInterval, attribute.maxDateTimeInterval)
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .string, .binary: (low, high) = (attribute.minValueString, attribute.maxValueString)
        default: (low, high) = (nil, nil)
        }
        let lowest = low.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }, highest = high.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        let pattern = type == .string ? attribute.regularExpressionString.flatMap { $0.isEmpty ? nil : try? NSRegularExpression(pattern: "\\A(?:\($0))\\z") } : nil
        guard lowest != nil || highest != nil || pattern != nil else { return [] }
        let marker = type == .binary && attribute.allowsExternalBinaryDataStorage ? 1.0 : 0.0
        var keys: [Int64] = []
        for row in try database.rows(CoreDataSQL.verifyValues(table: table, column: column)) {
            guard case .integer(let key) = row[0] else { continue }
            let measure: Double?
            var text: String?
            switch row[1] {
            case .integer(let number): measure = type == .string ? nil : Double(number)
            case .real(let number): measure = number
            case .text(let value):
                text = value
                measure = type == .string ? Double((value as NSString).length) : nil
            case .blob(let bytes): measure = type == .binary ? Double(bytes.count) - marker : nil
            case .null: measure = nil
            }
            var broken = false
            if let measure, let lowest, measure < lowest { broken = true }
            if let measure, let highest, measure > highest { broken = true }
            if let pattern, let text {
                let whole = NSRange(location: 0, length: (text as NSString).length)
                if pattern.numberOfMatches(in: text, range: whole) == 0 { broken = true }
            }
            if broken { keys.append(key) }
        }
        return keys
    }

    private func ruleText(_ attribute: Attribute) -> String {
        var parts: [String] = []
        if let low = attribute.type == .date ? attribute.minDateTimeInterval : attribute.minValueString { parts.append("minimum \(low)") }
        if let high = attribute.type == .date ? attribute.maxDateTimeInterval : attribute.maxValueString { parts.append("maximum \(high)") }
        if attribute.type == .string, let pattern = attribute.regularExpressionString, !pattern.isEmpty { parts.append("pattern \"\(pattern)\"") }
        return parts.joined(separator: ", ")
    }

    private func keyList(_ database: SQLiteDatabase, _ sql: String) throws -> [Int64] {
        try database.rows(sql).compactMap { row in if case .integer(let key) = row[0] { key } else { nil } }
    }

    func shown(_ keys: [Int64]) -> String {
        keys.prefix(5).map(String.init).joined(separator: ", ") + (keys.count > 5 ? ", …" : "")
    }
}
