import Foundation
import Synchronization

/// The time zone a date field's local (zone-less) times are read in, turning a civil time into UTC.
///
/// DST rule. The offset is looked up at both ends of the 30-hour window that must hold the instant
/// (local time ± 15 hours). Same offset at both ends — every day but two a year — means no
/// transition is near and that offset is the answer (two `secondsFromGMT(for:)` calls). Otherwise
/// each of the two offsets is tried and kept if it holds at the instant it gives:
/// - **overlap** (the clock falls back and the local time happens twice): the *earlier* instant,
///   i.e. the first occurrence, still in daylight time — 2010-11-07 01:30 in America/New_York is
///   05:30Z;
/// - **gap** (the clock springs forward and the local time never happens): read with the offset in
///   force *before* the transition, which moves it forward by the gap's length — 2010-03-14 02:30
///   in America/New_York is 07:30Z, i.e. 03:30 EDT — as ICU, Java and Foundation's lenient
///   formatters do.
struct DateZone: Sendable {
    private enum Kind: Sendable {
        case fixed(Int64)
        case zone(TimeZone)
    }

    private let kind: Kind
    let identifier: String
    /// Local day → offset, for days with no transition within 15 hours of either end (ICU lookups
    /// cost about a microsecond each; a day's offset is looked up once).
    private let days = DayOffsets()

    /// The cache of offsets by local day: one slot per day modulo 2¹⁶ (179 years without a collision),
    /// each an atomic word, so the converter can be shared between the build's threads with no lock
    /// on the path every date takes. A slot holds `day << 20 | (offset + 2¹⁹)`; 0 is empty (that
    /// would be an offset of −2¹⁹ s, which no zone has). `@unchecked Sendable`: only atomics are touched.
    /// SAFETY: every access is an atomic load or store of a slot; `slots` is allocated in init, freed in deinit, never reassigned.
    final class DayOffsets: @unchecked Sendable {
        private static let count = 1 << 16
        private static let bias: Int64 = 1 << 19
        // SAFETY: `Atomic` is ~Copyable, so no array holds it: plain memory owned by this object for its life.
        private let slots: UnsafeMutablePointer<Atomic<UInt64>>

        init() {
            slots = .allocate(capacity: Self.count)
            for index in 0..<Self.count { (slots + index).initialize(to: Atomic(0)) }
        }

        deinit {
            slots.deinitialize(count: Self.count)
            slots.deallocate()
        }

        @inline(__always)
        func offset(day: Int64) -> Int64? {
            let entry = slots[Int(day & Int64(Self.count - 1))].load(ordering: .relaxed)
            guard entry != 0, Int64(bitPattern: entry) >> 20 == day else { return nil }
            return Int64(entry & 0xF_FFFF) - Self.bias
        }

        func store(_ offset: Int64, day: Int64) {
            // Offsets are within ±18 hours; days within ±2⁴³ fit the slot's upper bits.
            guard abs(offset) < Self.bias, abs(day) < 1 << 43 else { return }
            let entry = UInt64(bitPattern: day << 20) | UInt64(offset + Self.bias)
            slots[Int(day & Int64(Self.count - 1))].store(entry, ordering: .relaxed)
        }
    }

    /// `UTC` and `GMT` need no lookup at all; any other name must be one that `TimeZone` knows.
    init(identifier: String) throws(FileError) {
        self.identifier = identifier
        if identifier == "UTC" || identifier == "GMT" || identifier == "Etc/UTC" || identifier == "Z" {
            kind = .fixed(0)
            return
        }
        guard let zone = TimeZone(identifier: identifier) else {
            let guess = Suggestion.closest(to: identifier, in: TimeZone.knownTimeZoneIdentifiers).map { " (did you mean '\($0)'?)" }
            throw FileError(message: "unknown time zone \"\(identifier)\"\(guess ?? ""): use an IANA name such as America/New_York, or UTC")
        }
        kind = .zone(zone)
    }

    /// Seconds since 1970 (UTC) of `local`, which counts seconds since 1970-01-01T00:00:00 on the zone's wall clock.
    func utcSeconds(fromLocal local: Int64) -> Int64 {
        switch kind {
        case .fixed(let offset):
            return local - offset
        case .zone(let zone):
            let window: Int64 = 15 * 3600
            // The same offset from 15 hours before the local day to 15 hours after it: no transition can
            // affect any time of that day, so the day's offset serves every time in it.
            let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
            if let cached = days.offset(day: day) { return local - cached }
            let dayStart = day * 86_400
            let early = offset(zone, at: dayStart - window), late = offset(zone, at: dayStart + 86_400 + window)
            if early == late {
                days.store(early, day: day)
                return local - early
            }
            let before = offset(zone, at: local - window)
            let after = offset(zone, at: local + window)
            if before == after { return local - before }
            let first = local - before  // the earlier instant when both hold (before > after in an overlap)
            let second = local - after
            let firstHolds = offset(zone, at: first) == before
            let secondHolds = offset(zone, at: second) == after
            switch (firstHolds, secondHolds) {
            case (true, true): return min(first, second)
            case (true, false): return first
            case (false, true): return second
            case (false, false): return first  // in the gap: the offset before the transition
            }
        }
    }

    private func offset(_ zone: TimeZone, at seconds: Int64) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds))))
    }
}
