import Foundation

/// Values in the form Core Data reads (issue 13): a UUID is a 16-byte BLOB, a date a number (seconds
/// since 2001), an integer or boolean an INTEGER, a floating-point attribute a number, and a
/// Transformable stored by Core Data's own transformers (`NSSecureUnarchiveFromData`, the default)
/// an `NSKeyedArchiver` binary property list. Anything else makes Core Data raise or read nil.
extension StoreVerifier {
    /// The SQL condition that finds values of `type` in a form Core Data does not read; nil when any
    /// form is fine or the check is made on the bytes (`transformable`).
    static func badForm(_ column: String, _ type: AttributeType) -> String? {
        let value = SQLIdentifier.quoted(column)
        switch type {
        case .uuid: return "typeof(\(value)) != 'blob' OR length(\(value)) != 16"
        case .date, .double, .float: return "typeof(\(value)) NOT IN ('integer', 'real')"
        // `NSDecimalNumber.notANumber` is stored as the text `NaN` (§4c.5, artsy-folio-1.3.5 `ZARTWORK.ZWIDTH`).
        case .decimal: return "typeof(\(value)) NOT IN ('integer', 'real') AND NOT (typeof(\(value)) = 'text' AND \(value) = '\(DecimalNaN.storedText)')"
        case .integer16, .integer32, .integer64, .boolean: return "typeof(\(value)) != 'integer'"
        default: return nil
        }
    }

    func checkValues(_ database: SQLiteDatabase, _ schema: StoredSchema, _ layout: StoreLayout, model: Model,
                     into report: inout Report) throws {
        let rows = { (keys: [Int64], total: Int) in keys.map(String.init).joined(separator: ", ") + (total > keys.count ? ", …" : "") }
        for table in layout.tables {
            for column in table.columns {
                guard case .attribute(let entity, let name, let type) = column.role,
                      let attribute = model.entity(named: entity)?.attribute(named: name),
                      StoreVerifier.has(schema, table: table.name, columns: [CoreDataSchema.primaryKey, column.name]) else { continue }
                if let condition = StoreVerifier.badForm(column.name, type) {
                    guard case .integer(let count)? = try database.scalar(CoreDataSQL.verifyBadFormCount(table: table.name, column: column.name, condition: condition)),
                          count > 0 else { continue }
                    let keys = try database.rows(CoreDataSQL.verifyBadFormKeys(table: table.name, column: column.name, condition: condition)).compactMap { row -> Int64? in
                        if case .integer(let key) = row[0] { key } else { nil }
                    }
                    report.differences.append("\(table.name).\(column.name): \(count) value(s) that are not \(StoreVerifier.form(of: type)) (Z_PK \(rows(keys, Int(count)))): \(entity).\(name) is \(CoercionFailure.article(type.rawValue)) \(type.rawValue)")
                } else if type == .transformable, KeyedArchiver.isReadAsArchive(attribute) {
                    var bad: [Int64] = [], total = 0
                    for row in try database.rows(CoreDataSQL.verifyValues(table: table.name, column: column.name)) {
                        guard case .integer(let key) = row[0] else { continue }
                        if case .blob(let bytes) = row[1], KeyedArchiver.isKeyedArchive(bytes) { continue }
                        total += 1
                        if bad.count < 5 { bad.append(key) }
                    }
                    if total > 0 {
                        report.differences.append("\(table.name).\(column.name): \(total) value(s) that are not NSKeyedArchiver archives (Z_PK \(rows(bad, total))): \(entity).\(name) is a Transformable read with \(attribute.valueTransformerName ?? "NSSecureUnarchiveFromData")")
                    }
                }
            }
        }
        for derived in layout.derivedCounts
        where StoreVerifier.has(schema, table: derived.table, columns: [CoreDataSchema.primaryKey, derived.column])
            && StoreVerifier.has(schema, table: derived.childTable, columns: [derived.childKey]) {
            let keys = try StoreVerifier.countDisagreements(database, derived)
            guard !keys.isEmpty else { continue }
            let expression = model.entity(named: derived.entity)?.attribute(named: derived.attribute)?.derivationExpression ?? "@count"
            report.differences.append("\(derived.table).\(derived.column): \(keys.count) value(s) that disagree with the rows of \(derived.childTable) pointing at them (Z_PK \(rows(Array(keys.prefix(5)), keys.count))): \(derived.entity).\(derived.attribute) is derived (\"\(expression)\")")
        }
    }

    /// The `Z_PK`s of the rows whose derived count disagrees with the rows pointing at them. Counted
    /// here from the child keys, not with the build's query (``DerivedCount/fillSQL``), so that one
    /// mistake cannot hide in both; a counted row in the counter's own table counts like any other.
    static func countDisagreements(_ database: SQLiteDatabase, _ derived: DerivedCount) throws -> [Int64] {
        var pointing: [Int64: Int64] = [:]
        for row in try database.rows(CoreDataSQL.verifyColumn(table: derived.childTable, column: derived.childKey)) {
            if case .integer(let key) = row[0] { pointing[key, default: 0] += 1 }
        }
        let counting = Set(derived.entityNumbers)
        var disagreeing: [Int64] = []
        for row in try database.rows(CoreDataSQL.verifyDerivedCounts(table: derived.table, column: derived.column)) {
            guard case .integer(let key) = row[0], case .integer(let entity) = row[1] else { continue }
            if !counting.isEmpty, !counting.contains(Int(entity)) { continue }
            if case .integer(let value) = row[2], value == pointing[key] ?? 0 { continue }
            disagreeing.append(key)
        }
        return disagreeing
    }

    /// How a type's values are stored, as a message says it.
    static func form(of type: AttributeType) -> String {
        switch type {
        case .uuid: "16-byte BLOBs"
        case .date: "numbers (seconds since 2001-01-01)"
        case .double, .float: "numbers"
        case .decimal: "numbers or NaN"
        default: "integers"
        }
    }
}
