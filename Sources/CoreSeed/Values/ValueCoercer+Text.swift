extension ValueCoercer {
    /// String: text as is; numbers in canonical text; a blob only when it is valid UTF-8. Text holding a
    /// NUL character is refused: C strings, and so many readers of a store, end at the first one.
    func string(_ value: FieldValue) throws(CoercionFailure) -> SQLiteValue {
        let text: String
        switch value {
        case .text(let string):
            if emptyIsNull, string.isEmpty || (blankIsNull && AttributeFill.isBlank(value)) { return .null }
            text = string
        case .integer(let number):
            text = String(number)
        case .real(let number):
            guard number.isFinite else { throw CoercionFailure(.notA, expected: "finite number for a String", seen: value) }
            text = String(number)
        case .blob(let bytes):
            let decoded = String(decoding: bytes, as: UTF8.self)
            guard decoded.utf8.elementsEqual(bytes) else {
                throw CoercionFailure(.notA, expected: "UTF-8 String", seen: value)
            }
            text = decoded
        case .null, .list:
            throw CoercionFailure(.notA, expected: type.rawValue, seen: value)
        }
        if text.utf8.contains(0) { throw CoercionFailure(.holdsNUL, expected: type.rawValue, seen: value) }
        if minimum != nil || maximum != nil {
            // Core Data counts NSString length: UTF-16 code units.
            let length = text.utf16.count
            if let minimum, case .integer(let bound) = minimum.number, length < bound {
                throw CoercionFailure(.tooShort(Int(bound)), expected: type.rawValue, seen: value)
            }
            if let maximum, case .integer(let bound) = maximum.number, length > bound {
                throw CoercionFailure(.tooLong(Int(bound)), expected: type.rawValue, seen: value)
            }
        }
        return .text(text)
    }

    /// UUID: `8-4-4-4-12` hex digits, any case, optionally in braces, or 16 raw bytes.
    func uuid(_ value: FieldValue) throws(CoercionFailure) -> [UInt8] {
        switch value {
        case .blob(let bytes) where bytes.count == 16:
            return bytes
        case .text(let text):
            if let bytes = text.withUTF8Buffer({ ValueCoercer.uuidBytes(ASCII.trimmed($0)) }) { return bytes }
        default:
            break
        }
        throw CoercionFailure(.notA, expected: type.rawValue, seen: value)
    }

    // SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func uuidBytes(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var bytes = text
        if bytes.count == 38 {
            guard bytes[0] == UInt8(ascii: "{"), bytes[37] == UInt8(ascii: "}") else { return nil }
            bytes = UnsafeBufferPointer(rebasing: bytes[1..<37])
        }
        guard bytes.count == 36 else { return nil }
        var result = [UInt8](repeating: 0, count: 16)
        var output = 0
        var index = 0
        while index < 36 {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard bytes[index] == UInt8(ascii: "-") else { return nil }
                index += 1
                continue
            }
            guard let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else { return nil }
            result[output] = high << 4 | low
            output += 1
            index += 2
        }
        return result
    }

    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt8? {
        if ASCII.isDigit(byte) { return byte - UInt8(ascii: "0") }
        let lower = byte | 0x20
        if lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "f") { return lower - UInt8(ascii: "a") + 10 }
        return nil
    }

    /// URI: a scheme (`letter *(letter / digit / + - .)` then `:`) and no spaces or control characters.
    func uri(_ value: FieldValue) throws(CoercionFailure) -> String {
        if case .text(let text) = value {
            let trimmed: String? = text.withUTF8Buffer { buffer in
                let bytes = ASCII.trimmed(buffer)
                guard ValueCoercer.isURI(bytes) else { return nil }
                return bytes.count == buffer.count ? text : String(decoding: bytes, as: UTF8.self)
            }
            if let trimmed { return trimmed }
        }
        throw CoercionFailure(.notA, expected: type.rawValue, seen: value)
    }

    // SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func isURI(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, ASCII.isLetter(first) else { return false }
        var index = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { break }
            guard ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { return false }
            index += 1
        }
        guard index < bytes.count, index + 1 < bytes.count else { return false }  // a scheme, then something
        for byte in bytes where byte <= 0x20 || byte == 0x7F {
            return false
        }
        return true
    }

    /// Binary and Transformable: a blob as is; text as base64 when configured; for Binary, else the text's UTF-8.
    func bytes(_ value: FieldValue) throws(CoercionFailure) -> [UInt8] {
        switch value {
        case .blob(let bytes):
            return bytes
        case .text(let text):
            if options.base64 {
                if let decoded = text.withUTF8Buffer({ Base64.decode(ASCII.trimmed($0)) }) { return decoded }
                throw CoercionFailure(.notA, expected: "base64 \(type.rawValue) value", seen: value)
            }
            if type == .binary { return Array(text.utf8) }
        default:
            break
        }
        throw CoercionFailure(.notA, expected: "\(type.rawValue) value", seen: value)
    }
}

/// Standard base64 (RFC 4648 §4) with padding, decoded by hand.
enum Base64 {
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(index)
        }
        return table
    }()

    /// The decoded bytes, or `nil` when the length is not a multiple of 4 or a character is not base64.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var padding = 0
        if text.count >= 1, text[text.count - 1] == UInt8(ascii: "=") { padding += 1 }
        if text.count >= 2, text[text.count - 2] == UInt8(ascii: "=") { padding += 1 }
        var result: [UInt8] = []
        result.reserveCapacity(text.count / 4 * 3)
        var index = 0
        while index < text.count {
            var quad: UInt32 = 0
            for offset in 0..<4 {
                let byte = text[index + offset]
                let isPad = byte == UInt8(ascii: "=") && index + offset >= text.count - padding
                let sextet = isPad ? 0 : table[Int(byte)]
                if sextet == 0xFF { return nil }
                quad = quad << 6 | UInt32(sextet)
            }
            result.append(UInt8(truncatingIfNeeded: quad >> 16))
            result.append(UInt8(truncatingIfNeeded: quad >> 8))
            result.append(UInt8(truncatingIfNeeded: quad))
            index += 4
        }
        result.removeLast(padding)
        return result
    }
}
