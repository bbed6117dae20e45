/// Natural keys: the canonical text a key's field values compare by, so that the integer 35216 from a
/// SQLite column and the text "35216" from a CSV name the same row.
enum NaturalKey {
    /// Joins the parts of a compound key; a control character that real keys do not contain.
    static let separator: Character = "\u{1F}"

    /// The canonical text of one value, or nil when it is NULL or blank (no key).
    static func part(_ value: FieldValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let number): return String(number)
        case .real(let number):
            if number.isFinite, number == number.rounded(), abs(number) < 9.0e15 { return String(Int64(number)) }
            return String(number)
        case .text(let text):
            let trimmed = ASCII.trimmedSpaces(text)
            return trimmed.isEmpty ? nil : trimmed
        case .blob(let bytes): return bytes.isEmpty ? nil : bytes.map { String($0, radix: 16) }.joined()
        case .list(let values): return values.count == 1 ? part(values[0]) : nil
        }
    }

    /// A one-part key that is an integer in canonical form (what ``NaturalKey/canonicalInteger(_:)`` reads
    /// from ``part(_:)``'s text), without making that text; nil for every other key.
    @inline(__always)
    static func integer(_ value: FieldValue) -> Int64? {
        switch value {
        case .integer(let number): return integer(FieldView.integer(number))
        case .text(var text): return text.withUTF8 { integer(FieldView.text($0)) }
        default: return nil
        }
    }

    /// ``integer(_:)`` of a field seen in place.
    @inline(__always)
    static func integer(_ view: FieldView) -> Int64? {
        switch view {
        case .integer(let number): return number.magnitude < 1_000_000_000_000_000_000 ? number : nil
        case .text(let bytes): return NaturalKey.canonicalInteger(bytes: ASCII.trimmed(bytes))
        case .null, .real, .other: return nil
        }
    }

    /// The key of a record from the values at `indexes`, or nil when any part is missing.
    static func key(_ values: [FieldValue], at indexes: [Int]) -> String? {
        if indexes.count == 1 { return part(values[indexes[0]]) }
        var parts: [String] = []
        for index in indexes {
            guard let text = part(values[index]) else { return nil }
            parts.append(text)
        }
        return parts.joined(separator: String(separator))
    }

    /// Every key a relationship field holds: a list's elements, text split by `separator`, or one value.
    static func keys(_ value: FieldValue, separator: String?) -> [String] {
        switch value {
        case .list(let values): return values.compactMap(part)
        case .text(let text) where separator != nil && !separator!.isEmpty:
            return text.components(separatedBy: separator!).compactMap { part(.text($0)) }
        default: return part(value).map { [$0] } ?? []
        }
    }

    /// How a key appears in messages (compound parts joined by " / ").
    static func display(_ key: String) -> String {
        key.split(separator: separator, omittingEmptySubsequences: false).joined(separator: " / ")
    }

    /// The integer `text` spells in canonical form (no `+`, no leading zeros, at most 18 digits), or nil.
    static func canonicalInteger(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8 { canonicalInteger(bytes: $0) }
    }

    /// ``canonicalInteger(_:)`` of UTF-8 bytes.
    @inline(__always)
    // SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func canonicalInteger(bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= 19 else { return nil }
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        let digits = bytes.count - index
        guard digits >= 1, digits <= 18 else { return nil }
        if bytes[index] == UInt8(ascii: "0") && (digits > 1 || negative) { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            index += 1
        }
        return negative ? -value : value
    }
}
