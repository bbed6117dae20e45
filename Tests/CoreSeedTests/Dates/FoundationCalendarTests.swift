import Foundation
import Testing
@testable import CoreSeed

/// Dates are read in Foundation's calendar, the one an app shows them with and parses them with:
/// checked against `ISO8601DateFormatter`, `DateFormatter` and `Calendar(identifier: .gregorian)` on
/// the platform the tests run on. On Linux (swift-corelibs-foundation over swift-foundation) all
/// three are Julian before 1582-10-15; they give 1582-10-05 … 1582-10-14 a date by counting on from
/// 1582-10-04 (1582-10-10 is 1582-10-20), even a `DateFormatter` with `isLenient = false`.
@Suite struct FoundationCalendarTests {
    static let days = ["0001-01-01", "0004-02-29", "1000-01-01", "1000-02-29", "1500-01-01", "1500-02-29", "1582-02-28",
                       "1582-10-04", "1582-10-15", "1582-12-31", "1600-02-29", "1600-03-01", "1700-03-01", "1900-01-01", "2001-01-01"]

    static func utc() throws -> TimeZone { try #require(TimeZone(identifier: "UTC")) }

    static func formatter(_ format: String) throws -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = try utc()
        formatter.dateFormat = format
        return formatter
    }

    @Test(arguments: days)
    func agreesWithISO8601DateFormatter(_ text: String) throws {
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        iso.timeZone = try Self.utc()
        let expected = try #require(iso.date(from: text)).timeIntervalSinceReferenceDate
        #expect(try DateParser().secondsSinceReference(parsing: text) == expected)
        // With a time and an offset, ISO 8601 in full.
        let full = ISO8601DateFormatter()
        let stamp = text + "T13:45:30+02:00"
        let instant = try #require(full.date(from: stamp)).timeIntervalSinceReferenceDate
        #expect(try DateParser().secondsSinceReference(parsing: stamp) == instant)
        // `export` writes the day Foundation shows, and reads back to the same instant.
        #expect(ExportValue.iso8601(secondsSinceReference: expected) == text + "T00:00:00Z")
        #expect(full.string(from: Date(timeIntervalSinceReferenceDate: expected)) == text + "T00:00:00Z")
    }

    @Test(arguments: days)
    func agreesWithDateFormatterAndCalendar(_ text: String) throws {
        let formatter = try Self.formatter("d-MMM-yyyy")
        let date = try #require(try Self.formatter("yyyy-MM-dd").date(from: text))
        let written = formatter.string(from: date)  // 4-Oct-1582
        let parser = try DateParser([.pattern("d-MMM-yyyy")])
        #expect(parser.secondsSinceReference(parsing: written) == date.timeIntervalSinceReferenceDate, "\(written)")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try Self.utc()
        let parts = text.split(separator: "-").map { Int($0)! }
        let fromParts = try #require(calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 6)))
        #expect(try DateParser([.pattern("yyyy-MM-dd HH")]).secondsSinceReference(parsing: text + " 06") == fromParts.timeIntervalSinceReferenceDate)
    }

    /// Foundation's day before 1582-10-15 is 1582-10-04; the ten days between are refused, with the reason.
    @Test func theTenMissingDaysAreRefused() throws {
        let parser = try DateParser([.pattern("yyyy-MM-dd")])
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        iso.timeZone = try Self.utc()
        let before = try #require(parser.secondsSinceReference(parsing: "1582-10-04"))
        #expect(parser.secondsSinceReference(parsing: "1582-10-15") == before + 86_400)
        for day in 5...14 {
            let text = "1582-10-\(day < 10 ? "0" : "")\(day)"
            #expect(parser.secondsSinceReference(parsing: text) == nil, "\(text)")
            // Foundation's calendar has no such day either: what it makes of the text is another day.
            if let date = iso.date(from: text) { #expect(iso.string(from: date) != text) }
            let failure = #expect(throws: CoercionFailure.self) { try parser.secondsSinceReference(.text(text)) }
            #expect(failure?.message(field: "born").contains("1582-10-05 … 1582-10-14 are not days of Foundation's calendar") == true)
        }
        // Julian leap years: 1500 and 1000 have a 29 February, 1700 (Gregorian) has none.
        #expect(parser.secondsSinceReference(parsing: "1500-02-29") != nil)
        #expect(parser.secondsSinceReference(parsing: "1700-02-29") == nil)
        #expect(parser.secondsSinceReference(parsing: "1500-02-30") == nil)
    }

    /// Years before 1 (BC) are not read: ISO 8601 text has four digits and patterns refuse the era letter `G`.
    @Test func yearsBeforeOneAreNotRead() throws {
        #expect(try DateParser().secondsSinceReference(parsing: "-0044-03-15") == nil)
        #expect(throws: FileError.self) { try DateParser([.pattern("yyyy-MM-dd G")]) }
    }

    /// Seeded random days from year 1 to 1700, written by Foundation and read by CoreSeed.
    @Test func randomEarlyDaysAgreeWithFoundation() throws {
        let formatter = try Self.formatter("yyyy-MM-dd HH:mm:ss")
        let parser = try DateParser([.pattern("yyyy-MM-dd HH:mm:ss")])
        var generator = SplitMix64(seed: 1582)
        for _ in 0..<2000 {
            let seconds = Double(Int64.random(in: -63_113_904_000 ... -9_467_107_200, using: &generator))
            let text = formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
            #expect(parser.secondsSinceReference(parsing: text) == seconds, "\(text)")
            #expect(ExportValue.iso8601(secondsSinceReference: seconds).replacingOccurrences(of: "T", with: " ").dropLast() == text)
        }
    }
}
