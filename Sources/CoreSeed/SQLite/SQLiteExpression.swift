import CSQLite
import Foundation

/// One SQL expression of a spec (a computed field or a filter), evaluated per record: prepared once as
/// `SELECT (<expression>)` on a private in-memory connection with no tables, its `:name` parameters
/// bound from the record's fields, so one record costs one statement step.
///
/// Checked when prepared, each refusal a ``Problem``: one expression only (no statement, no second
/// column); SQLite's deterministic built-in functions only — the authorizer refuses any other function
/// (`random()`, `load_extension`, an application's), reading any table, pragmas and recursive queries,
/// and the clock's words (`'now'`, `current_date`, a date function without arguments) are refused, so
/// that a build stays a function of its inputs.
///
/// Not `Sendable`: it owns its connection; one reader thread uses it.
public final class SQLiteExpression {
    /// Why an expression is refused or failed.
    public struct Problem: Error, Sendable, Equatable {
        public let message: String
    }

    /// The expressions as the spec wrote them: one, or several evaluated by one statement step
    /// (one result column each).
    public let texts: [String]
    /// Its parameters' names, without the `:`, in parameter order.
    public let parameterNames: [String]
    private let database: SQLiteDatabase
    private let statement: SQLiteStatement

    /// The functions an expression may call: SQLite's built-in scalar functions that give the same
    /// result for the same arguments (the date functions too, with the clock refused from the text).
    static let allowedFunctions: Set<String> = [
        "abs", "char", "coalesce", "concat", "concat_ws", "format", "glob", "hex", "ifnull", "iif", "instr", "length",
        "like", "likelihood", "likely", "lower", "ltrim", "max", "min", "nullif", "octet_length", "printf", "quote",
        "replace", "round", "rtrim", "sign", "substr", "substring", "trim", "typeof", "unhex", "unicode", "unlikely",
        "upper", "zeroblob",
        "date", "time", "datetime", "julianday", "strftime", "unixepoch", "timediff",
        "json", "json_array", "json_array_length", "json_extract", "json_insert", "json_object", "json_patch",
        "json_quote", "json_remove", "json_replace", "json_set", "json_type", "json_valid", "->", "->>",
        "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "ceiling", "cos", "cosh", "degrees", "exp",
        "floor", "ln", "log", "log10", "log2", "mod", "pi", "pow", "power", "radians", "sin", "sinh", "sqrt", "tan",
        "tanh", "trunc",
    ]

    /// The longest text or blob an expression may make (SQLite's `SQLITE_LIMIT_LENGTH` here): 16 MiB.
    static let lengthLimit: Int32 = 16 << 20

    /// Prepares `text`; throws the reason it is not an expression CoreSeed evaluates.
    public convenience init(_ text: String) throws(Problem) {
        try self.init(texts: [text])
    }

    /// Prepares `texts` as one statement of one column each (a parameter named twice is bound once);
    /// throws the reason one of them is not an expression CoreSeed evaluates.
    public init(texts: [String]) throws(Problem) {
        self.texts = texts
        for text in texts {
            if let word = Self.clockWord(in: text) {
                throw Problem(message: "\(word) reads the clock, so the build would depend on when it runs; give the date as a field or a literal")
            }
        }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: ":memory:", mode: .readWriteCreate)
        } catch {
            throw Problem(message: "cannot open SQLite to evaluate it: \(error.message)")
        }
        sqlite3_limit(database.handle, SQLITE_LIMIT_LENGTH, Self.lengthLimit)
        let refusal = RefusalBox()
        // SAFETY: the box outlives the authorizer: it is unset (nil callback) before `refusal` goes away.
        let box = Unmanaged.passRetained(refusal)
        sqlite3_set_authorizer(database.handle, { context, action, first, second, _, _ in
            guard let context else { return SQLITE_DENY }
            let refusal = Unmanaged<RefusalBox>.fromOpaque(context).takeUnretainedValue()
            switch action {
            case SQLITE_SELECT: return SQLITE_OK
            case SQLITE_FUNCTION:
                let name = second.map { String(cString: $0) } ?? ""
                if SQLiteExpression.allowedFunctions.contains(name.lowercased()) { return SQLITE_OK }
                refusal.reason = "the function \(name)() is not one CoreSeed evaluates (SQLite's deterministic built-in functions only: no random(), no extension, no application function)"
            case SQLITE_READ:
                refusal.reason = "it reads a table (\(first.map { String(cString: $0) } ?? "?")); an expression sees only the record's fields, as :name"
            default:
                refusal.reason = "it is not an expression over the record's fields (only a SELECT of one value is evaluated)"
            }
            return SQLITE_DENY
        }, box.toOpaque())
        defer {
            sqlite3_set_authorizer(database.handle, nil, nil)
            box.release()
        }
        let prepared: SQLiteStatement
        do {
            prepared = try database.prepare("SELECT " + texts.map { "(\($0))" }.joined(separator: ", "))
        } catch {
            if let reason = refusal.reason { throw Problem(message: reason) }
            throw Problem(message: "not an SQL expression: \(error.message)")
        }
        if let reason = refusal.reason { throw Problem(message: reason) }
        guard prepared.remainder.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, prepared.columnCount == texts.count else {
            throw Problem(message: "it is more than one expression; give one, e.g. substr(:code, 1, 2)")
        }
        self.database = database
        statement = prepared
        var names: [String] = []
        let count = sqlite3_bind_parameter_count(prepared.handle)
        if count > 0 {
            for index in 1...count {
                guard let name = sqlite3_bind_parameter_name(prepared.handle, index).map({ String(cString: $0) }), name.hasPrefix(":") else {
                    throw Problem(message: "its parameters must be named fields, as :name (not ?, @name or $name)")
                }
                names.append(String(name.dropFirst()))
            }
        }
        parameterNames = names
    }

    /// The value of the expression for `arguments`, one per parameter in ``parameterNames`` order.
    public func evaluate(_ arguments: [SQLiteValue]) throws(Problem) -> SQLiteValue {
        defer { statement.reset() }
        do {
            try statement.bind(arguments)
            guard try statement.step() else { return .null }
            return statement.value(at: 0)
        } catch {
            throw Problem(message: error.message)
        }
    }

    /// Every column's value for `arguments` (one per parameter in ``parameterNames`` order).
    public func evaluateAll(_ arguments: [SQLiteValue]) throws(Problem) -> [SQLiteValue] {
        defer { statement.resetKeepingBindings() }
        do {
            try statement.bind(arguments)
            guard try statement.step() else { return Array(repeating: .null, count: texts.count) }
            return (0..<texts.count).map { statement.value(at: $0) }
        } catch {
            throw Problem(message: error.message)
        }
    }

    /// The in-place form of ``evaluateAll(_:)``: `bind` binds parameter `index` (1-based, in
    /// ``parameterNames`` order), `take` sees each column's value in place (valid inside the call).
    public func evaluateColumns(parameters: Int, bind: (SQLiteStatement, Int32) throws(SQLiteError) -> Void,
                                take: (Int, SQLiteStatement.ColumnView) -> Void) throws(Problem) {
        // The bindings are kept, not cleared: one `sqlite3_clear_bindings` less per record.
        // SAFETY: `bind` may bind in place (SQLITE_STATIC) bytes that are gone after this call; SQLite reads
        // a binding only while stepping, and every parameter is bound anew below before the next step
        // (`bind` throwing stops before any step). A binding is replaced without reading its bytes.
        defer { statement.resetKeepingBindings() }
        do {
            for index in 0..<parameters { try bind(statement, Int32(index + 1)) }
            guard try statement.step() else { return }
            for column in 0..<texts.count { take(column, statement.view(at: column)) }
        } catch {
            throw Problem(message: error.message)
        }
    }

    /// The first word of `text` outside string literals that reads the clock, or a `'now'` literal.
    static func clockWord(in text: String) -> String? {
        let lowered = text.lowercased()
        if lowered.contains("'now'") { return "'now'" }
        for word in ["current_date", "current_timestamp", "current_time"] where lowered.contains(word) { return word }
        let noArguments = /\b(date|time|datetime|julianday|unixepoch)\s*\(\s*\)/
        if let match = lowered.firstMatch(of: noArguments) { return "\(match.1)() without arguments" }
        return nil
    }
}

/// What the authorizer refused, for the message (one preparation at a time).
private final class RefusalBox {
    var reason: String?
}
