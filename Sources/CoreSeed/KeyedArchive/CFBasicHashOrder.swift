/// The iteration order of a modern CoreFoundation dictionary of strings (`CFBasicHash`, the table behind
/// `NSMutableDictionary` and the per-object dictionaries of `NSKeyedArchiver` on 64-bit Apple systems):
/// the order in which an archive's keys reach the binary property list.
///
/// It imitates, each checked against the model caches of the corpus (docs/LAYOUT.md, "Z_MODELCACHE"):
/// - the string hash (`__CFStrHashCharacters`) in 64-bit arithmetic: the length, then blocks of four
///   UTF-16 units, all of them up to 96 units, else 32 from the start, the middle and the end;
///   the result plus itself shifted left by `length & 31`;
/// - prime bucket counts with their capacities (`__CFBasicHashTableSizes`/`Capacities`), slot = hash mod
///   buckets, linear probing;
/// - growth: a table whose count reaches its capacity moves to the next size, re-inserting its keys in
///   their old slot order.
///
/// Checked: each of the 2,643 object dictionaries of the 20 fresh corpus caches is a valid layout of
/// these tables; with the insertion orders ``ModelArchiver`` uses, the top dictionary before 1044 and
/// every model, array, set, dictionary and relationship object come out in Apple's order.
enum CFBasicHashOrder {
    static let bucketCounts: [Int] = [0, 3, 7, 13, 23, 41, 71, 127, 191, 251, 383, 631, 1087, 1723, 2803, 4523, 7351, 11959, 19447, 31231, 50683, 81919]
    static let capacities: [Int] = [0, 3, 6, 11, 19, 32, 52, 85, 118, 155, 237, 390, 672, 1065, 1732, 2795, 4543, 7391, 12019, 19302, 31324, 50629]

    /// `keys` (distinct), inserted one by one in this order into a growing table, in iteration order.
    static func ordered(inserting keys: [String]) -> [String] {
        var slots: [String?] = []
        var size = 0
        for (count, key) in keys.enumerated() {
            if count + 1 > capacities[size] {
                while capacities[size] < count + 1 { size += 1 }
                slots = rehash(slots, buckets: bucketCounts[size])
            }
            place(key, in: &slots)
        }
        return slots.compactMap { $0 }
    }

    /// `keys` (distinct) inserted in this order into a table sized for all of them at once (a copy
    /// made with `initWithDictionary:` or `CFDictionaryCreate`), in iteration order.
    static func ordered(sizedFor keys: [String]) -> [String] {
        guard !keys.isEmpty else { return [] }
        let size = capacities.firstIndex { $0 >= keys.count } ?? (capacities.count - 1)
        var slots = [String?](repeating: nil, count: bucketCounts[size])
        for key in keys { place(key, in: &slots) }
        return slots.compactMap { $0 }
    }

    private static func rehash(_ old: [String?], buckets: Int) -> [String?] {
        var slots = [String?](repeating: nil, count: buckets)
        for case let key? in old { place(key, in: &slots) }
        return slots
    }

    private static func place(_ key: String, in slots: inout [String?]) {
        let count = UInt64(slots.count)
        var slot = Int(hash(key) % count)
        while slots[slot] != nil { slot = (slot + 1) % slots.count }
        slots[slot] = key
    }

    /// `__CFStrHashCharacters` with a 64-bit `CFHashCode`.
    static func hash(_ string: String) -> UInt64 {
        let units = Array(string.utf16)
        let length = units.count
        var result = UInt64(length)
        func mix(_ slice: ArraySlice<UInt16>) {
            var index = slice.startIndex
            while index + 4 <= slice.endIndex {
                result = result &* 67_503_105 &+ UInt64(slice[index]) &* 16_974_593 &+ UInt64(slice[index + 1]) &* 66_049
                    &+ UInt64(slice[index + 2]) &* 257 &+ UInt64(slice[index + 3])
                index += 4
            }
            while index < slice.endIndex {
                result = result &* 257 &+ UInt64(slice[index])
                index += 1
            }
        }
        if length <= 96 {
            mix(units[...])
        } else {
            mix(units[0..<32])
            mix(units[(length / 2 - 16)..<(length / 2 + 16)])
            mix(units[(length - 32)...])
        }
        return result &+ (result << UInt64(length & 31))
    }
}
