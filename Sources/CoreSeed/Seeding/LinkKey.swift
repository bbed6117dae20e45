/// A natural key as the key maps keep it, in 16 bytes: a canonical integer exactly (most legacy ids),
/// any other key as a 128-bit keyed fingerprint of its text (``NaturalKey/part(_:)``), so that a
/// million 100-byte keys cost 16 MB instead of the 250 MB their `String`s took (issue 16).
///
/// The fingerprint is two SipHash-1-3 values (Swift's `Hasher`, seeded at random per process) of the
/// key's bytes under two domain tags: a keyed pseudo-random function, so two different keys share a
/// fingerprint with probability about n² / 2¹²⁹ — 10⁻²⁷ for a million keys, as likely as two random
/// UUIDs colliding — and input crafted to collide cannot be made without the process's seed. Only the
/// maps use fingerprints: messages take a key's text from its record, and what is stored is never
/// derived from one.
struct LinkKey: Hashable, Sendable {
    /// 0 for an integer key; a fingerprint's first half, with the top bit set.
    let high: UInt64
    /// The integer's bits, or the fingerprint's second half.
    let low: UInt64

    init(integer: Int64) {
        high = 0
        low = UInt64(bitPattern: integer)
    }

    /// The key whose text is `text` (an integer when the text is one in canonical form).
    init(_ text: String) {
        var text = text
        self = text.withUTF8 { LinkKey(bytes: $0) }
    }

    /// The key whose text is these UTF-8 bytes.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid). The key keeps hashes of the bytes, not the bytes.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        if let number = NaturalKey.canonicalInteger(bytes: bytes) {
            self.init(integer: number)
            return
        }
        var first = Hasher(), second = Hasher()
        first.combine(UInt8(1))
        second.combine(UInt8(2))
        first.combine(bytes: UnsafeRawBufferPointer(bytes))
        second.combine(bytes: UnsafeRawBufferPointer(bytes))
        first.combine(bytes.count)
        second.combine(bytes.count)
        self.init(high: UInt64(bitPattern: Int64(first.finalize())) | 1 << 63, low: UInt64(bitPattern: Int64(second.finalize())))
    }

    /// The integer, for an integer key.
    var integer: Int64? { high == 0 ? Int64(bitPattern: low) : nil }
}

extension LinkKey {
    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }
}
