/// The order in which Core Data visits an entity's properties when it sets up many-to-many
/// relationships: the bucket order of the private CoreFoundation hash table it copies the entity's
/// property map into (`PF_Tiger_CFDictionary…` in `CoreData.m`, filled by `NSSQLEntity.m`).
///
/// It imitates three things, each documented in `../shared/DESIGN.md` §4b.2 and `docs/LAYOUT.md`:
/// - the string hash of CoreFoundation 368 (`__CFStrHashCharacters`), over UTF-16 code units in
///   32-bit arithmetic;
/// - the table size: the first capacity ≥ the key count picks the bucket count at the same position;
/// - open addressing with linear probing, iterated slot by slot.
///
/// Which side of a many-to-many pair comes first in this order names its join table, so a wrong
/// order gives a store whose table names Core Data does not find.
enum CFBucketOrder {
    /// Capacities of the table sizes, smallest first (CF-368 `__CFDictionaryCapacities`).
    static let capacities: [Int] = [4, 8, 17, 29, 47, 76, 123, 199, 322, 521, 843, 1364, 2207, 3571, 5778, 9349]
    /// Bucket counts at the same positions (CF-368 `__CFDictionaryBuckets`).
    static let bucketCounts: [Int] = [5, 11, 23, 41, 67, 113, 199, 317, 521, 839, 1361, 2207, 3571, 5779, 9349, 15121]

    /// `keys` (distinct) in the table's iteration order.
    static func ordered(_ keys: [String]) -> [String] {
        guard !keys.isEmpty else { return [] }
        let position = capacities.firstIndex { $0 >= keys.count } ?? (capacities.count - 1)
        let buckets = bucketCounts[position]
        precondition(keys.count <= buckets, "more keys than any table size holds")
        var slots = [String?](repeating: nil, count: buckets)
        for key in keys {
            var slot = Int(hash(key) % UInt32(buckets))
            while slots[slot] != nil { slot = (slot + 1) % buckets }
            slots[slot] = key
        }
        return slots.compactMap { $0 }
    }

    /// CF-368's string hash: every UTF-16 unit below 24 units, else the first 8 and the last 16;
    /// blocks of four, then one at a time; the length mixed in at the start and the end.
    static func hash(_ string: String) -> UInt32 {
        let units = Array(string.utf16)
        let length = units.count
        var result = UInt32(truncatingIfNeeded: length)
        func mix(_ slice: ArraySlice<UInt16>) { mixCharacters(&result, slice) }
        if length < 24 {
            mix(units[...])
        } else {
            mix(units[0..<8])
            mix(units[(length - 16)...])
        }
        return result &+ (result << UInt32(length & 31))
    }

    /// The loop CF-368 and CF-476 share: blocks of four UTF-16 units, then one at a time.
    static func mixCharacters(_ result: inout UInt32, _ slice: ArraySlice<UInt16>) {
        var index = slice.startIndex
        while index + 4 <= slice.endIndex {
            result = result &* 67_503_105
                &+ UInt32(slice[index]) &* 16_974_593
                &+ UInt32(slice[index + 1]) &* 66_049
                &+ UInt32(slice[index + 2]) &* 257
                &+ UInt32(slice[index + 3])
            index += 4
        }
        while index < slice.endIndex {
            result = result &* 257 &+ UInt32(slice[index])
            index += 1
        }
    }
}
