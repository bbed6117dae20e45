import Foundation

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

    /// `UTC` and `GMT` need no lookup at all; any other name must be one that `TimeZone` knows.
    init(identifier: String) throws(CoercionSetupError) {
        self.identifier = identifier
        if identifier == "UTC" || identifier == "GMT" || identifier == "Etc/UTC" || identifier == "Z" {
            kind = .fixed(0)
            return
        }
        guard let zone = TimeZone(identifier: identifier) else {
            throw CoercionSetupError("unknown time zone \"\(identifier)\"")
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
