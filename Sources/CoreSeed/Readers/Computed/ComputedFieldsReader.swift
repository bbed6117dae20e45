/// A source's records with its computed fields added and its filter applied: each record of `base`
/// gets one value per computed field (after its own fields, in the order that lets each use the
/// ones it names), then the filter leaves out the records for which it is not true (SQLite's truth:
/// NULL and 0 are false). Every expression is prepared once (``SQLiteExpression``).
///
/// Not `Sendable`: one reader thread uses it.
final class ComputedFieldsReader: RecordReader {
    let fieldNames: [String]
    /// Records the filter left out so far.
    private(set) var filtered = 0
    private let base: any RecordReader
    private let file: String
    /// In evaluation order: the computed field's index in the record (nil for the filter), its
    /// expression, and the record index of each of its parameters.
    private let steps: [(field: Int?, name: String, expression: SQLiteExpression, arguments: [Int])]

    init(base: any RecordReader, fields: [ComputedField], filter: String?, file: String) throws(ReaderError) {
        self.base = base
        self.file = file
        let own = base.fieldNames
        let names = own + fields.map(\.name)
        fieldNames = names
        func fail(_ message: String) -> ReaderError { ReaderError(.computedField(message), at: SourceLocation(file: file)) }
        if let repeated = fields.first(where: { own.contains($0.name) }) {
            throw fail("field '\(repeated.name)': the source already has a field of this name; give the computed one another")
        }
        var compiled: [(name: String, expression: SQLiteExpression)] = []
        for field in fields {
            do throws(SQLiteExpression.Problem) { compiled.append((field.name, try SQLiteExpression(field.sql))) } catch {
                throw fail("field '\(field.name)': \(error.message)")
            }
        }
        // Each computed field after the computed fields it names; a cycle is an error.
        var ordered: [(field: Int?, name: String, expression: SQLiteExpression, arguments: [Int])] = []
        var done = Set<String>(own), pending = Array(compiled.indices)
        while !pending.isEmpty {
            guard let next = pending.firstIndex(where: { compiled[$0].expression.parameterNames.allSatisfy { done.contains($0) || !names.contains($0) } }) else {
                throw fail("computed fields \(pending.map { "'\(compiled[$0].name)'" }.joined(separator: ", ")) name each other in a cycle")
            }
            let index = pending.remove(at: next)
            let (name, expression) = compiled[index]
            let arguments = try Self.arguments(expression, names: names, what: "field '\(name)'", fail: fail)
            ordered.append((own.count + index, name, expression, arguments))
            done.insert(name)
        }
        if let filter {
            let expression: SQLiteExpression
            do throws(SQLiteExpression.Problem) { expression = try SQLiteExpression("CASE WHEN (\(filter)) THEN 1 ELSE 0 END") } catch {
                throw fail("\"where\": \(error.message)")
            }
            ordered.append((nil, "where", expression, try Self.arguments(expression, names: names, what: "\"where\"", fail: fail)))
        }
        steps = ordered
    }

    /// The record index of each parameter of `expression`; an unknown name is an error listing the fields.
    private static func arguments(_ expression: SQLiteExpression, names: [String], what: String,
                                  fail: (String) -> ReaderError) throws(ReaderError) -> [Int] {
        try expression.parameterNames.map { name throws(ReaderError) in
            guard let index = names.firstIndex(of: name) else {
                throw fail("\(what): ':\(name)' is not a field of this source\(Suggestion.hint(for: name, in: names)) (fields: \(names.joined(separator: ", ")))")
            }
            return index
        }
    }

    func next() throws(ReaderError) -> Record? {
        while var record = try base.next() {
            let count = record.values.count
            record.values += Array(repeating: .null, count: fieldNames.count - count)
            record.fieldLines? += Array(repeating: 0, count: fieldNames.count - count)
            record.fieldColumns? += Array(repeating: 0, count: fieldNames.count - count)
            var kept = true
            for step in steps {
                let arguments = try step.arguments.map { index throws(ReaderError) in try Self.argument(record.values[index], record, step.name) }
                let value: SQLiteValue
                do throws(SQLiteExpression.Problem) { value = try step.expression.evaluate(arguments) } catch {
                    throw ReaderError(.computedFieldFailed(field: step.name, problem: error.message), at: record.location)
                }
                if let field = step.field {
                    record.values[field] = Self.fieldValue(value)
                } else if value != .integer(1) {
                    kept = false
                }
            }
            if kept { return record }
            filtered += 1
        }
        return nil
    }

    private static func argument(_ value: FieldValue, _ record: Record, _ name: String) throws(ReaderError) -> SQLiteValue {
        switch value {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .real(let number): return .real(number)
        case .text(let text): return .text(text)
        case .blob(let bytes): return .blob(bytes)
        case .list:
            throw ReaderError(.computedFieldFailed(field: name, problem: "a field it names holds a list (repeated values); an expression takes one value"),
                              at: record.location)
        }
    }

    private static func fieldValue(_ value: SQLiteValue) -> FieldValue {
        switch value {
        case .null: .null
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .text(let text): .text(text)
        case .blob(let bytes): .blob(bytes)
        }
    }
}
