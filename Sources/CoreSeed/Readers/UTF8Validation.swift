/// UTF-8 validation that reports where the first bad byte is (the standard library only repairs).
/// Rejects overlong forms, surrogates and scalars above U+10FFFF (Unicode Table 3-7).
enum UTF8Validation {
    /// The offset of the first byte that does not start or continue a well-formed scalar, or nil.
    /// SAFETY: reads `count` bytes at `bytes` during the call only.
    static func firstInvalidOffset(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int? {
        var i = 0
        while i < count {
            if bytes[i] < 0x80 {
                i += 1
                continue
            }
            let length = scalarLength(bytes + i, available: count - i)
            if length <= 0 { return i }
            i += length
        }
        return nil
    }

    /// The length of the well-formed scalar whose lead byte (≥ 0x80) is at `bytes`: 2–4; 0 when it
    /// is not one; -1 when it needs more than the `available` bytes.
    @inline(__always)
    // SAFETY: reads at most `available` bytes at `bytes`, during the call only.
    static func scalarLength(_ bytes: UnsafePointer<UInt8>, available: Int) -> Int {
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch bytes[0] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard available >= length else { return -1 }
        guard bytes[1] >= low && bytes[1] <= high else { return 0 }
        for k in 2..<length where bytes[k] & 0xC0 != 0x80 { return 0 }
        return length
    }
}
