/// Natural key → record ordinal, the one structure whose memory grows with the input.
///
/// Keys that are canonical integers (`35216`, `-7`; not `007`) — most legacy ids — live in an
/// ``IntegerKeyTable`` (4 bytes a key when the ids are dense, 12 bytes a slot otherwise); other keys
/// by their fingerprint (``LinkKey``), 20 bytes a slot whatever their length.
struct KeyIndex {
    private var integers = IntegerKeyTable()
    private var fingerprints = FingerprintTable()

    var count: Int { integers.count + fingerprints.count }

    subscript(key: String) -> Int32? {
        get { self[LinkKey(key)] }
        set { self[LinkKey(key)] = newValue }
    }

    /// The ordinal of a key as the key pass keeps it.
    subscript(_ key: LinkKey) -> Int32? {
        get {
            if let number = key.integer { return integers[number] }
            return fingerprints[key]
        }
        set {
            if let number = key.integer {
                integers[number] = newValue
            } else {
                fingerprints[key] = newValue
            }
        }
    }

    /// The ordinal of a canonical integer key (see ``NaturalKey/canonicalInteger(_:)``), without its text.
    subscript(integer number: Int64) -> Int32? {
        get { integers[number] }
        set { integers[number] = newValue }
    }
}

/// A key a ``ProbeTable`` can hold: compared whole, placed by 64 well-mixed bits.
protocol ProbeKey: Equatable {
    var probeHash: UInt64 { get }
}

extension Int64: ProbeKey {
    /// Fibonacci hashing: sequential ids spread over the table.
    var probeHash: UInt64 { UInt64(bitPattern: self) &* 0x9E37_79B9_7F4A_7C15 }
}

extension LinkKey: ProbeKey {
    /// A fingerprint is random bits already; an integer key is mixed like any `Int64`.
    var probeHash: UInt64 { high == 0 ? low.multipliedReportingOverflow(by: 0x9E37_79B9_7F4A_7C15).partialValue : low }
}

/// Key → Int32 with linear probing (12 bytes a slot for `Int64` keys, 20 for `LinkKey`s); grows by half
/// when 80% full. Not a general dictionary: values are never removed, only replaced.
struct ProbeTable<Key: ProbeKey> {
    private var keys: [Key] = []
    fileprivate var values: [Int32] = []
    /// Marks an empty slot in `values` (ordinals are never negative).
    fileprivate static var empty: Int32 { -1 }
    private(set) var count = 0

    init() {}

    /// An empty table with room for `count` keys before it grows. Refilling a table from another's
    /// slots (which come in hash order) needs this: a small table filled in hash order piles every key
    /// into one probe chain.
    init(roomFor count: Int, filler: Key) {
        let capacity = max(1024, count + count / 4 + 1)
        keys = Array(repeating: filler, count: capacity)
        values = Array(repeating: Self.empty, count: capacity)
    }

    private static func slot(_ key: Key, _ capacity: Int) -> Int {
        // The high bits scaled to the capacity (any capacity, not only powers of 2).
        Int(((key.probeHash >> 32) &* UInt64(capacity)) >> 32)
    }

    subscript(key: Key) -> Int32? {
        get {
            let capacity = keys.count
            guard capacity > 0 else { return nil }
            var index = Self.slot(key, capacity)
            while values[index] != Self.empty {
                if keys[index] == key { return values[index] }
                index += 1
                if index == capacity { index = 0 }
            }
            return nil
        }
        set {
            guard let newValue else { preconditionFailure("ProbeTable does not remove keys") }
            if (count + 1) * 5 > keys.count * 4 { grow(filler: key) }
            let capacity = keys.count
            var index = Self.slot(key, capacity)
            while values[index] != Self.empty {
                if keys[index] == key {
                    values[index] = newValue
                    return
                }
                index += 1
                if index == capacity { index = 0 }
            }
            keys[index] = key
            values[index] = newValue
            count += 1
        }
    }

    /// Calls `body` with every key and its value, in slot order.
    func forEach(_ body: (Key, Int32) -> Void) {
        for index in keys.indices where values[index] != Self.empty { body(keys[index], values[index]) }
    }

    /// `filler` stands in the empty slots' keys (never read: `values` marks them empty).
    private mutating func grow(filler: Key) {
        let old = self
        let capacity = max(1024, old.keys.count + old.keys.count / 2)
        keys = Array(repeating: filler, count: capacity)
        values = Array(repeating: Self.empty, count: capacity)
        count = 0
        old.forEach { key, value in self[key] = value }
    }
}

/// Any keys, text ones by fingerprint.
typealias FingerprintTable = ProbeTable<LinkKey>

extension ProbeTable {
    /// The longest run of occupied slots (for tests: a bad hash shows as one long run).
    var longestProbe: Int {
        var longest = 0, run = 0
        for value in values {
            run = value == Self.empty ? 0 : run + 1
            longest = max(longest, run)
        }
        return longest
    }
}

/// The keys seen so far, for duplicate detection when nothing else needs the key → row map (the
/// streaming plan). Small non-negative integer keys — most ids — take one bit each.
struct KeySet {
    /// Bit `k` is set when integer key `k` was seen (for 0 ≤ k < `bitmapLimit`).
    private var bitmap: [UInt64] = []
    private var integers = ProbeTable<Int64>()
    private var fingerprints = FingerprintTable()
    /// Keys below this use the bitmap (16 MiB at most).
    static let bitmapLimit: Int64 = 1 << 27

    /// Adds `key`; false when it was already there.
    mutating func insert(_ key: String) -> Bool {
        let key = LinkKey(key)
        guard let number = key.integer else {
            if fingerprints[key] != nil { return false }
            fingerprints[key] = 0
            return true
        }
        return insert(integer: number)
    }

    /// Adds the key whose canonical text is `number` (see ``NaturalKey/canonicalInteger(_:)``); false when
    /// it was already there.
    @inline(__always)
    mutating func insert(integer number: Int64) -> Bool {
        guard number >= 0 && number < Self.bitmapLimit else {
            if integers[number] != nil { return false }
            integers[number] = 0
            return true
        }
        let word = Int(number >> 6), bit = UInt64(1) << UInt64(number & 63)
        if word >= bitmap.count {
            bitmap.append(contentsOf: repeatElement(0, count: max(word + 1 - bitmap.count, bitmap.count / 2)))
        }
        if bitmap[word] & bit != 0 { return false }
        bitmap[word] |= bit
        return true
    }
}
