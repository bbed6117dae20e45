import Foundation

/// A JSON value that keeps each number's text, so that a 64-bit integer or a `Double` written by
/// `coreseed export` is compared exactly (JSONSerialization turns numbers into `Double`s or
/// `NSNumber`s of its choosing). Its own parser rather than CoreSeed's (ArchivedValue.swift): the
/// check reads CoreSeed's output with nothing of CoreSeed in it.
indirect enum JSONValue: Equatable {
    case null
    case boolean(Bool)
    /// The number as written.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in their order.
    case object([(key: String, value: JSONValue)])

    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.boolean(let x), .boolean(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member named `key` of an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Parses one JSON text; nil when it is not exactly one valid value.
    static func parse(_ text: Substring.UTF8View) -> JSONValue? {
        var parser = JSONParser(bytes: Array(text))
        parser.skipSpace()
        guard let value = parser.value() else { return nil }
        parser.skipSpace()
        return parser.position == parser.bytes.count ? value : nil
    }

    static func parse(_ text: String) -> JSONValue? { parse(text[...].utf8) }
}

/// A strict recursive-descent JSON parser over UTF-8 bytes (RFC 8259).
private struct JSONParser {
    let bytes: [UInt8]
    var position = 0
    var depth = 0

    mutating func skipSpace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    mutating func value() -> JSONValue? {
        guard position < bytes.count, depth < 512 else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .boolean(true))
        case UInt8(ascii: "f"): return literal("false", .boolean(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count, Array(bytes[position..<position + expected.count]) == expected else { return nil }
        position += expected.count
        return value
    }

    private mutating func object() -> JSONValue? {
        position += 1
        depth += 1
        defer { depth -= 1 }
        var members: [(key: String, value: JSONValue)] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
        while true {
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
            position += 1
            skipSpace()
            guard let member = value() else { return nil }
            members.append((key, member))
            skipSpace()
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "}") else { return nil }
            position += 1
            return .object(members)
        }
    }

    private mutating func array() -> JSONValue? {
        position += 1
        depth += 1
        defer { depth -= 1 }
        var items: [JSONValue] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
        while true {
            skipSpace()
            guard let item = value() else { return nil }
            items.append(item)
            skipSpace()
            guard position < bytes.count else { return nil }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            guard bytes[position] == UInt8(ascii: "]") else { return nil }
            position += 1
            return .array(items)
        }
    }

    private mutating func number() -> JSONValue? {
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let digits = { (parser: inout JSONParser) -> Int in
            let from = parser.position
            while parser.position < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.position]) { parser.position += 1 }
            return parser.position - from
        }
        guard digits(&self) > 0 else { return nil }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { return nil }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { return nil }
        }
        return .number(String(decoding: bytes[start..<position], as: UTF8.self))
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - position >= 4, let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else { return nil }
        position += 4
        return value
    }

    /// A string at `position` (on its opening quote), escapes decoded.
    mutating func string() -> String? {
        position += 1
        var scalars = String.UnicodeScalarView()
        var run = position
        func flush(_ parser: JSONParser, upTo end: Int) {
            scalars.append(contentsOf: String(decoding: parser.bytes[run..<end], as: UTF8.self).unicodeScalars)
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                flush(self, upTo: position)
                position += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { return nil }
            guard byte == UInt8(ascii: "\\") else { position += 1; continue }
            flush(self, upTo: position)
            position += 1
            guard position < bytes.count else { return nil }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                guard var code = hex4() else { return nil }
                if (0xD800...0xDBFF).contains(code) {
                    guard bytes.count - position >= 6, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else { return nil }
                    position += 2
                    guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { return nil }
                scalars.append(scalar)
            default: return nil
            }
            run = position
        }
        return nil
    }
}
