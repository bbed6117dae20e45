import Foundation

/// The results of one expression stage by its arguments, for the in-place path of
/// ``ComputedFieldsReader``: every expression is deterministic (``SQLiteExpression`` refuses the clock
/// and every function that is not), so equal arguments give equal results, and a field computed from a
/// categorical column (a state, a city, a country code) is evaluated once per distinct value.
///
/// Bounded (``capacity`` entries, ``byteLimit`` bytes of keys and results); once full, it is turned
/// off for good when arguments rarely repeat (fewer than half of a window's look-ups found), so unique
/// arguments cost filling it and one window of look-ups, no more. Keys and results live in one byte
/// arena, found through an open-addressing table with a seeded hash and bounded probing.
/// Not `Sendable`: one reader thread uses it.
final class ExpressionMemo {
    static let capacity = 4096
    static let byteLimit = 1 << 20
    static let window = 1024

    /// One kept result column; text and blobs are in the arena.
    private typealias Kept = ArenaSlot

    private let columns: Int
    // SAFETY: every property below: the reader's thread only; no method re-enters another. The arena
    // grows (a new allocation, the old bytes copied, the old freed) only while a key or result is stored,
    // never while a view of it is handed out (`replay`'s views are read inside its call).
    @exclusivity(unchecked) private var arena: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var arenaCapacity = 4096
    @exclusivity(unchecked) private var used = 0
    /// Where the current record's key starts in the arena (it is written after the kept bytes).
    @exclusivity(unchecked) private var keyStart = 0
    @exclusivity(unchecked) private var keyHash = 0
    /// The pending key's length, and the bytes of the pending record's results written after it.
    @exclusivity(unchecked) private var pendingKeyCount = 0
    @exclusivity(unchecked) private var pendingBytes = 0
    // SAFETY: as `arena` (the reader's thread only, no re-entry).
    /// Per entry: its key's start and length, its hash, and where its columns start in `kept`.
    @exclusivity(unchecked) private var entries: [(key: Int, count: Int, hash: Int, kept: Int)] = []
    @exclusivity(unchecked) private var kept: [Kept] = []
    /// Open addressing: entry index + 1, 0 for an empty bucket; twice ``capacity`` buckets.
    @exclusivity(unchecked) private var buckets: [Int32]
    @exclusivity(unchecked) private var pending: [Kept] = []
    // SAFETY: as `arena`.
    @exclusivity(unchecked) private var keyed = false
    @exclusivity(unchecked) private var isFull = false
    @exclusivity(unchecked) private var lookUps = 0
    @exclusivity(unchecked) private var found = 0
    /// False once arguments proved not to repeat; the stage then always evaluates.
    @exclusivity(unchecked) private(set) var isOn = true

    init(columns: Int) {
        self.columns = columns
        // SAFETY: freed in `deinit`, or when `reserve` replaces it.
        arena = UnsafeMutablePointer<UInt8>.allocate(capacity: arenaCapacity)
        buckets = Array(repeating: 0, count: 2 * Self.capacity)
        pending.reserveCapacity(columns)
    }

    deinit { arena.deallocate() }

    /// Room for `count` more bytes after `used`; false past ``byteLimit``.
    private func reserve(_ count: Int) -> Bool {
        guard used + count > arenaCapacity else { return true }
        guard used + count <= Self.byteLimit else { return false }
        let grown = min(Self.byteLimit, max(arenaCapacity * 2, used + count))
        // SAFETY: the kept bytes are copied, then the old arena freed; no view of it is out (see `arena`).
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: arena, count: used)
        arena.deallocate()
        (arena, arenaCapacity) = (larger, grown)
        return true
    }

    @inline(__always)
    private func put<T>(_ value: T) {
        // SAFETY: `reserve` made room for the value's bytes at `used`.
        withUnsafeBytes(of: value) { (arena + used).update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: $0.count) }
        used += MemoryLayout<T>.size
    }

    /// Starts a record's look-up: `argument(i)` is the view of its `i`th argument. The index of its kept
    /// results when these arguments were seen; nil when not (the caller evaluates, passing each column to
    /// ``note(_:_:)``, then calls ``commit()``) or when they cannot be kept (a blob argument, no room).
    func find(arguments count: Int, _ argument: (Int) -> FieldView) -> Int? {
        keyed = false
        pendingBytes = 0
        guard isOn else { return nil }
        pending.removeAll(keepingCapacity: true)
        let start = used
        defer { used = start }  // the key is scratch until `commit` keeps it
        for position in 0..<count {
            switch argument(position) {
            case .null:
                guard reserve(1) else { return nil }
                put(UInt8(0))
            case .integer(let number):
                guard reserve(9) else { return nil }
                put(UInt8(1)); put(number)
            case .real(let number):
                guard reserve(9) else { return nil }
                put(UInt8(2)); put(number.bitPattern)
            case .text(let text):
                guard reserve(9 + text.count) else { return nil }
                put(UInt8(3)); put(text.count)
                if let base = text.baseAddress { (arena + used).update(from: base, count: text.count) }
                used += text.count
            case .other: return nil
            }
        }
        // SAFETY: the key just written, inside the arena, read during this call.
        let key = UnsafeRawBufferPointer(start: arena + start, count: used - start)
        let hash = Self.hash(key)
        if isFull {
            lookUps += 1
            if lookUps == Self.window {
                if found * 2 < lookUps {
                    turnOff()
                    return nil
                }
                (lookUps, found) = (0, 0)
            }
        }
        // A full memo keeps nothing more: the record's results are then not copied for it.
        (keyStart, keyHash, keyed) = (start, hash, !isFull)
        let mask = buckets.count - 1
        var bucket = hash & mask
        for _ in 0..<Self.probes {
            let slot = Int(buckets[bucket])
            if slot == 0 {
                pendingKeyCount = key.count
                return nil
            }
            let entry = entries[slot - 1]
            // SAFETY: both ranges lie inside the arena (a kept key, and the key just written after `used`).
            if entry.hash == hash, entry.count == key.count, memcmp(arena + entry.key, key.baseAddress!, key.count) == 0 {
                found += 1
                keyed = false
                return entry.kept
            }
            bucket = (bucket + 1) & mask
        }
        keyed = false  // a crowded run of buckets: this key is not kept
        return nil
    }

    /// How many buckets a look-up or an insertion tries before it gives up (so no input makes a look-up
    /// slow, whatever its keys hash to).
    static let probes = 16

    /// A process-wide random seed for ``hash(_:)``.
    private static let seed = UInt64.random(in: 1...UInt64.max)

    /// A seeded multiply–xor-shift hash of `bytes`, eight bytes at a time (far cheaper than SipHash for
    /// keys of a few dozen bytes; ``probes`` bounds what a poor spread can cost).
    // SAFETY: reads `bytes` during the call only, unaligned loads inside its count.
    @inline(__always)
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var h = seed ^ UInt64(bytes.count)
        var offset = 0
        while offset + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < bytes.count {
            tail = tail << 8 | UInt64(bytes[offset])
            offset += 1
        }
        h = (h ^ tail) &* 0xBF58_476D_1CE4_E5B9
        h ^= h >> 31
        return Int(truncatingIfNeeded: h)
    }

    /// Column `column` of the record being evaluated (after a ``find(arguments:_:)`` that found nothing).
    func note(_ column: Int, _ view: SQLiteStatement.ColumnView) {
        guard keyed, pending.count == column else { return }
        switch view {
        case .null: pending.append(.null)
        case .integer(let number): pending.append(.integer(number))
        case .real(let number): pending.append(.real(number))
        // SAFETY: the statement's column, copied at once (after the key) inside the caller's read of the row.
        case .text(let text): pending.append(copy(UnsafeRawBufferPointer(text)).map { .text(start: $0, count: text.count) } ?? .null)
        case .blob(let blob): pending.append(copy(blob).map { .blob(start: $0, count: blob.count) } ?? .null)
        }
    }

    /// `bytes` copied after the pending key and the record's earlier columns; nil when there is no room
    /// (the record is then not kept).
    // SAFETY: `bytes` is read during the call; the arena has room for it (`reserve`).
    private func copy(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let start = keyStart + pendingKeyCount + pendingBytes
        guard start + bytes.count <= Self.byteLimit else {
            keyed = false
            return nil
        }
        let saved = used
        used = start
        defer { used = saved }
        guard reserve(bytes.count) else {
            keyed = false
            return nil
        }
        // SAFETY: `bytes` is read during the call; `reserve` made room at `start`.
        if let base = bytes.baseAddress, !bytes.isEmpty {
            (arena + start).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        pendingBytes += bytes.count
        return start
    }


    /// Keeps the evaluated record's results under its arguments (the key and result bytes written after
    /// the arena's kept ones), while there is room.
    func commit() {
        defer { pendingBytes = 0 }
        guard keyed, pending.count == columns else { return }
        keyed = false
        used = keyStart + pendingKeyCount + pendingBytes
        entries.append((keyStart, pendingKeyCount, keyHash, kept.count))
        kept += pending
        let mask = buckets.count - 1
        var bucket = keyHash & mask
        // `find` saw an empty bucket within `probes` of the home one: the first empty one is it.
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Int32(entries.count)
        if entries.count == Self.capacity || used >= Self.byteLimit - 4096 { isFull = true }
    }

    /// Replays the results kept at `start`, column by column, as the statement would give them.
    func replay(_ start: Int, _ take: (Int, SQLiteStatement.ColumnView) -> Void) {
        for column in 0..<columns {
            switch kept[start + column] {
            case .null: take(column, .null)
            case .integer(let number): take(column, .integer(number))
            case .real(let number): take(column, .real(number))
            // SAFETY: views of the arena, read inside `take` (which copies what it keeps); nothing grows it meanwhile.
            case .text(let at, let count): take(column, .text(UnsafeBufferPointer(start: arena + at, count: count)))
            case .blob(let at, let count): take(column, .blob(UnsafeRawBufferPointer(start: arena + at, count: count)))
            }
        }
    }

    private func turnOff() {
        (isOn, keyed) = (false, false)
        entries = []
        kept = []
        buckets = []
    }
}
