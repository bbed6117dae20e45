/// The slot order of a CoreFoundation 476 ("Leopard") dictionary of strings: the order in which Core
/// Data inserts an entity's property keys into the CF-368 table whose slot order is its visit
/// (`CFBucketOrder`). `-[NSSQLEntity _generateProperties]` fills one such table per entity
/// (`_odiousHashHackStorage`, through `_PF_Leopard_CFDictionarySetValue` in `CoreData.m`), and
/// `_generateInverseRelationshipsAndMore` copies it slot by slot into the CF-368 table. Because that
/// table probes linearly, which key is inserted first decides who keeps a slot in a collision cluster.
///
/// It imitates three things of CF-476, each documented in `../shared/DESIGN.md` §4c.1 and
/// `docs/LAYOUT.md`:
/// - the string hash (`__CFStrHashCharacters` of CF-476) over UTF-16 units in 32-bit arithmetic: all
///   units up to 96, else 32 from the start, 32 from the middle and 32 from the end;
/// - `__CFDictionaryScrambleHash`, Bob Jenkins' 32-bit mix, and slot = scrambled & (buckets − 1);
/// - the sizes: capacity 3 in 4 buckets; a table at capacity grows to capacity `3 << flsl(count / 3)`
///   in `4 << flsl((capacity − 1) / 3)` buckets and re-inserts its keys in their old slot order.
struct CFLeopardTable: Sendable {
    private var slots: [String?] = Array(repeating: nil, count: 4)
    private var capacity = 3
    /// How many keys the table holds.
    private(set) var count = 0

    init() {}

    /// A table filled with `keys` in order (repeats are set again, which keeps their slot).
    init(_ keys: some Sequence<String>) {
        for key in keys { insert(key) }
    }

    /// The keys in slot order: what iterating the dictionary yields.
    var keys: [String] { slots.compactMap { $0 } }

    func contains(_ key: String) -> Bool { slot(of: key) != nil }

    /// `CFDictionarySetValue` for a new key: the table grows first when it is full. A key already
    /// present keeps its slot.
    mutating func insert(_ key: String) {
        guard !contains(key) else { return }
        if count == capacity { grow() }
        place(key)
        count += 1
    }

    private func slot(of key: String) -> Int? {
        let mask = slots.count - 1
        var slot = Int(CFLeopardTable.scrambled(CFLeopardTable.hash(key))) & mask
        while let occupant = slots[slot] {
            if occupant == key { return slot }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func place(_ key: String) {
        let mask = slots.count - 1
        var slot = Int(CFLeopardTable.scrambled(CFLeopardTable.hash(key))) & mask
        while slots[slot] != nil { slot = (slot + 1) & mask }
        slots[slot] = key
    }

    private mutating func grow() {
        let old = keys
        capacity = 3 << CFLeopardTable.flsl(count / 3)
        slots = Array(repeating: nil, count: 4 << CFLeopardTable.flsl((capacity - 1) / 3))
        for key in old { place(key) }
    }

    /// The 1-based position of the highest set bit, 0 for 0 (BSD `flsl`).
    static func flsl(_ value: Int) -> Int { value <= 0 ? 0 : Int.bitWidth - value.leadingZeroBitCount }

    /// CF-476's string hash; the result before `__CFDictionaryScrambleHash`.
    static func hash(_ string: String) -> UInt32 {
        let units = Array(string.utf16)
        let length = units.count
        var result = UInt32(truncatingIfNeeded: length)
        func mixFours(_ slice: ArraySlice<UInt16>) { CFBucketOrder.mixCharacters(&result, slice) }
        if length <= 96 {
            mixFours(units[...])
        } else {
            mixFours(units[0..<32])
            let middle = length / 2 - 16
            mixFours(units[middle..<(middle + 32)])
            mixFours(units[(length - 32)...])
        }
        return result &+ (result << UInt32(length & 31))
    }

    /// CF-476's `__CFDictionaryScrambleHash` (32-bit): Bob Jenkins' mix of the hash with a fixed key.
    static func scrambled(_ hash: UInt32) -> UInt32 {
        var a: UInt32 = 0x4B61_6E65 &+ hash
        var b: UInt32 = 0x4B61_6E65
        var c: UInt32 = 1
        a = a &- b; a = a &- c; a ^= c >> 13
        b = b &- c; b = b &- a; b ^= a << 8
        c = c &- a; c = c &- b; c ^= b >> 13
        a = a &- b; a = a &- c; a ^= c >> 12
        b = b &- c; b = b &- a; b ^= a << 16
        c = c &- a; c = c &- b; c ^= b >> 5
        a = a &- b; a = a &- c; a ^= c >> 3
        b = b &- c; b = b &- a; b ^= a << 10
        c = c &- a; c = c &- b; c ^= b >> 15
        return c
    }
}
