/// Why one value could not become an attribute's value: what was expected and the value seen.
///
/// The message text is produced here and nowhere else. The mapper wraps a failure in a
/// ``MappingError`` that adds the location, the field, the entity and the attribute.
public struct CoercionFailure: Error, Sendable, Equatable {
    /// What went wrong, kept private so that new cases do not break callers.
    enum Reason: Sendable, Equatable {
        /// `is not <expected>`, e.g. `an Integer 32`, `a date matching "d-MMM-yy"`.
        case notA
        /// `is not <expected>; <hint>`: how the value could be read (date patterns that match it).
        case notAWithHint(String)
        /// `is out of range for <expected> (<lower>…<upper>)`.
        case outOfRange(lower: String, upper: String)
        /// `is too close to 0 for <expected>`: a non-zero value that would be stored as 0.
        case underflow(smallest: String)
        /// `has <n> significant digits, more than <expected> holds`.
        case tooManyDigits(Int, limit: Int)
        /// `is less than the model's minimum <bound> for <expected>`.
        case belowMinimum(String)
        /// `is greater than the model's maximum <bound> for <expected>`.
        case aboveMaximum(String)
        /// `is shorter than the model's minimum length <n>`.
        case tooShort(Int)
        /// `is longer than the model's maximum length <n>`.
        case tooLong(Int)
        /// `cannot be stored in <expected>` (Undefined, ObjectID, Composite attributes).
        case unsupported
        /// `matches no <expected> key` (a relationship key with no destination row).
        case unresolvedKey
        /// `matches no <expected> key; <note>` (its other Unicode normalization form exists).
        case unresolvedKeyNoted(String)
        /// `repeats a <expected> key first seen at <location>`.
        case duplicateKey(firstSeen: String)
        /// The record's relationship points at a record that was rejected: it is left out too.
        case leftOut(because: String)
        /// A uniqueness constraint's values already used by an earlier record.
        case notUnique(constraint: String, firstSeen: String)
        /// `leaves the non-optional <expected> attribute empty`.
        case required
        /// `is already the Z_PK of the <expected> record at <location>` (`primaryKey`).
        case repeatedPrimaryKey(firstSeen: String)
        /// `is empty, and every <expected> record needs a key`.
        case noKey
        /// `"file": true` and the named file is not there (or cannot be read).
        case fileMissing(path: String, reason: String)
        /// Text with a NUL character (U+0000), which CoreSeed does not store.
        case holdsNUL
        /// A record that breaks a rule of the model Core Data checks on save; the text says which.
        case breaksRule(String)
    }

    let reason: Reason
    /// What the attribute wanted, as the message says it: `Integer 32`, `date matching "d-MMM-yy"`.
    public let expected: String
    /// The value seen, rendered for a message: text quoted (`"12a"`), numbers bare, blobs as `<16 bytes>`.
    public let value: String

    init(_ reason: Reason, expected: String, value: String) {
        self.reason = reason
        self.expected = expected
        self.value = value
    }

    /// A relationship key that matches no row of `destination`.
    static func unresolvedKey(_ key: String, destination: String, note: String? = nil) -> CoercionFailure {
        CoercionFailure(note.map { .unresolvedKeyNoted($0) } ?? .unresolvedKey, expected: destination, seen: .text(key))
    }

    /// A key already used by an earlier record of `entity`.
    static func duplicateKey(_ key: String, entity: String, firstSeen: String) -> CoercionFailure {
        CoercionFailure(.duplicateKey(firstSeen: firstSeen), expected: entity, seen: .text(key))
    }

    /// A record left out because the `destination` record its key names was rejected (`reason` says which).
    static func leftOut(_ key: String, because reason: String) -> CoercionFailure {
        CoercionFailure(.leftOut(because: reason), expected: "", seen: .text(key))
    }

    /// Values of the uniqueness constraint `constraint` of `entity` that an earlier record already has.
    static func notUnique(_ values: String, entity: String, constraint: String, firstSeen: String) -> CoercionFailure {
        CoercionFailure(.notUnique(constraint: constraint, firstSeen: firstSeen), expected: entity, seen: .text(values))
    }

    /// This failure with its earlier record's location, for a repeat found before that location was
    /// known (`Rejections.reject(_:repeating:plan:)`); any other failure unchanged.
    func firstSeen(at location: String) -> CoercionFailure {
        switch reason {
        case .duplicateKey: return CoercionFailure(.duplicateKey(firstSeen: location), expected: expected, value: value)
        case .notUnique(let constraint, _):
            return CoercionFailure(.notUnique(constraint: constraint, firstSeen: location), expected: expected, value: value)
        case .repeatedPrimaryKey: return CoercionFailure(.repeatedPrimaryKey(firstSeen: location), expected: expected, value: value)
        default: return self
        }
    }

    /// A record of `entity` whose key field is empty or missing.
    static func noKey(entity: String) -> CoercionFailure {
        CoercionFailure(.noKey, expected: entity, seen: .null)
    }

    /// A record that breaks a rule of the model (`rule` is the whole message: what, and why Core Data refuses it).
    static func breaksRule(_ rule: String) -> CoercionFailure {
        CoercionFailure(.breaksRule(rule), expected: "", seen: .null)
    }

    /// No value for a non-optional attribute of type `type`.
    static func required(_ seen: FieldValue, type: AttributeType) -> CoercionFailure {
        CoercionFailure(.required, expected: type.rawValue, seen: seen)
    }

    init(_ reason: Reason, expected: String, seen: FieldValue) {
        self.init(reason, expected: expected, value: CoercionFailure.render(seen))
    }

    /// The message without a field name: `value "12a" is not an Integer 32`.
    public var message: String { message(field: nil) }

    /// The message, led by the source field's name when given:
    /// `'Closing Date' value "31-Feb-10" is not a date matching "d-MMM-yy"`.
    public func message(field: String?) -> String {
        let subject = field.map { "'\($0)' value \(value)" } ?? "value \(value)"
        switch reason {
        case .notA:
            return "\(subject) is not \(CoercionFailure.article(expected)) \(expected)"
        case .notAWithHint(let hint):
            return "\(subject) is not \(CoercionFailure.article(expected)) \(expected); \(hint)"
        case .outOfRange(let lower, let upper):
            return "\(subject) is out of range for \(expected) (\(lower)…\(upper))"
        case .underflow(let smallest):
            return "\(subject) is too close to 0 for \(CoercionFailure.article(expected)) \(expected): it would be stored as 0 (the smallest non-zero \(expected) is \(smallest)); write 0 if 0 is meant"
        case .tooManyDigits(let digits, let limit):
            return "\(subject) has \(digits) significant digits, more than the \(limit) \(CoercionFailure.article(expected)) \(expected) holds (NSDecimalNumber's mantissa); round it to \(limit) digits"
        case .belowMinimum(let bound):
            return "\(subject) is less than the model's minimum \(bound) for \(expected)"
        case .aboveMaximum(let bound):
            return "\(subject) is greater than the model's maximum \(bound) for \(expected)"
        case .tooShort(let length):
            return "\(subject) is shorter than the model's minimum length \(length)"
        case .tooLong(let length):
            return "\(subject) is longer than the model's maximum length \(length)"
        case .unsupported:
            return "\(subject) cannot be stored in \(CoercionFailure.article(expected)) \(expected) attribute"
        case .unresolvedKey:
            return "\(subject) matches no \(expected) key"
        case .unresolvedKeyNoted(let note):
            return "\(subject) matches no \(expected) key; \(note)"
        case .duplicateKey(let firstSeen):
            return "\(subject) repeats \(CoercionFailure.article(expected)) \(expected) key first seen at \(firstSeen)"
        case .required:
            return "\(subject) leaves the non-optional \(expected) attribute empty"
        case .repeatedPrimaryKey(let firstSeen):
            return "\(subject) is already the Z_PK of the \(expected) record at \(firstSeen): \"primaryKey\" values must be unique within an inheritance hierarchy"
        case .noKey:
            return "\(field.map { "'\($0)'" } ?? "the key") is empty, and every \(expected) record needs a key"
        case .fileMissing(let path, let reason):
            return "\(subject) names a file that \(reason) (\(path))"
        case .holdsNUL:
            return "\(subject) holds a NUL character (U+0000), which CoreSeed does not store in text (C strings end at the first one): remove it from the source, or map the field to a Binary attribute"
        case .leftOut(let reason):
            return "record left out because \(reason) was rejected (its \(subject))"
        case .notUnique(let constraint, let firstSeen):
            return "\(subject) breaks the uniqueness constraint (\(constraint)) of \(expected): the record at \(firstSeen) has the same"
        case .breaksRule(let rule):
            return rule
        }
    }

    /// `an` before a vowel sound (`an Integer 32`, `an ISO 8601 date`, `a UUID`, `a URI`), else `a`.
    static func article(_ noun: String) -> String {
        guard let first = noun.utf8.first else { return "a" }
        if noun.hasPrefix("U") { return "a" }  // "a UUID", "a URI": the letter U is said "you".
        switch first {
        case UInt8(ascii: "A"), UInt8(ascii: "E"), UInt8(ascii: "I"), UInt8(ascii: "O"),
             UInt8(ascii: "a"), UInt8(ascii: "e"), UInt8(ascii: "i"), UInt8(ascii: "o"):
            return "an"
        default:
            return "a"
        }
    }

    /// How a value appears in a message. Text is quoted with `"`, `\` and control characters escaped
    /// (a NUL shows as `\0`) and cut after 60 characters; numbers appear bare; blobs and lists by size.
    static func render(_ value: FieldValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let text): return quote(text)
        case .blob(let bytes): return bytes.count == 1 ? "<1 byte>" : "<\(bytes.count) bytes>"
        case .list(let values): return values.count == 1 ? "<list of 1 value>" : "<list of \(values.count) values>"
        }
    }

    static func quote(_ text: String) -> String {
        var result = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == 60 {
                result += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\0": result += "\\0"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
