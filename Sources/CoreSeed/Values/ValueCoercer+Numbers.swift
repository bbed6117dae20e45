extension ValueCoercer {
    /// The inclusive range of an Integer type.
    static func range(of type: AttributeType) -> ClosedRange<Int64> {
        switch type {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        default: Int64.min...Int64.max
        }
    }

    func outOfRange(_ value: FieldValue) -> CoercionFailure {
        let range = ValueCoercer.range(of: type)
        return CoercionFailure(.outOfRange(lower: String(range.lowerBound), upper: String(range.upperBound)),
                               expected: type.rawValue, seen: value)
    }

    func integer(_ value: FieldValue) throws(CoercionFailure) -> Int64 {
        let number: Int64
        switch value {
        case .integer(let integer):
            number = integer
        case .real(let real):
            guard real.isFinite, real.rounded(.towardZero) == real else {
                throw CoercionFailure(.notA, expected: type.rawValue, seen: value)
            }
            guard real >= -0x1p63, real < 0x1p63 else { throw outOfRange(value) }
            number = Int64(real)
        case .text(let text):
            let parsed = text.withUTF8Buffer { ValueCoercer.integerText(ASCII.trimmed($0), allowsIntegralReals: options.allowsIntegralReals) }
            switch parsed {
            case .value(let integer): number = integer
            case .overflow: throw outOfRange(value)
            case .invalid: throw CoercionFailure(.notA, expected: type.rawValue, seen: value)
            }
        case .null, .blob, .list:
            throw CoercionFailure(.notA, expected: type.rawValue, seen: value)
        }
        guard ValueCoercer.range(of: type).contains(number) else { throw outOfRange(value) }
        try checkBounds(.integer(number), value)
        return number
    }

    enum IntegerText: Equatable {
        case value(Int64)
        case overflow
        case invalid
    }

    /// `[+-]digits`, or with `allowsIntegralReals` also `[+-]digits.000`.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func integerText(_ bytes: UnsafeBufferPointer<UInt8>, allowsIntegralReals: Bool) -> IntegerText {
        var scanner = NumberScanner(bytes)
        let negative = scanner.sign(allowingPlus: true)
        // Accumulate negatively so that Int64.min fits.
        var accumulated: Int64 = 0
        var overflow = false
        let digits = scanner.digits { digit in
            if !overflow {
                let (times10, o1) = accumulated.multipliedReportingOverflow(by: 10)
                let (next, o2) = times10.subtractingReportingOverflow(Int64(digit))
                overflow = o1 || o2
                accumulated = next
            }
        }
        guard digits > 0 else { return .invalid }
        if !scanner.atEnd {
            guard allowsIntegralReals, scanner.take(UInt8(ascii: ".")) else { return .invalid }
            _ = scanner.run(of: UInt8(ascii: "0"))
            guard scanner.atEnd else { return .invalid }
        }
        if overflow { return .overflow }
        if negative { return .value(accumulated) }
        return accumulated == .min ? .overflow : .value(-accumulated)
    }

    func boolean(_ value: FieldValue) throws(CoercionFailure) -> Int64 {
        switch value {
        case .integer(let number) where number == 0 || number == 1:
            return number
        case .real(let number) where number == 0 || number == 1:
            return number == 0 ? 0 : 1
        case .text(let text):
            let parsed: Int64? = text.withUTF8Buffer { buffer in
                let bytes = ASCII.trimmed(buffer)
                if ASCII.equals(bytes, caseInsensitive: "true") || ASCII.equals(bytes, caseInsensitive: "yes")
                    || ASCII.equals(bytes, caseInsensitive: "y") || ASCII.equals(bytes, caseInsensitive: "1") {
                    return 1
                }
                if ASCII.equals(bytes, caseInsensitive: "false") || ASCII.equals(bytes, caseInsensitive: "no")
                    || ASCII.equals(bytes, caseInsensitive: "n") || ASCII.equals(bytes, caseInsensitive: "0") {
                    return 0
                }
                return nil
            }
            if let parsed { return parsed }
        default:
            break
        }
        throw CoercionFailure(.notA, expected: type.rawValue, seen: value)
    }

    /// A Double or Float value; Float rounded to `Float` precision. NaN and infinities are refused.
    func real(_ value: FieldValue, float: Bool) throws(CoercionFailure) -> Double {
        let number: Double
        switch value {
        case .integer(let integer):
            number = float ? Double(Float(integer)) : Double(integer)
        case .real(let real):
            guard !real.isNaN else { throw CoercionFailure(.notA, expected: "finite \(type.rawValue)", seen: value) }
            number = float ? Double(Float(real)) : real
            if real.isFinite, number.isInfinite { throw realOutOfRange(value) }
        case .text(let text):
            var nonZero = false
            let parsed: Double? = text.withUTF8Buffer { buffer in
                let bytes = ASCII.trimmed(buffer)
                guard let syntax = NumberSyntax(bytes) else { return nil }
                nonZero = syntax.significantDigits > 0
                return float ? Double(syntax.float(bytes)) : syntax.double(bytes)
            }
            guard let parsed, !parsed.isNaN else {
                throw CoercionFailure(.notA, expected: type.rawValue, seen: value)
            }
            if parsed.isInfinite { throw realOutOfRange(value) }
            if parsed == 0, nonZero { throw realUnderflow(value, float: float) }
            number = parsed
        case .null, .blob, .list:
            throw CoercionFailure(.notA, expected: type.rawValue, seen: value)
        }
        guard number.isFinite else { throw CoercionFailure(.notA, expected: "finite \(type.rawValue)", seen: value) }
        return number
    }

    /// A written non-zero value below the type's smallest magnitude (`1e-400`): refused, not stored as 0.
    func realUnderflow(_ value: FieldValue, float: Bool) -> CoercionFailure {
        let smallest = float ? String(Float.leastNonzeroMagnitude) : String(Double.leastNonzeroMagnitude)
        return CoercionFailure(.underflow(smallest: smallest), expected: type.rawValue, seen: value)
    }

    private func realOutOfRange(_ value: FieldValue) -> CoercionFailure {
        let largest = type == .float ? String(Float.greatestFiniteMagnitude) : String(Double.greatestFiniteMagnitude)
        return CoercionFailure(.outOfRange(lower: "-" + largest, upper: largest), expected: type.rawValue, seen: value)
    }

    /// `number` after the model's minimum and maximum.
    func checked(_ number: Double, _ value: FieldValue) throws(CoercionFailure) -> Double {
        try checkBounds(.real(number), value)
        return number
    }
}
