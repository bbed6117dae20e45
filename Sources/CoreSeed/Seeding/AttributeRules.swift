import Foundation

/// The model's value rules that the converter does not check itself (it checks number bounds and
/// String lengths): a Date's `minDateTimeInterval`/`maxDateTimeInterval`, a Binary's length bounds
/// (`minValueString`/`maxValueString`), a String's `regularExpressionString` — which, as Core Data's
/// `MATCHES` predicate, the whole value must match (ICU syntax, anchored at both ends). Core Data
/// refuses to save a value that breaks one; so does a build, as a rejected value. Nil for an
/// attribute with none, so that values of such attributes cost nothing more.
struct AttributeRules: Sendable {
    let type: AttributeType
    let minimum: Double?
    let maximum: Double?
    let pattern: Pattern?

    /// A compiled `regularExpressionString`.
    /// SAFETY: `@unchecked Sendable` because NSRegularExpression is immutable once made and documented thread-safe; nothing here mutates it.
    struct Pattern: @unchecked Sendable {
        let text: String
        let expression: NSRegularExpression

        /// Whether the whole of `text` matches (NSPredicate MATCHES).
        func matchesWhole(_ value: String) -> Bool {
            let range = NSRange(value.startIndex..<value.endIndex, in: value)
            guard let match = expression.firstMatch(in: value, options: [.anchored], range: range) else { return false }
            return match.range == range
        }
    }

    /// The rules of `attribute`; nil when it has none this checks. Throws for a bound that is not a
    /// number or a pattern ICU does not accept, naming the attribute and its model line.
    init?(_ attribute: Attribute) throws(FileError) {
        func number(_ text: String?, _ key: String) throws(FileError) -> Double? {
            guard let text else { return nil }
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
                throw FileError(message: "\(key) \"\(text)\" of \(attribute.type.rawValue) attribute '\(attribute.name)' (model line \(attribute.line)) is not a number")
            }
            return value
        }
        type = attribute.type
        switch attribute.type {
        case .date:
            minimum = try number(attribute.minDateTimeInterval, "minDateTimeInterval")
            maximum = try number(attribute.maxDateTimeInterval, "maxDateTimeInterval")
        case .binary:
            minimum = try number(attribute.minValueString, "minValueString")
            maximum = try number(attribute.maxValueString, "maxValueString")
        default:
            minimum = nil
            maximum = nil
        }
        if attribute.type == .string, let text = attribute.regularExpressionString, !text.isEmpty {
            do {
                pattern = Pattern(text: text, expression: try NSRegularExpression(pattern: text))
            } catch {
                throw FileError(message: "regularExpressionString \"\(text)\" of attribute '\(attribute.name)' (model line \(attribute.line)) is not a regular expression ICU accepts: fix it in the model")
            }
        } else {
            pattern = nil
        }
        if minimum == nil && maximum == nil && pattern == nil { return nil }
    }

    /// Throws when `value` (as stored) breaks a rule; NULL breaks none (optionality is checked apart).
    func check(_ value: SQLiteValue, seen: FieldValue) throws(CoercionFailure) {
        switch value {
        case .real(let seconds) where type == .date:
            if let minimum, seconds < minimum { throw CoercionFailure(.belowMinimum(Self.date(minimum)), expected: "Date", seen: seen) }
            if let maximum, seconds > maximum { throw CoercionFailure(.aboveMaximum(Self.date(maximum)), expected: "Date", seen: seen) }
        case .blob(let bytes) where type == .binary:
            let length = bytes.count
            if let minimum, Double(length) < minimum { throw CoercionFailure(.tooShort(Int(minimum)), expected: "Binary", seen: seen) }
            if let maximum, Double(length) > maximum { throw CoercionFailure(.tooLong(Int(maximum)), expected: "Binary", seen: seen) }
        case .text(let text):
            if let pattern, !pattern.matchesWhole(text) {
                throw CoercionFailure(.notA, expected: "text matching the model's regular expression \"\(pattern.text)\"", seen: seen)
            }
        default:
            break
        }
    }

    /// A bound as a message shows it: ISO 8601 in UTC.
    static func date(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
    }
}
