/// One property-list value, typed, so metadata keys we do not know are kept exactly and can be compared.
public enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    /// Seconds since 2001-01-01T00:00:00Z, as a binary plist stores dates.
    case date(Double)
    case data([UInt8])
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
}
