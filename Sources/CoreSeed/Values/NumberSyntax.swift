/// A decimal number's syntax, scanned from UTF-8 bytes: `[+-](digits[.digits]|.digits)([eE][+-]digits)`.
///
/// No `nan`, `inf`, hex or spaces: those are refused before any conversion.
struct NumberSyntax {
    var negative = false
    /// The first 19 significant digits as an integer.
    var mantissa: UInt64 = 0
    /// Digits from the first non-zero one on (trailing zeros count).
    var significantDigits = 0
    /// The power of ten that scales `mantissa` to the value.
    var exponent = 0
    /// More significant digits than `mantissa` holds.
    var truncated = false

    // SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var scanner = NumberScanner(bytes)
        negative = scanner.sign(allowingPlus: true)
        func take(_ digit: UInt8, fractional: Bool) {
            let digit = UInt64(digit)
            if significantDigits == 0, digit == 0 {
                if fractional { exponent -= 1 }
                return
            }
            significantDigits += 1
            if significantDigits <= 19 {
                mantissa = mantissa * 10 + digit
                if fractional { exponent -= 1 }
            } else {
                if digit != 0 { truncated = true }
                if !fractional { exponent += 1 }
            }
        }
        var digits = scanner.digits { take($0, fractional: false) }
        if scanner.take(UInt8(ascii: ".")) { digits += scanner.digits { take($0, fractional: true) } }
        guard digits > 0 else { return nil }
        if scanner.takeExponentMarker() {
            let exponentNegative = scanner.sign(allowingPlus: true)
            var written = 0
            guard scanner.digits({ written = min(written * 10 + Int($0), 1_000_000) }) > 0 else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard scanner.atEnd else { return nil }
    }

    private static let powersOfTen: [Double] = (0...22).map { power in
        var value = 1.0
        for _ in 0..<power { value *= 10 }
        return value
    }

    /// The nearest `Double` (±infinity past its range). Exact in one multiplication or division when
    /// the digits fit in 53 bits and the power of ten in 22 (Clinger's fast path); else the standard library's parser.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
        if mantissa == 0, !truncated { return negative ? -0.0 : 0.0 }
        if !truncated, mantissa < 1 << 53, exponent.magnitude <= 22 {
            let value = exponent < 0
                ? Double(mantissa) / NumberSyntax.powersOfTen[-exponent]
                : Double(mantissa) * NumberSyntax.powersOfTen[exponent]
            return negative ? -value : value
        }
        return Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }

    /// The nearest `Float` (±infinity past its range), rounded once from the digits.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    func float(_ bytes: UnsafeBufferPointer<UInt8>) -> Float {
        if mantissa == 0, !truncated { return negative ? -0.0 : 0.0 }
        if !truncated, mantissa < 1 << 24, exponent.magnitude <= 10 {
            let power = Float(NumberSyntax.powersOfTen[Int(exponent.magnitude)])
            let value = exponent < 0 ? Float(mantissa) / power : Float(mantissa) * power
            return negative ? -value : value
        }
        return Float(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }
}

/// A Decimal value with the exact digits it was written with.
public struct DecimalText: Sendable, Equatable {
    /// The digits as written (spaces trimmed, a leading `+` dropped), e.g. `"-0.10"`, `"1.5e3"`.
    public let text: String
    /// The value as stored: a REAL, like Core Data stores `NSDecimalNumber`.
    public let value: Double

    /// NSDecimal's mantissa holds 38 decimal digits.
    public static let maximumSignificantDigits = 38

    init(text: String, value: Double) {
        self.text = text
        self.value = value
    }

    /// Valid decimal syntax of at most 38 significant digits whose value fits a `Double`.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let syntax = NumberSyntax(bytes), syntax.significantDigits <= DecimalText.maximumSignificantDigits else { return nil }
        let value = syntax.double(bytes)
        // Not finite, or a non-zero value that would be stored as 0 (`1e-400`): not a Decimal.
        guard value.isFinite, value != 0 || syntax.significantDigits == 0 else { return nil }
        // SAFETY: a sub-view of `bytes`, used within this call only.
        let digits = bytes.first == UInt8(ascii: "+") ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes
        self.text = String(decoding: digits, as: UTF8.self)
        self.value = value
    }
}

/// `NSDecimalNumber.notANumber` as Core Data stores it: the text `NaN` in a `DECIMAL` column, where every
/// other Decimal value is a number (§4c.5, observed in artsy-folio-1.3.5 `ZARTWORK.ZWIDTH`).
public enum DecimalNaN {
    /// The stored text.
    public static let storedText = "NaN"

    /// Whether `bytes` (spaces already trimmed) spell NaN in any case: `NaN`, `nan`, `NAN`.
    /// SAFETY: reads the caller's buffer within this call only, and never past its count.
    static func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 3 && (bytes[0] | 0x20) == UInt8(ascii: "n") && (bytes[1] | 0x20) == UInt8(ascii: "a")
            && (bytes[2] | 0x20) == UInt8(ascii: "n")
    }
}
