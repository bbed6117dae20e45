/// Integer key → Int32, for the canonical integer keys of ``KeyIndex`` (most legacy ids).
///
/// Ids are usually dense: 1…n, or a shuffled range like a bank's certificate numbers. Non-negative
/// keys below a bound that grows with the count (4 slots a key, at least 65,536) are found by
/// position in a plain array — 4 bytes a slot, no hashing, and a table a quarter the size of a hash
/// table's, so most look-ups stay in cache. Other keys (negative, or far above the count) go to a
/// ``ProbeTable``. Invariant: no key of the probe table lies within the array.
struct IntegerKeyTable {
    /// `direct[k]` is key `k`'s value, or `empty`.
    private var direct: [Int32] = []
    private var others = ProbeTable<Int64>()
    private static var empty: Int32 { -1 }
    /// Keys held.
    private(set) var count = 0

    /// The array may reach this many slots while it holds `keys` keys.
    private static func directLimit(keys: Int) -> Int { max(1 << 16, 4 * keys) }

    subscript(key: Int64) -> Int32? {
        @inline(__always) get {
            if key >= 0 && key < Int64(direct.count) {
                let value = direct[Int(key)]
                return value == Self.empty ? nil : value
            }
            return others[key]
        }
        set {
            guard let newValue else { preconditionFailure("IntegerKeyTable does not remove keys") }
            precondition(newValue != Self.empty, "values are never negative")
            if key >= Int64(direct.count) && key < Int64(Self.directLimit(keys: count + 1)) {
                // At least doubling, so that keys move out of the probe table a few times at most.
                let size = max(Int(key) + 1, 2 * direct.count, 1024)
                if size <= Self.directLimit(keys: count + 1) { growDirect(to: size) }
            }
            if key >= 0 && key < Int64(direct.count) {
                if direct[Int(key)] == Self.empty { count += 1 }
                direct[Int(key)] = newValue
                return
            }
            let before = others.count
            others[key] = newValue
            count += others.count - before
        }
    }

    /// Grows the array to `size` slots and moves the probe table's keys it now covers into it.
    private mutating func growDirect(to size: Int) {
        direct.append(contentsOf: repeatElement(Self.empty, count: size - direct.count))
        guard others.count > 0 else { return }
        var kept = ProbeTable<Int64>(roomFor: others.count, filler: 0)
        others.forEach { key, value in
            if key >= 0 && key < Int64(size) {
                direct[Int(key)] = value
            } else {
                kept[key] = value
            }
        }
        others = kept
    }

    /// Slots in the array (for tests).
    var directCount: Int { direct.count }
    /// Keys in the probe table (for tests).
    var otherCount: Int { others.count }
}
