/// JSON string escapes (`\n`, `\u00e9`, surrogate pairs), decoded into UTF-8 bytes.
extension JSONScanner {
    /// The escape after the backslash at `line`:`column` (where its errors are said to be).
    func escape(into bytes: inout [UInt8], line: Int, column: Int) throws(ReaderError) {
        guard let byte = try peek() else { throw error("unterminated string") }
        advance()
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard try peek() == UInt8(ascii: "\\") else { throw error("a lone UTF-16 surrogate \\u\(String(scalar, radix: 16))", line: line, column: column) }
                advance()
                try expect(UInt8(ascii: "u"), "the second half of a surrogate pair")
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("a lone UTF-16 surrogate \\u\(String(scalar, radix: 16))", line: line, column: column) }
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("a lone UTF-16 surrogate \\u\(String(scalar, radix: 16))", line: line, column: column)
            }
            bytes += Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw error("unknown escape \\\(ReaderError.Reason.describe(byte))", line: line, column: column)
        }
    }

    private func hex4() throws(ReaderError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try peek() else { throw error("expected four hexadecimal digits after \\u") }
            let lower = byte | 0x20
            let digit: UInt8
            if byte &- UInt8(ascii: "0") < 10 { digit = byte - UInt8(ascii: "0") }
            else if lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "f") { digit = lower - UInt8(ascii: "a") + 10 }
            else { throw error("expected four hexadecimal digits after \\u") }
            value = value << 4 | UInt32(digit)
            advance()
        }
        return value
    }
}
