import Foundation

/// A value a Transformable attribute holds as an `NSKeyedArchiver` archive (DESIGN §4b.11): what
/// `"archive": "json"` reads from a field and `export` writes back.
///
/// In JSON: objects (keys in their order), arrays, strings, numbers (integers without a fraction or
/// exponent), booleans; and four single-key objects for what JSON lacks: `{"$date": SECONDS}` (since
/// 2001-01-01T00:00:00Z, as Core Data stores dates), `{"$uuid": "8-4-4-4-12"}`, `{"$url": "…"}`,
/// `{"$data": "base64"}`. `null` has no archived form and is refused inside a value.
public indirect enum ArchivedValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    /// Seconds since 2001-01-01T00:00:00Z (`NSDate`).
    case date(Double)
    /// 16 bytes (`NSUUID`).
    case uuid([UInt8])
    /// The URL's text (`NSURL`, no base).
    case url(String)
    case data([UInt8])
    case array([ArchivedValue])
    /// Entries in their order (`NSDictionary` with string keys).
    case dictionary([Entry])

    public struct Entry: Sendable, Equatable {
        public let key: String
        public let value: ArchivedValue
    }

    /// Why JSON text is not an archivable value: what, at which character (1-based).
    public struct SyntaxError: Error, Sendable, Equatable {
        public let message: String
        public let offset: Int
    }

    /// The value of JSON `text`.
    public static func parse(json text: String) throws(SyntaxError) -> ArchivedValue {
        var parser = Parser(bytes: Array(text.utf8))
        parser.skipSpace()
        let value = try parser.value()
        parser.skipSpace()
        guard parser.position == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    /// The value as JSON text (one line; dictionaries keep their order).
    public var json: String {
        switch self {
        case .string(let text): return ArchivedValue.quoted(text)
        case .integer(let number): return String(number)
        case .real(let number): return ArchivedValue.number(number)
        case .boolean(let flag): return flag ? "true" : "false"
        case .date(let seconds): return "{\"$date\": \(ArchivedValue.number(seconds))}"
        case .uuid(let bytes): return "{\"$uuid\": \"\(UUID(uuid: ArchivedValue.tuple(bytes)).uuidString)\"}"
        case .url(let text): return "{\"$url\": \(ArchivedValue.quoted(text))}"
        case .data(let bytes): return "{\"$data\": \"\(Data(bytes).base64EncodedString())\"}"
        case .array(let items): return "[" + items.map(\.json).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            return "{" + entries.map { ArchivedValue.quoted($0.key) + ": " + $0.value.json }.joined(separator: ", ") + "}"
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(format: "%.1f", value) : "\(value)"
    }

    static func quoted(_ text: String) -> String { JSONWriter.quoted(text) }

    static func tuple(_ b: [UInt8]) -> uuid_t {
        (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
    }

    /// A strict JSON parser that keeps the order of object keys (JSONSerialization does not).
    private struct Parser {
        let bytes: [UInt8]
        var position = 0
        var depth = 0

        func error(_ message: String) -> SyntaxError { SyntaxError(message: message, offset: position + 1) }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func expect(_ word: String) throws(SyntaxError) {
            let utf8 = Array(word.utf8)
            guard bytes.count - position >= utf8.count, Array(bytes[position..<position + utf8.count]) == utf8 else {
                throw error("expected a JSON value")
            }
            position += utf8.count
        }

        mutating func value() throws(SyntaxError) -> ArchivedValue {
            guard position < bytes.count else { throw error("the value ends early") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try expect("true"); return .boolean(true)
            case UInt8(ascii: "f"): try expect("false"); return .boolean(false)
            case UInt8(ascii: "n"): throw error("null has no archived form: leave the element out")
            default: return try number()
            }
        }

        mutating func nested<T>(_ body: (inout Parser) throws(SyntaxError) -> T) throws(SyntaxError) -> T {
            depth += 1
            guard depth <= 256 else { throw error("nested more than 256 levels deep") }
            defer { depth -= 1 }
            return try body(&self)
        }

        mutating func array() throws(SyntaxError) -> ArchivedValue {
            try nested { (parser: inout Parser) throws(SyntaxError) -> ArchivedValue in
                parser.position += 1
                var items: [ArchivedValue] = []
                parser.skipSpace()
                if parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: "]") { parser.position += 1; return .array([]) }
                while true {
                    parser.skipSpace()
                    items.append(try parser.value())
                    parser.skipSpace()
                    guard parser.position < parser.bytes.count else { throw parser.error("the array is not closed: expected ']'") }
                    let byte = parser.bytes[parser.position]
                    parser.position += 1
                    if byte == UInt8(ascii: "]") { return .array(items) }
                    guard byte == UInt8(ascii: ",") else { parser.position -= 1; throw parser.error("expected ',' or ']'") }
                }
            }
        }

        mutating func object() throws(SyntaxError) -> ArchivedValue {
            try nested { (parser: inout Parser) throws(SyntaxError) -> ArchivedValue in
                let start = parser.position
                parser.position += 1
                var entries: [Entry] = []
                parser.skipSpace()
                if parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: "}") { parser.position += 1; return .dictionary([]) }
                while true {
                    parser.skipSpace()
                    guard parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: "\"") else { throw parser.error("expected a key in quotes") }
                    let keyStart = parser.position
                    let key = try parser.string()
                    if entries.contains(where: { $0.key == key }) {
                        parser.position = keyStart
                        throw parser.error("the key \(ArchivedValue.quoted(key)) appears twice in one object")
                    }
                    parser.skipSpace()
                    guard parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: ":") else { throw parser.error("expected ':' after the key") }
                    parser.position += 1
                    parser.skipSpace()
                    entries.append(Entry(key: key, value: try parser.value()))
                    parser.skipSpace()
                    guard parser.position < parser.bytes.count else { throw parser.error("the object is not closed: expected '}'") }
                    let byte = parser.bytes[parser.position]
                    parser.position += 1
                    if byte == UInt8(ascii: "}") { break }
                    guard byte == UInt8(ascii: ",") else { parser.position -= 1; throw parser.error("expected ',' or '}'") }
                }
                if entries.count == 1, entries[0].key.hasPrefix("$") {
                    let end = parser.position
                    parser.position = start
                    let special = try parser.tagged(entries[0])
                    parser.position = end
                    return special
                }
                return .dictionary(entries)
            }
        }

        /// `{"$date": …}`, `{"$uuid": …}`, `{"$url": …}`, `{"$data": …}`.
        func tagged(_ entry: Entry) throws(SyntaxError) -> ArchivedValue {
            switch (entry.key, entry.value) {
            case ("$date", .real(let seconds)): return .date(seconds)
            case ("$date", .integer(let seconds)): return .date(Double(seconds))
            case ("$uuid", .string(let text)):
                guard let uuid = UUID(uuidString: text) else { throw error("\(ArchivedValue.quoted(text)) is not a UUID (8-4-4-4-12 hexadecimal digits)") }
                // SAFETY: the tuple's bytes are copied into an Array inside the closure.
                return .uuid(withUnsafeBytes(of: uuid.uuid) { Array($0) })
            case ("$url", .string(let text)):
                guard URL(string: text) != nil else { throw error("\(ArchivedValue.quoted(text)) is not a URL") }
                return .url(text)
            case ("$data", .string(let text)):
                guard let data = Data(base64Encoded: text) else { throw error("\(ArchivedValue.quoted(text)) is not base64") }
                return .data([UInt8](data))
            case ("$date", _), ("$uuid", _), ("$url", _), ("$data", _):
                throw error("\(entry.key) takes \(entry.key == "$date" ? "a number of seconds since 2001-01-01T00:00:00Z" : "text")")
            default:
                return .dictionary([entry])
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var plainStart = position
            func flushPlain(_ end: Int) throws(SyntaxError) {
                guard plainStart < end else { return }
                guard let text = String(validating: bytes[plainStart..<end], as: UTF8.self) else { throw error("the text is not valid UTF-8") }
                scalars.append(contentsOf: text.unicodeScalars)
            }
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    try flushPlain(position)
                    position += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw error("a control character in text: write it as \\u\(String(format: "%04x", byte))") }
                guard byte == UInt8(ascii: "\\") else { position += 1; continue }
                try flushPlain(position)
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    if (0xD800..<0xDC00).contains(unit), position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate in \\u escapes") }
                        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(unit) else { throw error("a lone UTF-16 surrogate in \\u escapes") }
                    scalars.append(scalar)
                default:
                    position -= 2
                    throw error("unknown escape in text")
                }
                plainStart = position
            }
            throw error("the text is not closed: expected '\"'")
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard position + 4 <= bytes.count, let unit = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                throw error("\\u needs four hexadecimal digits")
            }
            position += 4
            return unit
        }

        /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        static func isNumber(_ word: ArraySlice<UInt8>) -> Bool {
            var index = word.startIndex
            func digits() -> Int {
                let start = index
                while index < word.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(word[index]) { index += 1 }
                return index - start
            }
            if index < word.endIndex, word[index] == UInt8(ascii: "-") { index += 1 }
            guard index < word.endIndex else { return false }
            if word[index] == UInt8(ascii: "0") { index += 1 } else if digits() == 0 { return false }
            if index < word.endIndex, word[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return false }
            }
            if index < word.endIndex, word[index] == UInt8(ascii: "e") || word[index] == UInt8(ascii: "E") {
                index += 1
                if index < word.endIndex, word[index] == UInt8(ascii: "+") || word[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return false }
            }
            return index == word.endIndex
        }

        mutating func number() throws(SyntaxError) -> ArchivedValue {
            let start = position
            let allowed = Set("+-0123456789.eE".utf8)
            while position < bytes.count, allowed.contains(bytes[position]) { position += 1 }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            guard Parser.isNumber(bytes[start..<position]) else {
                position = start
                throw error("expected a JSON value")
            }
            if !text.contains(where: { ".eE".contains($0) }) {
                guard let integer = Int64(text) else { position = start; throw error("\(text) does not fit a 64-bit integer") }
                return .integer(integer)
            }
            guard let real = Double(text), real.isFinite else { position = start; throw error("\(text) is not a finite number") }
            return .real(real)
        }
    }
}
