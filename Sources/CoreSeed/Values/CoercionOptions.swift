/// How strict one field's conversion is, as the seed spec sets it per attribute.
public struct CoercionOptions: Sendable, Equatable {
    /// Accept integral decimal text such as `"12.000"` for Integer attributes (spec `"integralReals": true`).
    /// Real *values* (SQLite REAL) that are integral are always accepted.
    public var allowsIntegralReals: Bool
    /// Whether empty text becomes NULL (spec `"emptyIsNull"`). `nil` means the default: yes for every
    /// type but String, where `""` stays an empty string. For non-strings, text of only spaces counts as empty.
    public var emptyIsNull: Bool?
    /// Blank text (empty, or spaces and tabs only) is NULL in every type, String included, unless
    /// `emptyIsNull` says `false`: the entity's `"onBlank": "null"`.
    public var blankIsNull = false
    /// Decode text as base64 for Binary and Transformable attributes (spec `"base64": true`);
    /// otherwise Binary stores the text's UTF-8 bytes.
    public var base64: Bool
    /// Transformable: the field holds a value that CoreSeed archives (spec `"archive"`), not the archive.
    public var archive: ArchiveInput?

    /// How a field holds the value a Transformable attribute archives.
    public enum ArchiveInput: Sendable, Equatable {
        /// JSON text (`"archive": "json"`): ``ArchivedValue``'s forms.
        case json
        /// Strings between `separator` (`"archive": "list"`), each trimmed of spaces, empty ones left out;
        /// an XML element repeated gives one string per occurrence.
        case list(separator: String)
    }

    public init(allowsIntegralReals: Bool = false, emptyIsNull: Bool? = nil, base64: Bool = false, archive: ArchiveInput? = nil,
                blankIsNull: Bool = false) {
        self.allowsIntegralReals = allowsIntegralReals
        self.emptyIsNull = emptyIsNull
        self.blankIsNull = blankIsNull
        self.base64 = base64
        self.archive = archive
    }
}
