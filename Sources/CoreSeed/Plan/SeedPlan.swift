import Foundation

/// How one column of an entity's table gets its value for each record.
enum ColumnFill: Sendable {
    case primaryKey
    case entityNumber
    case optimisticLock
    /// A column of another entity of the hierarchy: always NULL for this entity's rows.
    case null
    case attribute(AttributeFill)
    /// A to-one key, its destination's entity number, or its order key: from the resolved link `slot`.
    case toOne(slot: Int)
    case toOneEntity(slot: Int)
    case toOneOrder(slot: Int)
}

/// Where an attribute's value comes from and how it is converted.
///
/// A class so that the per-row loops pass a reference, not a copy of the attribute and its converter.
final class AttributeFill: Sendable {
    let attribute: Attribute
    /// Cached from `attribute`: checked on every row.
    let isOptional: Bool
    let type: AttributeType
    let coercer: ValueCoercer
    /// Index in the source's `fieldNames`; nil for a constant or a default-only attribute.
    let fieldIndex: Int?
    /// The field as the input names it (for messages), or the attribute name.
    let fieldName: String
    let constant: FieldValue?
    /// Used when the field is NULL or blank (the spec's `default`, else the model's default value).
    let defaultValue: FieldValue?
    /// How the field was chosen, for `build --explain`: "the spec", "same name", "name match",
    /// "userInfo mappedKeyName", "a constant", "no field".
    let origin: String
    /// `"file": true`: the folder the field's file paths are relative to (the source file's); the
    /// value is the named file's bytes.
    let fileFolder: String?
    /// A Binary attribute with Allows External Storage: its column holds Core Data's marker (`0x01` +
    /// the bytes inline, or a reference to a file), decided here once for the row mapping.
    let allowsExternalStorage: Bool
    /// External storage: values larger than this many bytes go to external files; nil keeps all inline.
    let externalAbove: Int?
    /// The model's rules the converter leaves to the build (date bounds, binary lengths, patterns).
    let rules: AttributeRules?

    init(attribute: Attribute, coercer: ValueCoercer, fieldIndex: Int?, fieldName: String, constant: FieldValue?,
         defaultValue: FieldValue?, origin: String = "the spec", fileFolder: String? = nil, allowsExternalStorage: Bool = false,
         externalAbove: Int? = nil, rules: AttributeRules? = nil) {
        precondition(externalAbove == nil || allowsExternalStorage, "externalAbove is for external-storage attributes only")
        self.allowsExternalStorage = allowsExternalStorage
        self.origin = origin
        self.rules = rules
        self.externalAbove = externalAbove
        self.fileFolder = fileFolder
        self.attribute = attribute
        self.isOptional = attribute.isOptional
        self.type = attribute.type
        self.coercer = coercer
        self.fieldIndex = fieldIndex
        self.fieldName = fieldName
        self.constant = constant
        self.defaultValue = defaultValue
    }
}

/// One source feeding an entity: its reader's field names and a fill per table column.
struct SourcePlan: Sendable {
    let name: String
    let spec: SourceSpec
    let fieldNames: [String]
    let fills: [ColumnFill]
    /// Indexes of the key fields, empty when the entity has no key.
    let keyFields: [Int]
    /// For each of the entity's field links: the indexes of its key fields in this source.
    var linkFields: [[Int]]
    /// The field whose value is each record's `Z_PK` (`primaryKey`), when the spec names one.
    var primaryKeyField: Int? = nil
}

/// A relationship whose destination keys come from fields of the entity's own records.
struct FieldLink: Sendable {
    /// The entity whose records carry the keys.
    let entity: String
    /// The relationship on that entity (declared on it or inherited).
    let relationship: Relationship
    let fieldName: String
    let separator: String?
    let onUnresolved: SeedSpec.UnresolvedPolicy
    /// `prefer`: the sub-entity whose row a key matching rows of several decides for.
    var prefer: String? = nil
    /// Whether its keys are compared in NFC (``SeedPlan/normalizedRoots(_:graph:)``).
    var normalizesKeys = false
}

/// A relationship fed by a join source: each record links two keys.
struct JoinLink: Sendable {
    let entity: String
    let relationship: Relationship
    let sourceName: String
    let spec: SourceSpec
    let keyFields: [Int]
    let destinationKeyFields: [Int]
    let keyFieldName: String
    let destinationKeyFieldName: String
    let onUnresolved: SeedSpec.UnresolvedPolicy
    var prefer: String? = nil
    /// Whether the entity's and the destination's keys are compared in NFC.
    var normalizesKeys = false
    var normalizesDestinationKeys = false
}

/// One seeded entity.
struct EntityPlan: Sendable {
    let name: String
    let number: Int
    let rootName: String
    let table: StoreLayout.Table
    var sources: [SourcePlan]
    let duplicatePolicy: SeedSpec.DuplicatePolicy
    let keyFieldName: String?
    /// The to-one relationships of this entity's lineage that have columns, and the hidden keys of
    /// to-manys without inverse that point at it (``hiddenKeySlot(source:relationship:)``); a slot is
    /// an index here.
    let toOneSlots: [String]
    /// Relationships fed from this entity's own records.
    var fieldLinks: [FieldLink]
    /// Upserts: a blank field leaves the stored value as it is (`onBlank: keep`) instead of clearing it.
    let keepsBlanks: Bool
    /// The uniqueness constraints this entity's rows must keep, checked before SQLite sees them.
    let uniqueness: [UniquenessCheck]
    /// `primaryKey`: the field whose value is each row's `Z_PK` (object IDs kept across export and
    /// rebuild), instead of numbering rows 1, 2, … per hierarchy.
    var primaryKeyFieldName: String? = nil
    /// For an entity without `from` (rows already in the store only): the columns of its key attributes.
    var storedKeyColumns: [String] = []
    /// Whether its keys are compared in NFC (`"normalize": "nfc"` on it or on a relationship into its hierarchy).
    var normalizesKeys = false

    var hasKey: Bool { keyFieldName != nil }
    /// `key` as the entity's keys are compared.
    func comparedKey(_ key: String) -> String { KeyNormalization.compared(key, normalizes: normalizesKeys) }
    var keepsPrimaryKeys: Bool { primaryKeyFieldName != nil }
    /// An entity without `from`: the build adds no rows to it; relationships find its stored rows by key.
    var hasStoredRowsOnly: Bool { sources.isEmpty }
}

/// A seed spec resolved against the model, its layout and the sources' field names: everything the
/// build needs, checked before any row is read.
struct SeedPlan: Sendable {
    let spec: SeedSpec
    let model: Model
    let layout: StoreLayout
    /// Seeded entities in `Z_ENT` order.
    let entities: [EntityPlan]
    let joinLinks: [JoinLink]

    func entity(_ name: String) -> EntityPlan? { entities.first { $0.name == name } }
}

/// One uniqueness constraint as the build checks it: CoreSeed finds a repeat before SQLite's unique
/// index would, so the error names both records and `--max-errors` can leave the later one out.
struct UniquenessCheck: Sendable {
    /// Entities of one table that share the constraint share one set of seen values (`table:entity:attributes`).
    let scope: String
    /// The constraint's attributes, as messages name it.
    let constraint: String
    /// Per source of the entity: the fill of each attribute, in the constraint's order.
    let fills: [[AttributeFill]]

    /// The canonical key of a record's values for the constraint, or nil when one is NULL (SQLite's
    /// unique indexes let NULLs repeat). Integers and integral reals compare equal, as in SQLite.
    func key(_ record: Record, source: Int) throws(CoercionFailure) -> (key: String, display: String)? {
        var parts: [String] = [], shown: [String] = []
        for fill in fills[source] {
            let value = try fill.value(record)
            switch value {
            case .null: return nil
            case .integer(let number): parts.append("i\(number)"); shown.append(String(number))
            case .real(let number):
                if number == number.rounded(), abs(number) < 9e15 { parts.append("i\(Int64(number))") } else { parts.append("r\(number)") }
                shown.append(String(number))
            case .text(let text): parts.append("t" + text); shown.append(text)
            case .blob(let bytes): parts.append("b" + bytes.map { String($0, radix: 16) }.joined(separator: ".")); shown.append("<\(bytes.count) bytes>")
            }
        }
        return (parts.joined(separator: "\u{1F}"), shown.joined(separator: " / "))
    }
}

extension EntityPlan {
    /// The slot name of the hidden key that to-many `relationship` of `source`, which has no inverse,
    /// keeps on its destination's rows (§4c.4). No relationship name holds a `.`, so it names no to-one.
    static func hiddenKeySlot(source: String, relationship: String) -> String { "\(source).\(relationship)" }
}
