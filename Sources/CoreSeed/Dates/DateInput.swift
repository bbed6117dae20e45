/// One way a date field's values may be written, as a seed spec names it.
///
/// `"date": ["d-MMM-yy", "MMMM d, yyyy", "unix"]` gives three inputs, tried in that order.
public enum DateInput: Sendable, Hashable {
    /// A Unicode TR35 pattern such as `d-MMM-yy` or `yyyy-MM-dd'T'HH:mm:ssZZZZZ`.
    case pattern(String)
    /// ISO 8601 / RFC 3339: `2010-03-26`, `2010-03-26T04:00:00`, with `.fff`, `Z` or `±hh:mm`.
    /// Always tried last, even when not listed.
    case iso8601
    /// Seconds since 1970-01-01T00:00:00Z, as a number or as numeric text (spec name `unix`).
    case unixSeconds
    /// Milliseconds since 1970-01-01T00:00:00Z, as a number or numeric text (spec name `unixMilliseconds`).
    case unixMilliseconds
    /// Seconds since 2001-01-01T00:00:00Z already — Core Data's own value (spec name `reference`).
    case referenceSeconds

    /// The input a seed spec names: `iso8601`, `unix`, `unixMilliseconds`, `reference`, else a pattern.
    public init(name: String) {
        switch name {
        case "iso8601": self = .iso8601
        case "unix": self = .unixSeconds
        case "unixMilliseconds": self = .unixMilliseconds
        case "reference": self = .referenceSeconds
        default: self = .pattern(name)
        }
    }

    /// The name a seed spec uses for this input, and that messages quote.
    public var name: String {
        switch self {
        case .pattern(let pattern): pattern
        case .iso8601: "iso8601"
        case .unixSeconds: "unix"
        case .unixMilliseconds: "unixMilliseconds"
        case .referenceSeconds: "reference"
        }
    }
}
