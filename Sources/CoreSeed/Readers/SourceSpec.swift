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

    /// What a SQLite source reads: a whole table (rows keep their rowid) or a query's result.
    public enum SQLiteSelection: Sendable, Equatable {
        case table(String)
        case query(String)
    }

    /// The file this source reads, as written in the spec.
    public var path: String {
        switch self {
        case .sqlite(let path, _, _), .csv(let path, _), .xml(let path, _, _), .json(let path, _, _): return path
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
        let allowed: Set<String>
        switch kind {
        case "sqlite": allowed = ["sqlite", "table", "query", "maxRows"]
        case "csv": allowed = ["csv", "delimiter", "quote", "header", "encoding", "trim", "nullIfUnquotedEmpty", "comment", "ragged"]
        case "json": allowed = ["json", "records", "fields"]
        case "jsonl": allowed = ["jsonl", "fields"]
        default: allowed = ["xml", "records", "fields"]
        }
        if let unknown = keys.subtracting(allowed).sorted().first {
            throw DecodingError.dataCorruptedError(
                forKey: Key(unknown), in: container,
                debugDescription: "unknown key '\(unknown)' for a \(kind) source (allowed: \(allowed.sorted().joined(separator: ", ")))")
        }
        let path = try container.decode(String.self, forKey: Key(kind))
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
            let fields = try container.decodeIfPresent(OrderedFields.self, forKey: Key("fields"))?.fields
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
            let fields = try container.decode(OrderedFields.self, forKey: Key("fields"))
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
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                fields.append(SourceField(name: key.stringValue, path: try container.decode(String.self, forKey: key)))
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
