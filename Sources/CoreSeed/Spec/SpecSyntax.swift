/// A check of a spec file's syntax before it is decoded, so that a mistake is reported at its line and
/// column (Foundation's JSON5 decoder says only "The given data was not valid JSON.") and a key given
/// twice in one object is an error instead of the last one silently winning.
///
/// Accepts the JSON5 that the spec allows: `//` and `/* */` comments, trailing commas, keys as
/// identifiers or in single or double quotes, single-quoted strings, numbers with a sign, a leading or
/// trailing point, hexadecimal digits, `Infinity` and `NaN`.
struct SpecSyntax {
    /// Where the first problem is (1-based) and what it is.
    struct Problem: Error, Equatable {
        let line: Int
        let column: Int
        let message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    /// Checks `data`; throws the first problem found.
    static func check(_ data: [UInt8]) throws(Problem) {
        var scanner = SpecSyntax(bytes: data)
        // SAFETY: the view is read inside the closure only; `!data.isEmpty` makes `baseAddress` non-nil.
        if !data.isEmpty, let offset = data.withUnsafeBufferPointer({ UTF8Validation.firstInvalidOffset($0.baseAddress!, count: $0.count) }) {
            while scanner.index < offset { scanner.advance() }
            throw scanner.problem("invalid UTF-8 byte 0x\(String(data[offset], radix: 16, uppercase: true)): a spec is UTF-8 text")
        }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
        try scanner.skipSpace()
        try scanner.value(depth: 0)
        try scanner.skipSpace()
        if scanner.index < data.count { throw scanner.problem("unexpected \(scanner.describe()) after the end of the spec") }
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private var column: Int { index - lineStart + 1 }

    private func problem(_ message: String, line: Int? = nil, column: Int? = nil) -> Problem {
        Problem(line: line ?? self.line, column: column ?? self.column, message: message)
    }

    /// The character at the cursor, as a message names it.
    private func describe() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return byte == 0x0A ? "line break" : "character \(byte)"
    }

    private mutating func advance() {
        if bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private mutating func skipSpace() throws(Problem) {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                advance()
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A { advance() }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                let (startLine, startColumn) = (line, column)
                advance(); advance()
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { advance() }
                guard index + 1 < bytes.count else { throw problem("comment is not closed with */", line: startLine, column: startColumn) }
                advance(); advance()
            } else {
                return
            }
        }
    }

    private mutating func value(depth: Int) throws(Problem) {
        guard depth < 64 else { throw problem("objects and lists nested too deeply") }
        guard index < bytes.count else { throw problem("a value is missing at the end of the file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object(depth: depth)
        case UInt8(ascii: "["): try array(depth: depth)
        case UInt8(ascii: "\""), UInt8(ascii: "'"): _ = try string()
        default:
            let start = index
            while index < bytes.count, isWordByte(bytes[index]) { advance() }
            guard index > start else { throw problem("expected a value, found \(describe())") }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            if ["true", "false", "null", "Infinity", "+Infinity", "-Infinity", "NaN"].contains(word) { return }
            guard word.first.map({ "+-.0123456789".contains($0) }) == true else {
                throw problem("expected a value, found '\(word)' (text needs quotes)", column: start - lineStart + 1)
            }
        }
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        SpecSyntax.isLetter(byte) || SpecSyntax.isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private mutating func object(depth: Int) throws(Problem) {
        advance()
        var seen: [String: (line: Int, column: Int)] = [:]
        while true {
            try skipSpace()
            guard index < bytes.count else { throw problem("an object is not closed with }") }
            if bytes[index] == UInt8(ascii: "}") { advance(); return }
            let (keyLine, keyColumn) = (line, column)
            let key: String
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                key = try string()
            } else {
                let start = index
                while index < bytes.count, SpecSyntax.isLetter(bytes[index]) || SpecSyntax.isDigit(bytes[index])
                        || bytes[index] == UInt8(ascii: "_") || bytes[index] == UInt8(ascii: "$") { advance() }
                guard index > start else { throw problem("expected a key in quotes, found \(describe())") }
                key = String(decoding: bytes[start..<index], as: UTF8.self)
            }
            if let first = seen[key] {
                throw problem("key '\(key)' is given twice in one object (first at line \(first.line), column \(first.column)); keep one",
                              line: keyLine, column: keyColumn)
            }
            seen[key] = (keyLine, keyColumn)
            try skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw problem("expected ':' after key '\(key)', found \(describe())") }
            advance()
            try skipSpace()
            try value(depth: depth + 1)
            try skipSpace()
            guard index < bytes.count else { throw problem("an object is not closed with }") }
            if bytes[index] == UInt8(ascii: ",") { advance(); continue }
            if bytes[index] == UInt8(ascii: "}") { advance(); return }
            throw problem("expected ',' or '}' after the value of '\(key)', found \(describe())")
        }
    }

    private mutating func array(depth: Int) throws(Problem) {
        advance()
        while true {
            try skipSpace()
            guard index < bytes.count else { throw problem("a list is not closed with ]") }
            if bytes[index] == UInt8(ascii: "]") { advance(); return }
            try value(depth: depth + 1)
            try skipSpace()
            guard index < bytes.count else { throw problem("a list is not closed with ]") }
            if bytes[index] == UInt8(ascii: ",") { advance(); continue }
            if bytes[index] == UInt8(ascii: "]") { advance(); return }
            throw problem("expected ',' or ']' in a list, found \(describe())")
        }
    }

    /// A quoted string (either quote), with escapes; returns its text without decoding escapes.
    private mutating func string() throws(Problem) -> String {
        let quote = bytes[index]
        let (startLine, startColumn) = (line, column)
        advance()
        let start = index
        while index < bytes.count, bytes[index] != quote {
            if bytes[index] == 0x0A { throw problem("text in quotes runs past the end of the line", line: startLine, column: startColumn) }
            if bytes[index] == UInt8(ascii: "\\") { advance() }
            if index < bytes.count { advance() }
        }
        guard index < bytes.count else { throw problem("text in quotes is not closed", line: startLine, column: startColumn) }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        advance()
        return text
    }
}
