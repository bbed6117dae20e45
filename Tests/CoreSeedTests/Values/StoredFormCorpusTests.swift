import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 13: every attribute type's stored form, proven against real rows Core Data wrote. For each
/// corpus store, up to 25 stored values of every attribute are read, written back as the text a user
/// would give (a UUID as 8-4-4-4-12, a boolean as true/false, a date as its ISO 8601 instant or its
/// seconds since 2001, numbers as digits), coerced by CoreSeed and stored in a column of the same SQL
/// type: the result must be the very value Core Data stored, same SQLite type and bits. (A whole-second
/// date is an INTEGER in the file: the TIMESTAMP column's numeric affinity makes it one, for Core
/// Data's REAL as for CoreSeed's — this test found that, and that CoreSeed agrees.)
@Suite struct StoredFormCorpusTests {
    /// The text a user would give for a stored value of `type`, and the date inputs that read it.
    static func textForm(_ value: SQLiteValue, _ type: AttributeType) -> [(text: String, date: [DateInput])] {
        switch (type, value) {
        case (.integer16, .integer(let n)), (.integer32, .integer(let n)), (.integer64, .integer(let n)): return [(String(n), [])]
        case (.boolean, .integer(let n)) where n == 0 || n == 1: return [(n == 1 ? "true" : "false", []), (String(n), [])]
        case (.double, .real(let x)), (.float, .real(let x)), (.decimal, .real(let x)): return [(String(x), [])]
        // A whole Decimal is an INTEGER through the DECIMAL column's numeric affinity; NaN is the text NaN (§4c.5).
        case (.decimal, .integer(let n)): return [(String(n), [])]
        case (.decimal, .text(let text)) where text == "NaN": return [("NaN", []), ("nan", [])]
        case (.date, .integer(let whole)):
            return textForm(.real(Double(whole)), type)
        case (.date, .real(let seconds)):
            var forms: [(String, [DateInput])] = [(String(seconds), [.referenceSeconds])]
            if seconds == seconds.rounded() {
                let formatter = ISO8601DateFormatter()
                forms.append((formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds)), []))
            }
            return forms
        case (.string, .text(let text)) where !text.utf8.contains(0): return [(text, [])]
        case (.uuid, .blob(let bytes)) where bytes.count == 16:
            return [(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                                 bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])).uuidString, [])]
        case (.uri, .text(let text)): return [(text, [])]
        default: return []
        }
    }

    /// `value` as SQLite stores it in a column of type `sqlType` (its affinity applied).
    static func stored(_ value: SQLiteValue, as sqlType: String, in database: SQLiteDatabase) throws -> SQLiteValue {
        try database.execute("DROP TABLE IF EXISTS t; CREATE TABLE t (x \(sqlType))")
        let insert = try database.prepare("INSERT INTO t VALUES (?)")
        try insert.bind([value])
        _ = try insert.step()
        return try database.scalar("SELECT x FROM t") ?? .null
    }

    @Test(.needsCorpus) func everyTypesTextFormStoresTheValueCoreDataStored() throws {
        var checked: [AttributeType: Int] = [:]
        var unexpected: [String] = []
        for entry in CorpusStore.withXMLModel {
            let model = try entry.loadModel()
            let layout = try StoreLayout(model: model, configuration: nil, framework: FrameworkVersion(entry.frameworkVersion))
            let (database, directory) = try entry.openCopy()
            defer { try? FileManager.default.removeItem(at: directory) }
            let schema = try StoredSchema.read(database)
            let scratch = try SQLiteDatabase(path: ":memory:", mode: .readWriteCreate)
            for table in layout.tables where schema.table(table.name) != nil {
                let stored = Set(schema.table(table.name)!.columns.map(\.name))
                for column in table.columns where stored.contains(column.name) {
                    guard case .attribute(let owner, let name, let type) = column.role,
                          let attribute = model.entity(named: owner)?.attribute(named: name), !attribute.isTransient else { continue }
                    let values = try database.rows("SELECT \(SQLIdentifier.quoted(column.name)) FROM \(SQLIdentifier.quoted(table.name)) WHERE \(SQLIdentifier.quoted(column.name)) IS NOT NULL LIMIT 25")
                    for row in values {
                        let forms = Self.textForm(row[0], type)
                        if forms.isEmpty, [.integer16, .integer32, .integer64, .boolean, .double, .float, .decimal, .date, .uuid].contains(type) {
                            unexpected.append("\(entry.name) \(owner).\(name) (\(type.rawValue)): stored as \(row[0])")
                        }
                        for (text, inputs) in forms {
                            let coercer = try ValueCoercer(attribute: attribute, dateParser: try DateParser(inputs))
                            let result = try Self.stored(try coercer.coerce(.text(text)), as: column.sqlType, in: scratch)
                            #expect(result == row[0], "\(entry.name) \(owner).\(name) (\(type.rawValue)): \"\(text)\" stored as \(result), Core Data stored \(row[0])")
                            checked[type, default: 0] += 1
                        }
                    }
                }
            }
        }
        #expect(unexpected.isEmpty, "values in a form CoreSeed does not write: \(unexpected.prefix(5))")
        // The corpus holds real values of each of these types.
        for type in [AttributeType.string, .integer16, .integer32, .integer64, .boolean, .double, .date, .uuid] {
            #expect(checked[type, default: 0] > 0, "no \(type.rawValue) value checked")
        }
        print("stored forms checked against the corpus: " + checked.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))
    }
}
