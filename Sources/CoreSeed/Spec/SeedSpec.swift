import Foundation

/// A seed spec: which sources feed which entities of which model, and where the store goes.
/// JSON with comments and trailing commas (JSON5); paths are relative to the spec file. See docs/SPEC.md.
public struct SeedSpec: Sendable {
    /// How `build` treats an existing store at the output path.
    public enum Mode: String, Sendable, Decodable {
        /// A new store replaces the output (the default).
        case replace
        /// Rows are matched by key: changed ones updated, new ones added, the rest kept.
        case upsert
        /// Only rows whose key is not in the store yet are added.
        case insert
        /// As `upsert`, and the stored rows of the seeded entities whose key is not in the input are
        /// deleted, applying the model's delete rules (`SyncDeletion`). Asked for on the command line only.
        case sync
    }

    /// What to do with a second record carrying a key already seen.
    public enum DuplicatePolicy: String, Sendable, Decodable {
        case error, first, last
    }

    /// What to do with a relationship key that matches no row: an error, or the link dropped
    /// (`skip`, or `null`: the same, named for the NULL a to-one keeps); dropped links are counted.
    public enum UnresolvedPolicy: String, Sendable, Decodable {
        case error, skip, null
    }

    /// How keys are compared: `nfc`, in Unicode NFC (bytes as they are when not said).
    public enum KeyForm: String, Sendable, Decodable {
        case nfc
    }

    /// What a blank field (empty, only spaces, or NULL) does to a row already in the store (upsert).
    public enum BlankPolicy: String, Sendable, Decodable {
        /// The stored value stays (the default): a sparse change file changes only what it names.
        case keep
        /// The stored value is cleared, as a new row would get it.
        case null
    }

    public var model: String
    public var modelVersion: String?
    public var configuration: String?
    public var output: String?
    public var mode: Mode
    /// The `NSPersistenceFrameworkVersion` to write and whose SQL form to use.
    public var frameworkVersion: Int?
    /// The default time zone of date fields (default UTC).
    public var timeZone: String?
    /// The default two-digit-year pivot of date fields.
    public var pivot: Int?
    /// A fixed store UUID; by default it derives from the inputs.
    public var storeUUID: String?
    /// Recorded in the store's metadata as `CoreSeedVersion`.
    public var seedVersion: String?
    public var sources: [String: SourceSpec]
    public var entities: [String: EntitySpec]
    /// The default of every entity's `onBlank` (upserts): `keep` unless said.
    public var onBlank: BlankPolicy? = nil
    /// The app's own metadata keys for `Z_METADATA` (what `export --spec` keeps of the original store).
    public var metadata: [String: PropertyListValue] = [:]
    /// The spec file as the user named it.
    public var path: String
    /// The folder relative paths are resolved against: the spec file's folder, as the user named it
    /// ("" for the current folder), so that messages show paths the way the user would type them.
    public var directory: String
    /// The default `externalAbove` of every Binary attribute that allows external storage: values larger
    /// than this many bytes go to files in the store's support folder; nil keeps every value inline.
    public var externalAbove: Int? = nil
    /// Whether a new store gets Core Data's persistent-history tables and the seed as one transaction
    /// (`PersistentHistory`); an update (`--into`) goes by whether its store has them.
    public var historyTracking = false
    /// The framework version of the one tracked store in evidence, whose history tables CoreSeed writes.
    public static let historyFramework = 1344

    /// Resolves a path from the spec against its folder, lexically (`Inputs/../Outputs/x` → `Outputs/x`).
    public func resolve(_ path: String) -> String {
        SeedSpec.join(directory, path)
    }

    /// The folder `path` is in, as written: "" for a bare file name, "/" for a file at the root.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func join(_ directory: String, _ path: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty { return path }
        var parts: [Substring] = []
        let absolute = directory.hasPrefix("/")
        for part in (directory + "/" + path).split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            if part == "..", absolute, parts.isEmpty { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}

/// How one entity is fed.
public struct EntitySpec: Sendable, Decodable {
    /// Source names, in order; their records become this entity's rows. Empty (no `from`) for an
    /// entity whose rows are only those already in the store (`--into`), keyed by the attributes `key` names.
    public var from: [String]
    /// Field(s) whose values form the natural key.
    public var key: [String]?
    public var attributes: [String: AttributeSpec]
    public var relationships: [String: RelationshipSpec]
    public var onDuplicateKey: SeedSpec.DuplicatePolicy
    /// What blank fields do to this entity's rows already in the store (upserts); the spec's `onBlank` if nil.
    public var onBlank: SeedSpec.BlankPolicy?
    /// The field whose value is each row's `Z_PK` (what `export --spec` writes, so a rebuild keeps
    /// object IDs); rows are numbered 1, 2, … otherwise.
    public var primaryKey: String?
    /// `nfc`: the entity's keys are compared in Unicode NFC (docs/SPEC.md, "Keys").
    public var normalize: SeedSpec.KeyForm?
    /// `"key": {"sql": "…"}`: the key computed by an expression (made a computed field of each source).
    public var keySQL: String?
    /// `"where"`: only the records of its sources for which this expression is true become rows.
    public var filter: String?
    /// `"join"`: per source name, more attributes from that source's records whose key matches.
    public var join: [String: JoinSpec] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case from, key, attributes, relationships, onDuplicateKey, onBlank, primaryKey, normalize
        case filter = "where", join
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try SpecKeys.rejectUnknown(decoder, allowed: CodingKeys.allCases.map(\.rawValue), what: "an entity")
        from = try container.decodeIfPresent(OneOrMany.self, forKey: .from)?.values ?? []
        if let computed = try? container.decodeIfPresent(ComputedField.Declaration.self, forKey: .key) {
            keySQL = computed.sql
        } else {
            key = try container.decodeIfPresent(OneOrMany.self, forKey: .key)?.values
        }
        filter = try container.decodeIfPresent(String.self, forKey: .filter)
        join = try container.decodeIfPresent([String: JoinSpec].self, forKey: .join) ?? [:]
        attributes = try container.decodeIfPresent([String: AttributeSpec].self, forKey: .attributes) ?? [:]
        relationships = try container.decodeIfPresent([String: RelationshipSpec].self, forKey: .relationships) ?? [:]
        onDuplicateKey = try container.decodeIfPresent(SeedSpec.DuplicatePolicy.self, forKey: .onDuplicateKey) ?? .error
        onBlank = try container.decodeIfPresent(SeedSpec.BlankPolicy.self, forKey: .onBlank)
        primaryKey = try container.decodeIfPresent(String.self, forKey: .primaryKey)
        normalize = try container.decodeIfPresent(SeedSpec.KeyForm.self, forKey: .normalize)
    }
}

/// One `"join"` of an entity mapping: the joined source's field(s) holding the entity's key, and
/// which of its fields feed which attributes.
public struct JoinSpec: Sendable, Decodable {
    public var key: [String]
    /// Attribute name → field of the joined source.
    public var attributes: [String: String]

    enum CodingKeys: String, CodingKey, CaseIterable { case key, attributes }

    public init(from decoder: any Decoder) throws {
        try SpecKeys.rejectUnknown(decoder, allowed: CodingKeys.allCases.map(\.rawValue), what: "a join")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(OneOrMany.self, forKey: .key).values
        attributes = try container.decode([String: String].self, forKey: .attributes)
    }
}

/// How one attribute gets its value: a field name, or an object with conversion details.
public struct AttributeSpec: Sendable, Decodable {
    /// The source field.
    public var field: String?
    /// A constant for every row (text, number or boolean), instead of a field.
    public var value: FieldValue?
    /// Date inputs tried in order: TR35 patterns, or "iso8601", "unix", "unixMilliseconds", "reference".
    public var date: [String]?
    public var timeZone: String?
    public var pivot: Int?
    /// Used when the field is missing, NULL or empty (text, converted like a field value).
    public var defaultValue: String?
    /// `"default": null`: no default at all, not even the model's (a NULL stays NULL).
    public var noDefault = false
    public var emptyIsNull: Bool?
    /// Binary from base64 text.
    public var base64: Bool?
    /// Integers accept integral reals ("12.0").
    public var integralReals: Bool?
    /// Binary: the field names a file (relative to the source file's folder) whose bytes are the value.
    public var file: Bool?
    /// Binary with external storage: values larger than this many bytes go to external files.
    public var externalAbove: Int?
    /// Transformable: the field holds a value to archive, as `json` or as a `list` of strings.
    public var archive: String?
    /// `archive: list`: what separates the strings (default `;`).
    public var separator: String?
    /// The value computed by one SQL expression over the record's fields (docs/SPEC.md).
    public var sql: String?
    /// A UUID attribute's generated value: `fromKey` (derived from the entity and the record's key) or `random`.
    public var uuid: UUIDRule?

    /// How `{"uuid": …}` makes a value.
    public enum UUIDRule: String, Sendable, Decodable {
        case fromKey, random
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case field, value, date, timeZone, pivot, defaultValue = "default", emptyIsNull, base64, integralReals, file
        case externalAbove, archive, separator, sql, uuid
    }

    public init(field: String) {
        self.field = field
    }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            field = name
            return
        }
        try SpecKeys.rejectUnknown(decoder, allowed: CodingKeys.allCases.map(\.rawValue), what: "an attribute")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        field = try container.decodeIfPresent(String.self, forKey: .field)
        if container.contains(.value) {
            if let text = try? container.decode(String.self, forKey: .value) { value = .text(text) }
            else if let flag = try? container.decode(Bool.self, forKey: .value) { value = .integer(flag ? 1 : 0) }
            else if let number = try? container.decode(Int64.self, forKey: .value) { value = .integer(number) }
            else if let number = try? container.decode(Double.self, forKey: .value) { value = .real(number) }
            else { value = FieldValue.null }
        }
        date = try container.decodeIfPresent(OneOrMany.self, forKey: .date)?.values
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        pivot = try container.decodeIfPresent(Int.self, forKey: .pivot)
        if container.contains(.defaultValue), try container.decodeNil(forKey: .defaultValue) {
            noDefault = true
        } else {
            defaultValue = try container.decodeIfPresent(String.self, forKey: .defaultValue)
        }
        emptyIsNull = try container.decodeIfPresent(Bool.self, forKey: .emptyIsNull)
        base64 = try container.decodeIfPresent(Bool.self, forKey: .base64)
        integralReals = try container.decodeIfPresent(Bool.self, forKey: .integralReals)
        file = try container.decodeIfPresent(Bool.self, forKey: .file)
        externalAbove = try container.decodeSizeIfPresent(forKey: .externalAbove)
        archive = try container.decodeIfPresent(String.self, forKey: .archive)
        separator = try container.decodeIfPresent(String.self, forKey: .separator)
        sql = try container.decodeIfPresent(String.self, forKey: .sql)
        uuid = try container.decodeIfPresent(UUIDRule.self, forKey: .uuid)
        let feeds = [field != nil, value != nil, sql != nil, uuid != nil].filter { $0 }.count
        if feeds > 1 {
            throw DecodingError.dataCorruptedError(forKey: .field, in: container,
                debugDescription: "give one of \"field\", \"value\", \"sql\" or \"uuid\": each is a whole way to fill the attribute")
        }
    }
}

/// How one relationship is resolved, by natural key.
///
/// - `"key": FIELD` — this record's FIELD holds the destination's key (to-one; for to-many, a list:
///   an XML repeated child, or text split by `separator`).
/// - `"foreignKey": FIELD` (to-many only) — each destination record's FIELD holds this entity's key.
/// - `"from": SOURCE, "key": FIELD, "destinationKey": FIELD` — a join source: each of its records links
///   the row whose key is in `key` to the destination whose key is in `destinationKey`, in record order.
public struct RelationshipSpec: Sendable, Decodable {
    public var key: [String]?
    public var foreignKey: [String]?
    public var from: String?
    public var destinationKey: [String]?
    public var separator: String?
    public var onUnresolved: SeedSpec.UnresolvedPolicy
    /// The sub-entity of an abstract destination whose row a key matching rows of several decides for.
    public var prefer: String?
    /// `nfc`: keys into the destination's hierarchy are compared in Unicode NFC.
    public var normalize: SeedSpec.KeyForm?
    /// `"key": {"sql": "…"}`: the destination's key computed by an expression.
    public var keySQL: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case key, foreignKey, from, destinationKey, separator, onUnresolved, prefer, normalize
    }

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let name = try? single.decode(String.self) {
            key = [name]
            onUnresolved = .error
            return
        }
        try SpecKeys.rejectUnknown(decoder, allowed: CodingKeys.allCases.map(\.rawValue), what: "a relationship")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let computed = try? container.decodeIfPresent(ComputedField.Declaration.self, forKey: .key) {
            keySQL = computed.sql
        } else {
            key = try container.decodeIfPresent(OneOrMany.self, forKey: .key)?.values
        }
        foreignKey = try container.decodeIfPresent(OneOrMany.self, forKey: .foreignKey)?.values
        from = try container.decodeIfPresent(String.self, forKey: .from)
        destinationKey = try container.decodeIfPresent(OneOrMany.self, forKey: .destinationKey)?.values
        separator = try container.decodeIfPresent(String.self, forKey: .separator)
        onUnresolved = try container.decodeIfPresent(SeedSpec.UnresolvedPolicy.self, forKey: .onUnresolved) ?? .error
        prefer = try container.decodeIfPresent(String.self, forKey: .prefer)
        normalize = try container.decodeIfPresent(SeedSpec.KeyForm.self, forKey: .normalize)
    }
}

/// A string or an array of strings.
struct OneOrMany: Decodable {
    let values: [String]
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(String.self) { values = [one] }
        else { values = try container.decode([String].self) }
    }
}

/// Rejects keys a spec object does not know, so a typo is an error rather than silently ignored.
enum SpecKeys {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func rejectUnknown(_ decoder: any Decoder, allowed: [String], what: String) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where !allowed.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container,
                debugDescription: "unknown key '\(key.stringValue)' in \(what)\(Suggestion.hint(for: key.stringValue, in: allowed)) (known: \(allowed.joined(separator: ", ")))")
        }
    }
}

extension SeedSpec {
    /// One value of the spec's `metadata`: text, a number or a boolean, kept as that property-list type.
    public enum MetadataValue: Sendable, Decodable {
        case string(String)
        case integer(Int64)
        case real(Double)
        case boolean(Bool)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) { self = .boolean(flag); return }
            if let number = try? container.decode(Int64.self) { self = .integer(number); return }
            if let number = try? container.decode(Double.self) { self = .real(number); return }
            if let text = try? container.decode(String.self) { self = .string(text); return }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "a metadata value is text, a number or true/false"))
        }

        var propertyListValue: PropertyListValue {
            switch self {
            case .string(let text): .string(text)
            case .integer(let number): .integer(number)
            case .real(let number): .real(number)
            case .boolean(let flag): .boolean(flag)
            }
        }
    }

    /// Keys Core Data writes itself (`NS…`, `_NS…`) and CoreSeed's own record: never the spec's to set.
    static func isCoreDataMetadataKey(_ key: String) -> Bool {
        key.hasPrefix("NS") || key.hasPrefix("_NS") || key == "CoreSeedVersion"
    }
}

extension KeyedDecodingContainer {
    /// `externalAbove`, the spec's and an attribute's: a number of bytes, 0 or more, checked here where
    /// the spec is read (the only place), so that the plan and the build take it as it is.
    func decodeSizeIfPresent(forKey key: Key) throws -> Int? {
        guard let bytes = try decodeIfPresent(Int.self, forKey: key) else { return nil }
        guard bytes >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\(bytes) is not a size: give the number of bytes above which values go to external files (0 or more)")
        }
        return bytes
    }
}
