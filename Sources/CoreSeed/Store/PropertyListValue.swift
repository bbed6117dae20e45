import Foundation

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

    /// Converts what `PropertyListSerialization` returns; nil for anything that is not a plist value.
    init?(foundation value: Any) {
        switch value {
        case let string as String:
            self = .string(string)
        case let data as Data:
            self = .data([UInt8](data))
        case let date as Date:
            self = .date(date.timeIntervalSinceReferenceDate)
        case let array as [Any]:
            var items: [PropertyListValue] = []
            for item in array {
                guard let converted = PropertyListValue(foundation: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        case let dictionary as [String: Any]:
            var items: [String: PropertyListValue] = [:]
            for (key, item) in dictionary {
                guard let converted = PropertyListValue(foundation: item) else { return nil }
                items[key] = converted
            }
            self = .dictionary(items)
        case let number as NSNumber:
            // The reader makes booleans with NSNumber(value: Bool) ("c") and reals as "d"/"f".
            switch String(cString: number.objCType) {
            case "c", "B": self = .boolean(number.boolValue)
            case "d", "f": self = .real(number.doubleValue)
            default: self = .integer(number.int64Value)
            }
        default:
            return nil
        }
    }
}
