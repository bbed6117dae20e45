/// A field of a source computed from the record's other fields by one SQL expression
/// (`"fields": {"country": {"sql": "substr(:code, 1, instr(:code, '-') - 1)"}}`; ``SQLiteExpression``).
public struct ComputedField: Sendable, Equatable {
    public var name: String
    /// The expression; `:name` is the record's field `name` (or another computed field).
    public var sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }

    /// The spec's `{"sql": "…"}` object.
    struct Declaration: Decodable {
        let sql: String

        enum CodingKeys: String, CodingKey, CaseIterable { case sql }

        init(from decoder: any Decoder) throws {
            try SpecKeys.rejectUnknown(decoder, allowed: CodingKeys.allCases.map(\.rawValue), what: "a computed field")
            sql = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .sql)
        }

        func field(named name: String) -> ComputedField { ComputedField(name: name, sql: sql) }
    }
}
