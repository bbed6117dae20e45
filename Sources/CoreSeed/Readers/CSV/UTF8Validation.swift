/// UTF-8 validation that reports where the first bad byte is (the standard library only repairs).
enum UTF8Validation {
    /// The offset of the first byte that does not start or continue a well-formed scalar, or nil.
    /// Rejects overlong forms, surrogates and scalars above U+10FFFF (Unicode Table 3-7).
    static func firstInvalidOffset(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int? {
        var i = 0
        while i < count {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + 1 < count, bytes[i + 1] >= low, bytes[i + 1] <= high else { return i }
            for k in 2..<length {
                guard i + k < count, bytes[i + k] & 0xC0 == 0x80 else { return i }
            }
            i += length
        }
        return nil
    }
}
