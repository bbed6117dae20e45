/// Byte-level helpers for the hot paths of coercion: no `Character`, no `CharacterSet`, no regex.
enum ASCII {
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }

    /// Space, tab, CR, LF: what is trimmed around non-string values.
    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    @inline(__always) static func lowercased(_ byte: UInt8) -> UInt8 { isLetter(byte) ? byte | 0x20 : byte }

    /// `bytes` without leading and trailing spaces.
    /// SAFETY: returns a sub-view of `bytes`, valid exactly as long as `bytes` is (the caller's closure or row).
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// Does `bytes` at `index` start with `word`, ignoring ASCII case? (`word` is lower-case.)
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, caseInsensitive word: [UInt8]) -> Bool {
        guard bytes.count - index >= word.count else { return false }
        for offset in 0..<word.count where lowercased(bytes[index + offset]) != word[offset] {
            return false
        }
        return true
    }

    /// Does all of `bytes` equal `word`, ignoring ASCII case? (`word` is lower-case.)
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid). `utf8Start` of a StaticString is static memory.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, caseInsensitive word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let expected = word.utf8Start
        for offset in 0..<bytes.count where lowercased(bytes[offset]) != expected[offset] {
            return false
        }
        return true
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes; a native string (every string on Linux) is not copied.
    @inline(__always)
    // SAFETY: the view lives only inside `withUTF8` on a local copy; `body` must not keep it (it returns values, not views).
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws(CoercionFailure) -> R) throws(CoercionFailure) -> R {
        var copy = self
        // `withUTF8` rethrows untyped errors; carry the typed one out by hand.
        var failure: CoercionFailure?
        let result: R? = copy.withUTF8 { buffer -> R? in
            do throws(CoercionFailure) { return try body(buffer) } catch { failure = error; return nil }
        }
        if let failure { throw failure }
        return result!
    }

    /// Calls `body` with the string's UTF-8 bytes; a native string (every string on Linux) is not copied.
    @inline(__always)
    // SAFETY: the view lives only inside `withUTF8` on a local copy; `body` must not keep it.
    func withUTF8Buffer<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        var copy = self
        return copy.withUTF8(body)
    }
}

extension ASCII {
    /// `text` without leading and trailing ASCII spaces; returns `text` itself when there are none.
    static func trimmedSpaces(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            let trimmed = trimmed(bytes)
            if trimmed.count == bytes.count { return nil }
            return String(decoding: trimmed, as: UTF8.self)
        } ?? text
    }

    /// A field or attribute name folded for loose matching: ASCII letters and digits only, lower-cased
    /// (`close_date`, `closeDate` and `Close Date` all become `closedate`).
    static func foldedName(_ name: String) -> String {
        String(decoding: name.utf8.filter { isLetter($0) || isDigit($0) }.map(lowercased), as: UTF8.self)
    }
}
