/// A TR35 date pattern compiled once into a short list of steps that parse UTF-8 bytes.
///
/// Supported letters: `y` (1–4 digits; exactly two use the pivot), `yy` (two digits, pivot), `yyyy`
/// (four digits); `M`/`L` (1–2 digits), `MM` (2), `MMM`/`MMMM` (an English month name, full or
/// three-letter, also `Sept`, any case); `d`, `dd`; `H`, `HH` (0–23); `h`, `hh` (1–12) with `a`
/// (`AM`/`PM`, any case; without `a` the hour is AM); `m`, `mm`; `s`, `ss`; `S…` (a fraction of 1–9
/// digits, whatever the count of `S`); `E`…`EEEE` (an English day name, full or three-letter,
/// checked against the date); `Z`…`ZZZZZ`, `X`…`XXXXX`, `x`… (an offset: `Z`, `±hh`, `±hhmm`,
/// `±hh:mm`, optionally after `GMT` or `UTC`); `'quoted'` literals and `''` for a quote. A space
/// matches one or more spaces. Single-letter numeric fields take one or two digits; doubled ones
/// exactly two. Any other letter is refused when the pattern is compiled.
struct DatePattern: Sendable {
    enum Field: Sendable { case month, day, hour, minute, second }

    enum Step: Sendable, Equatable {
        case number(Field, minDigits: Int, maxDigits: Int)
        /// A year of `minDigits…maxDigits` digits; exactly two digits go through the pivot when `pivotTwoDigits`.
        case year(minDigits: Int, maxDigits: Int, pivotTwoDigits: Bool)
        case twelveHour(minDigits: Int, maxDigits: Int)
        case fraction
        case monthName
        case weekdayName
        case dayPeriod
        case offset
        case literal(UInt8)
        case spaces
    }

    let source: String
    let steps: [Step]

    init(_ source: String) throws(FileError) {
        self.source = source
        let bytes = Array(source.utf8)
        var steps: [Step] = []
        var hasYear = false
        var index = 0
        func refuse(_ why: String) -> FileError {
            FileError(message: "date pattern \"\(source)\" \(why)")
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "'") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "'") {
                    steps.append(.literal(byte))
                    index += 1
                    continue
                }
                var closed = false
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "'") {
                        if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "'") {
                            steps.append(.literal(bytes[index]))
                            index += 2
                            continue
                        }
                        closed = true
                        index += 1
                        break
                    }
                    steps.append(.literal(bytes[index]))
                    index += 1
                }
                if !closed { throw refuse("has an unclosed quote") }
                continue
            }
            if byte == UInt8(ascii: " ") {
                steps.append(.spaces)
                while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
                continue
            }
            guard ASCII.isLetter(byte) else {
                steps.append(.literal(byte))
                index += 1
                continue
            }
            var count = 1
            while index + count < bytes.count, bytes[index + count] == byte { count += 1 }
            index += count
            switch byte {
            case UInt8(ascii: "y"):
                hasYear = true
                switch count {
                case 1: steps.append(.year(minDigits: 1, maxDigits: 4, pivotTwoDigits: true))
                case 2: steps.append(.year(minDigits: 2, maxDigits: 2, pivotTwoDigits: true))
                default: steps.append(.year(minDigits: count, maxDigits: max(count, 4), pivotTwoDigits: false))
                }
            case UInt8(ascii: "M"), UInt8(ascii: "L"):
                switch count {
                case 1, 2: steps.append(.number(.month, minDigits: count, maxDigits: 2))
                case 3, 4: steps.append(.monthName)
                default: throw refuse("uses narrow month names (\(String(repeating: "M", count: count))), which cannot be parsed")
                }
            case UInt8(ascii: "d"):
                guard count <= 2 else { throw refuse("has \(count) d's (day of month takes one or two)") }
                steps.append(.number(.day, minDigits: count, maxDigits: 2))
            case UInt8(ascii: "H"):
                guard count <= 2 else { throw refuse("has \(count) H's (hour takes one or two)") }
                steps.append(.number(.hour, minDigits: count, maxDigits: 2))
            case UInt8(ascii: "h"):
                guard count <= 2 else { throw refuse("has \(count) h's (hour takes one or two)") }
                steps.append(.twelveHour(minDigits: count, maxDigits: 2))
            case UInt8(ascii: "m"):
                guard count <= 2 else { throw refuse("has \(count) m's (minute takes one or two)") }
                steps.append(.number(.minute, minDigits: count, maxDigits: 2))
            case UInt8(ascii: "s"):
                guard count <= 2 else { throw refuse("has \(count) s's (second takes one or two)") }
                steps.append(.number(.second, minDigits: count, maxDigits: 2))
            case UInt8(ascii: "S"):
                steps.append(.fraction)
            case UInt8(ascii: "E"):
                guard count <= 4 else { throw refuse("uses narrow day names, which cannot be parsed") }
                steps.append(.weekdayName)
            case UInt8(ascii: "a"):
                steps.append(.dayPeriod)
            case UInt8(ascii: "Z"), UInt8(ascii: "X"), UInt8(ascii: "x"):
                steps.append(.offset)
            default:
                throw refuse("uses the letter '\(Character(Unicode.Scalar(byte)))', which CoreSeed does not parse (quote literal text: 'T')")
            }
        }
        guard hasYear else { throw refuse("has no year (y, yy or yyyy)") }
        self.steps = steps
    }
}
