/// One entry of a seed spec's `"sources"` object: which file to read and how.
///
/// ```json
/// { "sqlite": "legacy.sqlite3", "table": "failed_banks" }
/// { "sqlite": "legacy.sqlite3", "query": "SELECT * FROM failed_banks", "maxRows": 50000000 }
/// { "csv": "banklist.csv", "delimiter": ",", "quote": "\"", "header": true, "encoding": "utf-8", "trim": "none" }
/// { "xml": "providers.xml", "records": "/serviceproviders/country/provider", "fields": { "name": "name", "country": "../@code" } }
/// { "json": "export.json", "records": "/users/*", "fields": { "city": "address.city" } }
/// { "jsonl": "events.jsonl" }
/// ```
/// Paths are relative to the spec file's directory. Unknown keys are rejected. XML fields are
/// ordered by name.
public enum SourceSpec: Sendable, Equatable, Decodable {
    /// `maxRows`: the most rows a view or query may give (`"maxRows"`; nil: `SQLiteRecordReader.defaultMaxRows`).
    case sqlite(path: String, selection: SQLiteSelection, maxRows: Int? = nil)
    case csv(path: String, options: CSVOptions)
    case xml(path: String, records: String, fields: [SourceField])
    /// A JSON document (`records`: the path to the record values) or, with no `records`, JSON Lines;
    /// `fields` nil takes every key found in any record.
    case json(path: String, records: String?, fields: [SourceField]?)
    /// A source with computed fields (`"fields": {"name": {"sql": …}}`) and a filter (`"where"`),
    /// evaluated per record after `base` reads it (``ComputedFieldsReader``).
    indirect case computed(base: SourceSpec, fields: [ComputedField], filter: String?)

    /// What a SQLite source reads: a whole table (rows keep their rowid) or a query's result.
    public enum SQLiteSelection: Sendable, Equatable {
        case table(String)
        case query(String)
    }

    /// The file this source reads, as written in the spec.
    public var path: String {
        switch self {
        case .sqlite(let path, _, _), .csv(let path, _), .xml(let path, _, _), .json(let path, _, _): return path
        case .computed(let base, _, _): return base.path
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let keys = Set(container.allKeys.map(\.stringValue))
        let kinds = keys.intersection(["sqlite", "csv", "xml", "json", "jsonl"])
        guard kinds.count == 1, let kind = kinds.first else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "a source needs exactly one of \"sqlite\", \"csv\", \"xml\", \"json\" or \"jsonl\""))
        }
        var allowed: Set<String>
        switch kind {
        case "sqlite": allowed = ["sqlite", "table", "query", "maxRows"]
        case "csv": allowed = ["csv", "delimiter", "quote", "header", "encoding", "trim", "nullIfUnquotedEmpty", "comment", "ragged"]
        case "json": allowed = ["json", "records", "fields"]
        case "jsonl": allowed = ["jsonl", "fields"]
        default: allowed = ["xml", "records", "fields"]
        }
        allowed.formUnion(["fields", "where"])  // computed fields and a filter, on every kind
        if let unknown = keys.subtracting(allowed).sorted().first {
            throw DecodingError.dataCorruptedError(
                forKey: Key(unknown), in: container,
                debugDescription: "unknown key '\(unknown)' for a \(kind) source (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
        let path = try container.decode(String.self, forKey: Key(kind))
        let declared = try container.decodeIfPresent(OrderedFields.self, forKey: Key("fields"))
        let computed = declared?.computed ?? []
        let filter = try container.decodeIfPresent(String.self, forKey: Key("where"))
        for field in computed {
            guard case .sql(let sql) = field.formula else { continue }
            do throws(SQLiteExpression.Problem) { _ = try SQLiteExpression(sql) } catch {
                throw DecodingError.dataCorruptedError(forKey: Key("fields"), in: container,
                    debugDescription: "field '\(field.name)': {\"sql\": \"\(sql)\"}: \(error.message)")
            }
        }
        if let filter {
            do throws(SQLiteExpression.Problem) { _ = try SQLiteExpression(filter) } catch {
                throw DecodingError.dataCorruptedError(forKey: Key("where"), in: container, debugDescription: "\"\(filter)\": \(error.message)")
            }
        }
        if (kind == "csv" || kind == "sqlite"), let path = declared?.fields.first {
            throw DecodingError.dataCorruptedError(forKey: Key("fields"), in: container,
                debugDescription: "field '\(path.name)': a \(kind) source's fields are its \(kind == "csv" ? "header's names" : "columns"); \"fields\" may only add computed ones, as {\"sql\": \"…\"}")
        }
        try self.init(kind: kind, path: path, container: container, declared: declared)
        if !computed.isEmpty || filter != nil { self = .computed(base: self, fields: computed, filter: filter) }
    }

    private init(kind: String, path: String, container: KeyedDecodingContainer<Key>, declared: OrderedFields?) throws {
        switch kind {
        case "sqlite":
            let table = try container.decodeIfPresent(String.self, forKey: Key("table"))
            let query = try container.decodeIfPresent(String.self, forKey: Key("query"))
            let maxRows = try container.decodeIfPresent(Int.self, forKey: Key("maxRows"))
            if let maxRows, maxRows < 1 {
                throw DecodingError.dataCorruptedError(forKey: Key("maxRows"), in: container,
                    debugDescription: "\"maxRows\" must be a positive number of rows, not \(maxRows)")
            }
            switch (table, query) {
            case (let table?, nil): self = .sqlite(path: path, selection: .table(table), maxRows: maxRows)
            case (nil, let query?): self = .sqlite(path: path, selection: .query(query), maxRows: maxRows)
            default:
                throw DecodingError.dataCorruptedError(
                    forKey: Key("sqlite"), in: container,
                    debugDescription: "a sqlite source needs exactly one of \"table\" or \"query\"")
            }
        case "csv":
            self = .csv(path: path, options: try CSVOptions(from: container))
        case "json", "jsonl":
            let records = kind == "json" ? try container.decode(String.self, forKey: Key("records")) : nil
            // Only computed fields declared: every key of the records is a field too, as without "fields".
            let fields = declared.flatMap { $0.fields.isEmpty ? nil : $0.fields }
            // Paths are checked here, so that a mistake is named at its spec key (the reader checks again).
            if let records, let problem = JSONRecordReader.recordsProblem(records) {
                throw DecodingError.dataCorruptedError(forKey: Key("records"), in: container, debugDescription: problem)
            }
            for field in fields ?? [] where JSONFieldPath(field.path) == nil {
                throw DecodingError.dataCorruptedError(forKey: Key("fields"), in: container,
                    debugDescription: ReaderError.Reason.jsonUnsupportedPath(field: field.name, path: field.path).message)
            }
            self = .json(path: path, records: records, fields: fields)
        default:
            let records = try container.decode(String.self, forKey: Key("records"))
            guard let fields = declared, !fields.fields.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: Key("fields"), in: container,
                    debugDescription: "an xml source needs \"fields\": paths to each record's values, e.g. {\"name\": \"name\", \"code\": \"@code\"}")
            }
            if let problem = XMLRecordReader.recordsProblem(records) {
                throw DecodingError.dataCorruptedError(forKey: Key("records"), in: container, debugDescription: problem)
            }
            for field in fields.fields where XMLFieldPath.splitIndex(field.path).flatMap({ XMLFieldPath($0.path) }) == nil {
                throw DecodingError.dataCorruptedError(forKey: Key("fields"), in: container,
                    debugDescription: ReaderError.Reason.xmlUnsupportedPath(field: field.name, path: field.path).message)
            }
            self = .xml(path: path, records: records, fields: fields.fields)
        }
    }

    /// The `"fields"` object, sorted by field name: `JSONDecoder` does not keep the text's key
    /// order (its `allKeys` comes from a dictionary), and a fixed order keeps output deterministic.
    struct OrderedFields: Decodable {
        var fields: [SourceField] = []
        /// The entries given as `{"sql": "…"}`.
        var computed: [ComputedField] = []
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                if let path = try? container.decode(String.self, forKey: key) {
                    fields.append(SourceField(name: key.stringValue, path: path))
                } else {
                    computed.append(try container.decode(ComputedField.Declaration.self, forKey: key).field(named: key.stringValue))
                }
            }
        }
    }
}

/// One field of an XML or JSON source: the name it gets and its path relative to the record.
public struct SourceField: Sendable, Equatable {
    public var name: String
    public var path: String

    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }
}
