import Foundation

/// How `export` writes stored values as text, chosen so that `build` reads each back to the same value
/// (docs: dates ISO 8601 UTC, booleans true/false, blobs base64, UUIDs canonical text).
public enum ExportValue {
    /// Seconds since 1970 of 2001-01-01T00:00:00Z.
    static let referenceOffset: Int64 = 978_307_200

    /// `2010-03-26T04:00:00Z`; a fraction only when the value has one, with the fewest digits (up to 9)
    /// that the build's ISO 8601 reader turns back into exactly `seconds`.
    public static func iso8601(secondsSinceReference seconds: Double) -> String {
        guard seconds.isFinite, seconds.magnitude < 1e15 else { return "\(seconds)" }
        let whole = seconds.rounded(.down)
        var wholeSeconds = Int64(whole)
        var fractionText = ""
        let fraction = seconds - whole
        if fraction != 0 {
            var scale = 1.0
            var best: (digits: Int64, count: Int)?
            for count in 1...9 {
                scale *= 10
                let digits = (fraction * scale).rounded()
                // The reader computes Double(whole) + Double(digits) / 10^count: stop at the first exact one.
                if digits < scale, Double(wholeSeconds) + digits / scale == seconds {
                    best = (Int64(digits), count)
                    break
                }
                if count == 9 { best = digits < scale ? (Int64(digits), 9) : nil }
            }
            if let best, best.digits > 0 {
                let text = String(best.digits)
                fractionText = "." + String(repeating: "0", count: best.count - text.count) + text
            } else if best == nil {
                wholeSeconds += 1  // the fraction rounds up to a whole second
            }
        }
        let unix = wholeSeconds + referenceOffset
        let days = unix >= 0 ? unix / 86_400 : (unix - 86_399) / 86_400
        let secondOfDay = unix - days * 86_400
        // Foundation's calendar (the one the build reads dates in): Julian before 1582-10-15.
        let (year, month, day) = CivilTime.foundationCivil(fromDays: days) ?? civil(fromDays: days)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = year >= 0 && year < 10000
            ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))\(fractionText)Z"
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
    static func civil(fromDays count: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = count + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The shortest text that reads back as the same `Double` (Swift's `description`: `0.1`, `1e-05`, `12.0`).
    static func number(_ value: Double) -> String { "\(value)" }

    /// 16 bytes as `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    static func uuid(_ bytes: [UInt8]) -> String? {
        guard bytes.count == 16 else { return nil }
        let hex = bytes.map { byte -> String in
            let text = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + text : text
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    /// A CSV field per RFC 4180: quoted (quotes doubled) when it holds a comma, quote, CR or LF.
    /// The empty string is written `""`, so that it reads back apart from NULL (an unquoted empty field,
    /// with the source option `nullIfUnquotedEmpty`).
    static func csvField(_ text: String) -> String {
        if text.isEmpty { return "\"\"" }
        guard text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
