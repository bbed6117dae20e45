/// Parses one date field's values into seconds since 2001-01-01T00:00:00Z, Core Data's stored form.
///
/// Built once per mapped field (patterns compiled, time zone looked up), then used for every row;
/// parsing works on UTF-8 bytes and allocates nothing.
///
/// - Inputs are tried in order; ISO 8601 is always tried last. Leading and trailing spaces are trimmed.
/// - Times without an offset are read in `timeZone` (default `UTC`, never the machine's zone),
///   with `TimeZone.secondsFromGMT(for:)` looked up twice per value (four times near a transition).
///   A local time that happens twice (DST overlap) is the *earlier* instant, still in daylight time;
///   a local time that never happens (DST gap) is read with the offset in force before the
///   transition, i.e. moved forward by the gap (2010-03-14 02:30 New York → 07:30Z = 03:30 EDT).
/// - Two-digit years (`yy`, or exactly two digits for `y`) fall in the 100-year window that starts
///   at `pivot`: with the default 1950, `00`…`49` → 2000…2049 and `50`…`99` → 1950…1999; with
///   `"pivot": 1970`, `00`…`69` → 2000…2069 and `70`…`99` → 1970…1999.
/// - Impossible dates (31 February, 29 February 1900, month 13, hour 25, minute 60) are errors.
/// - Dates are in Foundation's calendar, what an app shows them with: Gregorian from 1582-10-15, Julian
///   before (so 29 February 1500 exists), and 1582-10-05 … 1582-10-14 are errors (days it does not have).
public struct DateParser: Sendable {
    /// The default start of the two-digit-year window: `yy` maps into 1950…2049.
    public static let defaultPivot = 1950

    public let inputs: [DateInput]
    /// The zone of times written without an offset (a TZ database name such as `America/New_York`).
    public var timeZone: String { zone.identifier }
    /// The first year of the 100-year window two-digit years map into.
    public let pivot: Int
    /// What a failure says was expected: `date matching "d-MMM-yy"`, or `ISO 8601 date` without patterns.
    public let expected: String

    private enum Compiled: Sendable {
        case pattern(DatePattern)
        case iso8601
        case unixSeconds
        case unixMilliseconds
        case referenceSeconds
    }

    private let compiled: [Compiled]
    private let zone: DateZone
    /// Reads 1582-10-05 … 1582-10-14 as Gregorian days instead of refusing them: only to tell, in a
    /// failure's hint, that a value was refused for being one of them.
    var readsCalendarGap = false

    /// - Parameters:
    ///   - inputs: patterns and built-in forms, tried in order (ISO 8601 is appended when missing).
    ///   - timeZone: the zone of times without an offset; `UTC` unless the field says otherwise.
    ///   - pivot: the first year (1000…9899) of the window two-digit years map into.
    ///   - borrowedFrom: whose settings these are when not the attribute's own (errors say so).
    /// - Throws: a bad pattern, an unknown zone or a pivot that is not a four-digit year.
    public init(_ inputs: [DateInput] = [], timeZone: String = "UTC", pivot: Int = DateParser.defaultPivot,
                borrowedFrom: String? = nil) throws(FileError) {
        guard (1000...9899).contains(pivot) else {
            throw FileError(message: "two-digit-year pivot \(pivot) is not a four-digit year such as 1950 (00…49 → 2000…2049, 50…99 → 1950…1999)")
        }
        self.inputs = inputs
        self.pivot = pivot
        self.zone = try DateZone(identifier: timeZone)
        var compiled: [Compiled] = []
        for input in inputs {
            switch input {
            case .pattern(let source): compiled.append(.pattern(try DatePattern(source)))
            case .iso8601: compiled.append(.iso8601)
            case .unixSeconds: compiled.append(.unixSeconds)
            case .unixMilliseconds: compiled.append(.unixMilliseconds)
            case .referenceSeconds: compiled.append(.referenceSeconds)
            }
        }
        if !inputs.contains(.iso8601) { compiled.append(.iso8601) }
        self.compiled = compiled
        let named = inputs.filter { $0 != .iso8601 }
        if named.isEmpty {
            expected = "ISO 8601 date"
        } else {
            expected = "date matching " + named.map { "\"\($0.name)\"" }.joined(separator: " or ")
                + (borrowedFrom.map { " (the patterns are \($0))" } ?? "")
        }
    }

    /// Seconds since 2001-01-01T00:00:00Z for `value`; `nil` for `.null`.
    /// Text goes through the inputs in order; an integer or real only through `unix`,
    /// `unixMilliseconds` or `reference` (the first one configured).
    public func secondsSinceReference(_ value: FieldValue) throws(CoercionFailure) -> Double? {
        switch value {
        case .null:
            return nil
        case .text(let text):
            if let seconds = secondsSinceReference(parsing: text) { return seconds }
        case .integer(let number):
            if let seconds = numeric(whole: number, fraction: 0) { return seconds }
        case .real(let number):
            if number.isFinite, number.magnitude < 1e18 {
                let whole = number.rounded(.towardZero)
                if let seconds = numeric(whole: Int64(whole), fraction: number - whole) { return seconds }
            }
        case .blob, .list:
            break
        }
        if case .text(let text) = value, let hint = hint(for: text) {
            throw CoercionFailure(.notAWithHint(hint), expected: expected, seen: value)
        }
        throw CoercionFailure(.notA, expected: expected, seen: value)
    }

    /// Seconds since 2001-01-01T00:00:00Z for `text`, or `nil` when no input matches it.
    public func secondsSinceReference(parsing text: String) -> Double? {
        text.withUTF8Buffer { bytes in secondsSinceReference(bytes: ASCII.trimmed(bytes)) }
    }

    // SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    func secondsSinceReference(bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !bytes.isEmpty else { return nil }
        for input in compiled {
            let result: Double?
            switch input {
            case .pattern(let pattern): result = parse(bytes, pattern)
            case .iso8601: result = parseISO8601(bytes)
            case .unixSeconds, .unixMilliseconds, .referenceSeconds:
                result = DateParser.numericText(bytes).flatMap { convert($0.whole, $0.fraction, as: input) }
            }
            if let result { return result }
        }
        return nil
    }

    // MARK: Numbers

    private func numeric(whole: Int64, fraction: Double) -> Double? {
        for input in compiled {
            switch input {
            case .unixSeconds, .unixMilliseconds, .referenceSeconds:
                return convert(whole, fraction, as: input)
            case .pattern, .iso8601:
                continue
            }
        }
        return nil
    }

    private func convert(_ whole: Int64, _ fraction: Double, as input: Compiled) -> Double? {
        switch input {
        case .unixSeconds:
            let (seconds, overflow) = whole.subtractingReportingOverflow(CivilTime.referenceOffset)
            return overflow ? nil : Double(seconds) + fraction
        case .unixMilliseconds:
            let (milliseconds, overflow) = whole.subtractingReportingOverflow(CivilTime.referenceOffset * 1000)
            return overflow ? nil : (Double(milliseconds) + fraction) / 1000
        case .referenceSeconds:
            return Double(whole) + fraction
        case .pattern, .iso8601:
            return nil
        }
    }

    /// `[-+]digits[.digits]` as a whole part and a signed fraction, or `nil`.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func numericText(_ bytes: UnsafeBufferPointer<UInt8>) -> (whole: Int64, fraction: Double)? {
        var scanner = NumberScanner(bytes)
        let negative = scanner.sign(allowingPlus: true)
        var whole: Int64 = 0
        var overflow = false
        let wholeDigits = scanner.digits { digit in
            let (times10, overflow1) = whole.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(digit))
            overflow = overflow || overflow1 || overflow2
            whole = sum
        }
        guard wholeDigits > 0, !overflow else { return nil }
        var fraction = 0.0
        if scanner.take(UInt8(ascii: ".")) {
            var scale = 0.1
            let fractionDigits = scanner.digits { digit in
                fraction += Double(digit) * scale
                scale /= 10
            }
            guard fractionDigits > 0 else { return nil }
        }
        guard scanner.atEnd else { return nil }
        return negative ? (-whole, -fraction) : (whole, fraction)
    }

    // MARK: Civil time

    /// The fields a pattern or ISO 8601 text yields, before validation.
    struct Fields {
        var year = 0
        var month = 1
        var day = 1
        var hour = 0
        var minute = 0
        var second = 0
        var fraction = 0.0
        var twelveHour = false
        var isPM = false
        /// Seconds east of UTC, when the text carries an offset.
        var offset: Int64?
        /// 0 = Sunday, when the text names the day.
        var weekday: Int?
    }

    /// Validates `fields` and turns them into seconds since 2001 (UTC).
    func resolve(_ fields: Fields) -> Double? {
        var hour = fields.hour
        if fields.twelveHour {
            guard (1...12).contains(hour) else { return nil }
            hour = (hour == 12 ? 0 : hour) + (fields.isPM ? 12 : 0)
        }
        guard (1...12).contains(fields.month), fields.day >= 1,
              (0...23).contains(hour), (0...59).contains(fields.minute), (0...59).contains(fields.second)
        else { return nil }
        let days: Int64
        if fields.year >= CivilTime.firstGregorianYear {
            guard fields.day <= CivilTime.daysInMonth(fields.month, year: fields.year) else { return nil }
            days = CivilTime.daysSinceEpoch(year: fields.year, month: fields.month, day: fields.day)
        } else if let early = CivilTime.foundationDaysSinceEpoch(year: fields.year, month: fields.month, day: fields.day) {
            days = early  // Foundation's calendar: Julian before 1582-10-15
        } else if readsCalendarGap, fields.year == 1582, fields.month == 10, fields.day <= 14 {
            days = CivilTime.daysSinceEpoch(year: fields.year, month: fields.month, day: fields.day)
        } else {
            return nil
        }
        if let weekday = fields.weekday, weekday != CivilTime.weekday(daysSinceEpoch: days) { return nil }
        let local = days * 86_400 + Int64(hour * 3600 + fields.minute * 60 + fields.second)
        let utc = fields.offset.map { local - $0 } ?? zone.utcSeconds(fromLocal: local)
        return Double(utc - CivilTime.referenceOffset) + fields.fraction
    }

    private func applyPivot(_ twoDigits: Int) -> Int {
        let year = pivot - pivot % 100 + twoDigits
        return year < pivot ? year + 100 : year
    }

    // MARK: Patterns

    // SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    func parse(_ bytes: UnsafeBufferPointer<UInt8>, _ pattern: DatePattern) -> Double? {
        var fields = Fields()
        var index = 0
        for step in pattern.steps {
            switch step {
            case .literal(let byte):
                guard index < bytes.count, bytes[index] == byte else { return nil }
                index += 1
            case .spaces:
                guard index < bytes.count, bytes[index] == UInt8(ascii: " ") else { return nil }
                while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
            case .year(let minDigits, let maxDigits, let pivotTwoDigits):
                let start = index
                guard let year = DateParser.digits(bytes, &index, min: minDigits, max: maxDigits) else { return nil }
                fields.year = pivotTwoDigits && index - start == 2 ? applyPivot(year) : year
            case .number(let field, let minDigits, let maxDigits):
                guard let number = DateParser.digits(bytes, &index, min: minDigits, max: maxDigits) else { return nil }
                switch field {
                case .month: fields.month = number
                case .day: fields.day = number
                case .hour: fields.hour = number
                case .minute: fields.minute = number
                case .second: fields.second = number
                }
            case .twelveHour(let minDigits, let maxDigits):
                guard let number = DateParser.digits(bytes, &index, min: minDigits, max: maxDigits) else { return nil }
                fields.hour = number
                fields.twelveHour = true
            case .fraction:
                guard let fraction = DateParser.fraction(bytes, &index) else { return nil }
                fields.fraction = fraction
            case .monthName:
                guard let month = EnglishNames.matchMonth(bytes, &index) else { return nil }
                fields.month = month + 1
            case .weekdayName:
                guard let weekday = EnglishNames.match(EnglishNames.weekdays, bytes, &index) else { return nil }
                fields.weekday = weekday
            case .dayPeriod:
                if ASCII.hasPrefix(bytes, at: index, caseInsensitive: EnglishNames.am) {
                    fields.isPM = false
                } else if ASCII.hasPrefix(bytes, at: index, caseInsensitive: EnglishNames.pm) {
                    fields.isPM = true
                } else {
                    return nil
                }
                index += 2
            case .offset:
                guard let offset = DateParser.offset(bytes, &index) else { return nil }
                fields.offset = offset
            }
        }
        guard index == bytes.count else { return nil }
        return resolve(fields)
    }

    /// `min…max` ASCII digits at `index` (greedy), as a number.
    @inline(__always)
    // SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, min: Int, max: Int) -> Int? {
        var value = 0
        var count = 0
        while count < max, index < bytes.count, ASCII.isDigit(bytes[index]) {
            value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
            index += 1
            count += 1
        }
        return count >= min ? value : nil
    }

    /// 1–9 digits of a fraction of a second.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func fraction(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Double? {
        let start = index
        guard let digits = digits(bytes, &index, min: 1, max: 9) else { return nil }
        var scale = 1.0
        for _ in start..<index { scale *= 10 }
        return Double(digits) / scale
    }

    /// An offset at `index`: `Z`, `±hh`, `±hhmm`, `±hh:mm`, optionally after `GMT` or `UTC`
    /// (a bare `GMT`/`UTC` is zero). Seconds east of UTC.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func offset(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Int64? {
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "Z") {
            index += 1
            return 0
        }
        var prefixed = false
        if ASCII.hasPrefix(bytes, at: index, caseInsensitive: EnglishNames.gmt)
            || ASCII.hasPrefix(bytes, at: index, caseInsensitive: EnglishNames.utc) {
            index += 3
            prefixed = true
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else {
            return prefixed ? 0 : nil
        }
        let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
        index += 1
        guard let hours = digits(bytes, &index, min: 2, max: 2), hours <= 18 else { return nil }
        var minutes = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            guard let value = digits(bytes, &index, min: 2, max: 2) else { return nil }
            minutes = value
        } else if index < bytes.count, ASCII.isDigit(bytes[index]) {
            guard let value = digits(bytes, &index, min: 2, max: 2) else { return nil }
            minutes = value
        }
        guard minutes < 60 else { return nil }
        return sign * Int64(hours * 3600 + minutes * 60)
    }
}
