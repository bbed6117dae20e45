import Foundation

/// Converts the values of one source field into one attribute's stored SQLite value, strictly.
///
/// Built once per mapped field (bounds from the model parsed, date parser compiled), used for every row.
/// Text is read as UTF-8 bytes; surrounding spaces are trimmed for every type but String.
///
/// What each type stores:
/// - Integer 16/32/64: INTEGER, from integers, from text (`[+-]digits`), and from integral reals.
/// - Boolean: INTEGER 0/1, from `true false yes no y n 1 0` (any case) or the integers 0 and 1.
/// - Double, Float: REAL, finite only; Float rounded to `Float` precision.
/// - Decimal: REAL, as Core Data stores `NSDecimalNumber`; the text's exact digits stay available
///   through ``decimalText(_:)`` (at most 38 significant digits, like `NSDecimal`). The text `NaN` (any
///   case) is stored as Core Data stores `NSDecimalNumber.notANumber`: the TEXT `NaN` (``DecimalNaN``).
/// - String: TEXT as is (NUL and non-ASCII kept); integers and reals in Swift's shortest round-trip form.
/// - Date: REAL seconds since 2001-01-01T00:00:00Z, through the field's ``DateParser``.
/// - UUID: a 16-byte BLOB, from `8-4-4-4-12` hex text (any case, optional braces) or a 16-byte blob.
/// - URI: TEXT with a scheme and no spaces or control characters.
/// - Binary: BLOB as is; text as base64 when configured, else its UTF-8 bytes. The bytes themselves:
///   Core Data's external-storage marker is the row mapping's (``RowMapping/Column/external(_:above:)``).
/// - Transformable: BLOB as is (the transformer's bytes); text only as base64 when configured; with
///   `archive`, the `NSKeyedArchiver` archive of the value the field holds (``KeyedArchiver``).
/// - NULL stays NULL; whether a NULL is allowed is the mapper's business (optional, defaults).
public struct ValueCoercer: Sendable {
    public let attributeName: String
    public let type: AttributeType
    public let options: CoercionOptions
    public let dateParser: DateParser

    /// A number to check against the model's bounds.
    enum Number: Sendable {
        case integer(Int64)
        case real(Double)
    }

    /// A model minimum or maximum: its value and its text as the model writes it.
    struct Bound: Sendable {
        var number: Number
        var text: String
    }

    let minimum: Bound?
    let maximum: Bound?
    let emptyIsNull: Bool
    /// Blank String text is NULL too (``CoercionOptions/blankIsNull``).
    let blankIsNull: Bool

    /// - Parameter dateParser: for Date attributes; defaults to ISO 8601 in UTC.
    /// - Throws: a model minimum or maximum that is not a number (a length, for String).
    public init(attribute: Attribute, options: CoercionOptions = CoercionOptions(), dateParser: DateParser? = nil) throws(FileError) {
        self.attributeName = attribute.name
        self.type = attribute.type
        self.options = options
        if let dateParser {
            self.dateParser = dateParser
        } else {
            self.dateParser = try DateParser()
        }
        self.emptyIsNull = options.emptyIsNull ?? (attribute.type != .string || options.blankIsNull)
        self.blankIsNull = options.blankIsNull && emptyIsNull
        func bound(_ text: String?, _ which: String) throws(FileError) -> Bound? {
            guard let text, attribute.type.isInteger || attribute.type == .string || attribute.type == .double
                    || attribute.type == .float || attribute.type == .decimal else { return nil }
            if attribute.type.isInteger || attribute.type == .string, let number = Int64(text) { return Bound(number: .integer(number), text: text) }
            if !attribute.type.isInteger, attribute.type != .string, let number = Double(text), number.isFinite { return Bound(number: .real(number), text: text) }
            throw FileError(message: "\(which) \"\(text)\" of \(attribute.type.rawValue) attribute '\(attribute.name)' is not \(attribute.type == .string ? "a length" : "a number")")
        }
        self.minimum = try bound(attribute.minValueString, "minimum")
        self.maximum = try bound(attribute.maxValueString, "maximum")
    }

    /// The value to store for `value`, or why it cannot be stored.
    public func coerce(_ value: FieldValue) throws(CoercionFailure) -> SQLiteValue {
        if case .null = value { return .null }
        if type == .transformable, let archive = options.archive { return try archived(value, archive) }
        if case .list = value {
            // A repeated XML element feeds relationships, never an attribute.
            throw CoercionFailure(.notA, expected: "single \(type.rawValue) value", seen: value)
        }
        if case .text(let text) = value, type != .string {
            if text.isEmpty || text.withUTF8Buffer({ ASCII.trimmed($0).isEmpty }) {
                if emptyIsNull { return .null }
            }
        }
        switch type {
        case .integer16, .integer32, .integer64: return .integer(try integer(value))
        case .boolean: return .integer(try boolean(value))
        case .double: return .real(try checked(try real(value, float: false), value))
        case .float: return .real(try checked(try real(value, float: true), value))
        case .decimal:
            if case .text(let text) = value, text.withUTF8Buffer({ DecimalNaN.matches(ASCII.trimmed($0)) }) {
                return .text(DecimalNaN.storedText)
            }
            guard let decimal = try decimalText(value) else { return .null }
            return .real(try checked(decimal.value, value))
        case .string: return try string(value)
        case .date:
            guard let seconds = try dateParser.secondsSinceReference(value) else { return .null }
            return .real(seconds)
        case .uuid: return .blob(try uuid(value))
        case .uri: return .text(try uri(value))
        case .binary, .transformable: return .blob(try bytes(value))
        case .undefined, .objectID, .composite:
            throw CoercionFailure(.unsupported, expected: type.rawValue, seen: value)
        }
    }

    /// What ``coerceFast(_:)`` found.
    enum FastValue {
        case integer(Int64)
        case real(Double)
        /// The text itself, unchanged (a String attribute).
        case sameText
    }

    /// The fast path of ``coerce(_:)`` for text given as UTF-8 bytes: the value `coerce(.text(text))`
    /// would store, for the common cases of the common types (String without length bounds, integers
    /// without model bounds, dates); nil whenever the general path must decide (blank text, NULL,
    /// errors, other types) — never a different answer.
    @inline(__always)
    // SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid). What it returns holds copies, never the view.
    func coerceFast(_ bytes: UnsafeBufferPointer<UInt8>) -> FastValue? {
        switch type {
        case .string:
            guard !bytes.isEmpty, minimum == nil, maximum == nil, memchr(bytes.baseAddress!, 0, bytes.count) == nil,
                  !blankIsNull || !AttributeFill.isBlank(bytes) else { return nil }
            return .sameText
        case .integer16, .integer32, .integer64:
            guard minimum == nil, maximum == nil,
                  case .value(let number) = ValueCoercer.integerText(ASCII.trimmed(bytes), allowsIntegralReals: options.allowsIntegralReals),
                  ValueCoercer.range(of: type).contains(number) else { return nil }
            return .integer(number)
        case .date:
            let trimmed = ASCII.trimmed(bytes)
            guard !trimmed.isEmpty, let seconds = dateParser.secondsSinceReference(bytes: trimmed) else { return nil }
            return .real(seconds)
        default:
            return nil
        }
    }

    /// The fast path of ``coerce(_:)`` for an integer: true when `coerce(.integer(number))` stores
    /// `number` itself (an integer attribute without model bounds, the value in its range).
    @inline(__always)
    func acceptsFast(integer number: Int64) -> Bool {
        type.isInteger && minimum == nil && maximum == nil && ValueCoercer.range(of: type).contains(number)
    }

    /// A Decimal attribute's value with its exact digits, or `nil` for NULL (and empty text when empty means NULL).
    public func decimalText(_ value: FieldValue) throws(CoercionFailure) -> DecimalText? {
        switch value {
        case .null: return nil
        case .integer(let number): return DecimalText(text: String(number), value: Double(number))
        case .real(let number):
            guard number.isFinite else { throw CoercionFailure(.notA, expected: "finite Decimal", seen: value) }
            return DecimalText(text: String(number), value: number)
        case .text(let text):
            let parsed: DecimalText?? = text.withUTF8Buffer { buffer in
                let bytes = ASCII.trimmed(buffer)
                if bytes.isEmpty, emptyIsNull { return .some(nil) }
                return DecimalText(bytes).map { .some($0) }
            }
            guard let parsed else { throw decimalFailure(text, value) }
            return parsed
        case .blob, .list:
            throw CoercionFailure(.notA, expected: "Decimal", seen: value)
        }
    }
}

extension ValueCoercer {
    /// Why `text` is not a Decimal: more significant digits than `NSDecimalNumber` holds, a non-zero
    /// value too close to 0 to store, beyond a Double's range, or no number at all.
    func decimalFailure(_ text: String, _ value: FieldValue) -> CoercionFailure {
        text.withUTF8Buffer { buffer in
            let bytes = ASCII.trimmed(buffer)
            guard let syntax = NumberSyntax(bytes) else { return CoercionFailure(.notA, expected: "Decimal", seen: value) }
            if syntax.significantDigits > DecimalText.maximumSignificantDigits {
                return CoercionFailure(.tooManyDigits(syntax.significantDigits, limit: DecimalText.maximumSignificantDigits), expected: "Decimal", seen: value)
            }
            let number = syntax.double(bytes)
            if number == 0, syntax.significantDigits > 0 { return realUnderflow(value, float: false) }
            return CoercionFailure(.outOfRange(lower: "-" + String(Double.greatestFiniteMagnitude), upper: String(Double.greatestFiniteMagnitude)),
                                   expected: "Decimal", seen: value)
        }
    }

    /// Refuses `number` below the model's minimum or above its maximum.
    func checkBounds(_ number: Number, _ value: FieldValue) throws(CoercionFailure) {
        if let minimum, ValueCoercer.compare(number, minimum.number) < 0 {
            throw CoercionFailure(.belowMinimum(minimum.text), expected: type.rawValue, seen: value)
        }
        if let maximum, ValueCoercer.compare(number, maximum.number) > 0 {
            throw CoercionFailure(.aboveMaximum(maximum.text), expected: type.rawValue, seen: value)
        }
    }

    private static func compare(_ left: Number, _ right: Number) -> Int {
        switch (left, right) {
        case (.integer(let a), .integer(let b)): a < b ? -1 : (a > b ? 1 : 0)
        case (.integer(let a), .real(let b)): Double(a) < b ? -1 : (Double(a) > b ? 1 : 0)
        case (.real(let a), .integer(let b)): a < Double(b) ? -1 : (a > Double(b) ? 1 : 0)
        case (.real(let a), .real(let b)): a < b ? -1 : (a > b ? 1 : 0)
        }
    }
}
