/// A field of a source computed per record (``ComputedFieldsReader``): by one SQL expression over the
/// record's fields (`"fields": {"country": {"sql": "substr(:code, 1, instr(:code, '-') - 1)"}}`;
/// ``SQLiteExpression``), or a generated UUID of an attribute's `{"uuid": …}` (``NameBasedUUID``).
public struct ComputedField: Sendable, Equatable {
    // Indirect (each case boxed): laid out inline, the -O case test of this multi-payload enum read an
    // uninitialised byte under valgrind (Swift 6.3.1, make memcheck's world build); boxed, it reads the box.
    public indirect enum Formula: Sendable, Equatable {
        /// One SQL expression; `:name` is the record's field `name` (or another computed field).
        case sql(String)
        /// The version-5 UUID of `coreseed:<entity>/<key>` in the URL namespace, `key` the natural key
        /// of the record's `keyFields` (its parts joined by U+001F); NULL for a record without a key.
        case uuidFromKey(entity: String, keyFields: [String])
        /// A version-4 UUID from `seed` (the store's UUID, filled in when the plan is made), the entity
        /// and the record's position in the source.
        case uuidRandom(entity: String, seed: String)
        /// Field `plan.fields[field]` of the joined record whose key equals the natural key of the
        /// record's `keyFields` (NULL when none does; ``JoinedRecords``).
        case joined(plan: JoinPlan, field: Int, keyFields: [String])
    }

    public var name: String
    public var formula: Formula

    public init(name: String, formula: Formula) {
        self.name = name
        self.formula = formula
    }

    /// The spec's `{"sql": "…"}` object.
    struct Declaration: Decodable {
        let sql: String

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            if let unknown = container.allKeys.first(where: { $0.stringValue != "sql" }) {
                throw DecodingError.dataCorruptedError(forKey: unknown, in: container,
                    debugDescription: "unknown key '\(unknown.stringValue)' in a computed field (known: sql)")
            }
            sql = try container.decode(String.self, forKey: Key(stringValue: "sql"))
        }

        func field(named name: String) -> ComputedField { ComputedField(name: name, formula: .sql(sql)) }
    }
}
