/// What a date error suggests: patterns that would read the value the configured inputs refused.
extension DateParser {
    /// Common date forms, tried only when a value fails (so never on the fast path). One-letter fields
    /// (`M`, `d`, `H`, `m`, `s`) read one or two digits, so `M/d/yyyy` covers `MM/dd/yyyy` too.
    static let commonPatterns = [
        "yyyy-M-d", "yyyy/M/d", "M/d/yyyy", "d/M/yyyy", "d.M.yyyy", "M/d/yy", "d/M/yy", "d-MMM-yy", "d-MMM-yyyy",
        "d MMM yyyy", "MMM d, yyyy", "MMMM d, yyyy", "yyyyMMdd", "yyyy-M-d H:m:s", "M/d/yyyy H:m", "M/d/yyyy h:m a",
    ]

    /// `"yyyy-M-dd" would read it (M, d, H, h, m and s accept one or two digits)`, or `"M/d/yyyy" or
    /// "d/M/yyyy" would read it`: the configured patterns with two-digit fields relaxed first, then
    /// common forms; nil when none reads `text`.
    func hint(for text: String) -> String? {
        var lenient = self
        lenient.readsCalendarGap = true
        if lenient.secondsSinceReference(parsing: text) != nil {
            return DateParser.calendarGapReason
        }
        var candidates: [(pattern: String, relaxed: Bool)] = []
        for case .pattern(let source) in inputs {
            let relaxed = DateParser.relaxed(source)
            if relaxed != source { candidates.append((relaxed, true)) }
        }
        candidates += DateParser.commonPatterns.map { ($0, false) }
        var matches: [(pattern: String, relaxed: Bool)] = []
        for candidate in candidates where !matches.contains(where: { $0.pattern == candidate.pattern }) {
            guard let pattern = try? DatePattern(candidate.pattern) else { continue }
            let reads = text.withUTF8Buffer { bytes in parse(ASCII.trimmed(bytes), pattern) != nil }
            if reads { matches.append(candidate) }
            if matches.count == 2 { break }
        }
        guard !matches.isEmpty else { return nil }
        let names = matches.map { "\"\($0.pattern)\"" }.joined(separator: " or ")
        return "\(names) would read it" + (matches.first!.relaxed ? " (M, d, H, h, m and s accept one or two digits)" : "")
    }

    /// Why 1582-10-05 … 1582-10-14 are refused.
    static let calendarGapReason = "1582-10-05 … 1582-10-14 are not days of Foundation's calendar (the Julian calendar ends on 1582-10-04, the Gregorian starts on 1582-10-15: the day after 1582-10-04 is 1582-10-15)"

    /// `source` with every two-letter `MM`, `dd`, `HH`, `hh`, `mm` and `ss` field (outside quotes) made
    /// one letter.
    static func relaxed(_ source: String) -> String {
        var result = ""
        var quoted = false
        var characters = Array(source)[...]
        while let first = characters.first {
            if first == "'" {
                quoted.toggle()
                result.append(first)
                characters = characters.dropFirst()
                continue
            }
            let run = characters.prefix { $0 == first }
            characters = characters.dropFirst(run.count)
            if !quoted, run.count == 2, "MdHhms".contains(first) {
                result.append(first)
            } else {
                result += String(run)
            }
        }
        return result
    }
}
