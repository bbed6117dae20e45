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
        for wrong in try StoreVerifier.derivedDisagreements(database, schema, layout, model: model) {
            report.differences.append("\(wrong.table).\(wrong.column): \(wrong.keys.count) value(s) that disagree with \(wrong.against) (Z_PK \(rows(Array(wrong.keys.prefix(5)), wrong.keys.count))): \(wrong.entity).\(wrong.attribute) is derived (\"\(wrong.expression)\")")
        }
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
