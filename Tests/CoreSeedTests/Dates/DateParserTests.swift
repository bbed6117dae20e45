import Foundation
import Testing
@testable import CoreSeed

@Suite struct DateParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var patterns: [String]
        var zone = "UTC"
        var pivot = DateParser.defaultPivot
        var text: String
        /// Seconds since 2001-01-01T00:00:00Z, or nil when the text must not parse.
        var expected: Double?
        var testDescription: String { "\(text) ~ \(patterns) in \(zone)" }
    }

    static let cases: [Case] = [
        // The brief's anchors.
        Case(patterns: ["d-MMM-yy"], zone: "America/New_York", text: "26-Mar-10", expected: 291_268_800),
        Case(patterns: ["d-MMM-yy"], text: "26-Mar-10", expected: 291_254_400),
        Case(patterns: ["yyyy-MM-dd HH:mm:ss"], text: "2010-03-26 00:00:00", expected: 291_254_400),
        Case(patterns: ["d-MMM-yy"], text: "  26-Mar-10\t", expected: 291_254_400),
        Case(patterns: ["d-MMM-yy"], text: "26-MAR-10", expected: 291_254_400),
        Case(patterns: ["MMMM d, yyyy"], text: "March 26, 2010", expected: 291_254_400),
        Case(patterns: ["MMMM d, yyyy"], text: "march 26, 2010", expected: 291_254_400),
        Case(patterns: ["M/d/yyyy"], text: "3/26/2010", expected: 291_254_400),
        Case(patterns: ["MM/dd/yyyy"], text: "3/26/2010", expected: nil),
        Case(patterns: ["d-MMM-yy", "MMMM d, yyyy"], text: "March 26, 2010", expected: 291_254_400),
        Case(patterns: ["yyyy-MM-dd'T'HH:mm:ssZZZZZ"], text: "2010-03-26T04:00:00-04:00", expected: 291_283_200),
        Case(patterns: ["yyyy-MM-dd'T'HH:mm:ssZZZZZ"], text: "2010-03-26T00:00:00Z", expected: 291_254_400),
        Case(patterns: ["yyyy-MM-dd HH:mm:ss Z"], text: "2010-03-26 04:00:00 -0400", expected: 291_283_200),
        Case(patterns: ["yyyyMMdd"], text: "20100326", expected: 291_254_400),
        Case(patterns: ["MM/dd/yyyy hh:mm a"], text: "03/26/2010 02:15 PM", expected: 291_305_700),
        Case(patterns: ["MM/dd/yyyy hh:mm a"], text: "03/26/2010 12:00 am", expected: 291_254_400),
        Case(patterns: ["MM/dd/yyyy hh:mm a"], text: "03/26/2010 13:00 PM", expected: nil),
        Case(patterns: ["yyyy-MM-dd HH:mm:ss.SSS"], text: "2010-03-26 00:00:00.250", expected: 291_254_400.25),
        Case(patterns: ["EEE, d MMM yyyy HH:mm:ss Z"], text: "Fri, 26 Mar 2010 00:00:00 +0000", expected: 291_254_400),
        Case(patterns: ["EEEE, d MMM yyyy"], text: "Friday, 26 Mar 2010", expected: 291_254_400),
        Case(patterns: ["EEE, d MMM yyyy HH:mm:ss Z"], text: "Thu, 26 Mar 2010 00:00:00 +0000", expected: nil),
        Case(patterns: ["yyyy-MM-dd'T'HH:mm"], text: "2010-03-26T00:00", expected: 291_254_400),
        Case(patterns: ["yyyy-MM-dd''HH"], text: "2010-03-26'00", expected: 291_254_400),
        // Impossible dates and leap days.
        Case(patterns: ["d-MMM-yy"], text: "31-Feb-10", expected: nil),
        Case(patterns: ["d-MMM-yyyy"], text: "29-Feb-2000", expected: -26_524_800),
        Case(patterns: ["d-MMM-yyyy"], text: "29-Feb-1900", expected: nil),
        Case(patterns: ["d-MMM-yyyy"], text: "29-Feb-2004", expected: 99_705_600),
        Case(patterns: ["yyyy-MM-dd"], text: "2010-13-01", expected: nil),
        Case(patterns: ["yyyy-MM-dd HH:mm"], text: "2010-03-26 25:00", expected: nil),
        Case(patterns: ["yyyy-MM-dd HH:mm"], text: "2010-03-26 23:60", expected: nil),
        Case(patterns: ["yyyy-MM-dd"], text: "2010-03-00", expected: nil),
        Case(patterns: ["yyyy-MM-dd"], text: "2010-03-26x", expected: nil),
        Case(patterns: ["yyyy-MM-dd"], text: "", expected: nil),
        // Before 2001 and far future.
        Case(patterns: [], text: "1999-12-31", expected: -31_708_800),
        Case(patterns: [], text: "1970-01-01T00:00:00Z", expected: -978_307_200),
        Case(patterns: [], text: "1900-01-01", expected: -3_187_296_000),
        Case(patterns: [], text: "1601-01-01", expected: -12_622_780_800),
        Case(patterns: [], text: "9999-12-31T23:59:59Z", expected: 252_423_993_599),
        // DST in America/New_York: a summer day, the spring gap, the autumn overlap; Berlin's overlap.
        Case(patterns: ["yyyy-MM-dd HH:mm:ss"], zone: "America/New_York", text: "2010-07-01 12:00:00", expected: 299_692_800),
        Case(patterns: ["yyyy-MM-dd HH:mm:ss"], zone: "America/New_York", text: "2010-03-14 02:30:00", expected: 290_244_600),
        Case(patterns: ["yyyy-MM-dd HH:mm:ss"], zone: "America/New_York", text: "2010-11-07 01:30:00", expected: 310_800_600),
        Case(patterns: ["yyyy-MM-dd HH:mm:ss"], zone: "Europe/Berlin", text: "2010-10-31 02:30:00", expected: 310_177_800),
        Case(patterns: ["yyyy-MM-dd HH:mm:ss"], zone: "America/New_York", text: "2010-03-26 00:00:00", expected: 291_268_800),
        // Two-digit years: default window 1950…2049, and a pivot of 1970.
        Case(patterns: ["d-MMM-yy"], text: "1-Jan-49", expected: 1_514_764_800),
        Case(patterns: ["d-MMM-yy"], text: "1-Jan-50", expected: -1_609_459_200),
        Case(patterns: ["d-MMM-yy"], pivot: 1970, text: "1-Jan-69", expected: 2_145_916_800),
        Case(patterns: ["d-MMM-yy"], pivot: 1970, text: "1-Jan-70", expected: -978_307_200),
        Case(patterns: ["d-MMM-y"], text: "1-Jan-49", expected: 1_514_764_800),
        Case(patterns: ["d-MMM-y"], text: "1-Jan-1949", expected: -1_640_995_200),
        Case(patterns: ["d-MMM-yy"], text: "1-Jan-2010", expected: nil),
        // ISO 8601 is always tried last: offsets, fractions, no zone → the field's zone.
        Case(patterns: ["d-MMM-yy"], text: "2010-03-26T04:00:00Z", expected: 291_268_800),
        Case(patterns: [], text: "2010-03-26T00:00:00-04:00", expected: 291_268_800),
        Case(patterns: [], text: "2010-03-26T09:30:00+05:30", expected: 291_268_800),
        Case(patterns: [], text: "2010-03-26T04:00:00+0000", expected: 291_268_800),
        Case(patterns: [], text: "2010-03-26T00:00:00.250Z", expected: 291_254_400.25),
        Case(patterns: [], zone: "America/New_York", text: "2010-03-26T00:00:00", expected: 291_268_800),
        Case(patterns: [], zone: "America/New_York", text: "2010-03-26", expected: 291_268_800),
        Case(patterns: [], text: "2010-03-26 00:00", expected: 291_254_400),
        Case(patterns: [], text: "2010-3-26", expected: nil),
        // Unix seconds and milliseconds only when configured; reference seconds as is.
        Case(patterns: ["unix"], text: "1269561600", expected: 291_254_400),
        Case(patterns: ["unix"], text: "-1", expected: -978_307_201),
        Case(patterns: ["unixMilliseconds"], text: "1269561600500", expected: 291_254_400.5),
        // The number grammar (Values/NumberScanner): a sign, digits, an optional point with digits.
        Case(patterns: ["reference"], text: "+10.5", expected: 10.5),
        Case(patterns: ["reference"], text: "-10.25", expected: -10.25),
        Case(patterns: ["reference"], text: "10.", expected: nil),
        Case(patterns: ["reference"], text: ".5", expected: nil),
        Case(patterns: ["reference"], text: "1e3", expected: nil),
        Case(patterns: ["reference"], text: "99999999999999999999", expected: nil),
        Case(patterns: [], text: "1269561600", expected: nil),
        Case(patterns: ["reference"], text: "291254400", expected: 291_254_400),
    ]

    @Test(arguments: cases)
    func parses(_ example: Case) throws {
        let parser = try DateParser(example.patterns.map(DateInput.init(name:)), timeZone: example.zone, pivot: example.pivot)
        #expect(parser.secondsSinceReference(parsing: example.text) == example.expected)
    }

    static let numbers: [(input: String, value: FieldValue, expected: Double)] = [
        ("unix", .integer(1_269_561_600), 291_254_400),
        ("unix", .real(1_269_561_600.25), 291_254_400.25),
        ("unixMilliseconds", .integer(1_269_561_600_000), 291_254_400),
        ("unixMilliseconds", .integer(-1000), -978_307_201),
        ("reference", .integer(-86_400), -86_400),
        ("reference", .real(291_254_400.5), 291_254_400.5),
    ]

    @Test(arguments: numbers)
    func takesNumbersOnlyWhenConfigured(_ example: (input: String, value: FieldValue, expected: Double)) throws {
        let parser = try DateParser([.pattern("d-MMM-yy"), DateInput(name: example.input)])
        #expect(try parser.secondsSinceReference(example.value) == example.expected)
        let patternsOnly = try DateParser([.pattern("d-MMM-yy")])
        let failure = #expect(throws: CoercionFailure.self) { try patternsOnly.secondsSinceReference(example.value) }
        #expect(failure?.message.hasSuffix(" is not a date matching \"d-MMM-yy\"") == true)
    }

    @Test func everyMonthNameFullAndShortInAnyCase() throws {
        let parser = try DateParser([.pattern("d MMMM yyyy")])
        let iso = try DateParser()
        let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                     "October", "November", "December"]
        for (index, name) in names.enumerated() {
            let expected = try #require(iso.secondsSinceReference(parsing: "2010-\(index < 9 ? "0" : "")\(index + 1)-15"))
            for spelling in [name, String(name.prefix(3)), name.uppercased(), name.lowercased()] {
                #expect(parser.secondsSinceReference(parsing: "15 \(spelling) 2010") == expected, "\(spelling)")
            }
        }
        #expect(parser.secondsSinceReference(parsing: "15 Sept 2010") == iso.secondsSinceReference(parsing: "2010-09-15"))
        #expect(parser.secondsSinceReference(parsing: "15 Mai 2010") == nil)
    }

    /// Seeded random dates from year 1 to 9999: formatting by hand (Julian before 1582-10-15) and parsing
    /// back gives the same instant.
    @Test func randomRoundTripsAgainstCivilArithmetic() throws {
        var generator = SplitMix64(seed: 20_100_326)
        let parser = try DateParser([.pattern("yyyy-MM-dd HH:mm:ss")])
        for _ in 0..<2000 {
            let seconds = Int64.random(in: -63_113_904_000...252_423_993_599, using: &generator)
            let text = SplitMix64.format(seconds)
            #expect(parser.secondsSinceReference(parsing: text) == Double(seconds), "\(text)")
        }
    }

    /// The zone's per-day offset cache (one slot per day modulo 2¹⁶) gives what Foundation's calendar
    /// gives, on the first look-up of a day and on the cached one, across more than 179 years (days
    /// that share a slot) and both DST rules of New York.
    @Test func cachedDayOffsetsAgreeWithFoundation() throws {
        let parser = try DateParser([.pattern("yyyy-MM-dd HH:mm:ss")], timeZone: "America/New_York")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "America/New_York"))
        var generator = SplitMix64(seed: 2_001)
        for _ in 0..<3000 {
            let year = Int.random(in: 1890...2150, using: &generator)
            let month = Int.random(in: 1...12, using: &generator), day = Int.random(in: 1...28, using: &generator)
            let hour = Int.random(in: 4...23, using: &generator)  // clear of the 01:00–03:00 transition hours
            let text = String(format: "%04d-%02d-%02d %02d:17:05", year, month, day, hour)
            let date = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: 17, second: 5)))
            let expected = date.timeIntervalSinceReferenceDate
            #expect(parser.secondsSinceReference(parsing: text) == expected, "\(text) first")
            #expect(parser.secondsSinceReference(parsing: text) == expected, "\(text) cached")
        }
    }

    static let setupErrors: [(inputs: [String], zone: String, pivot: Int, message: String)] = [
        (["yyyy-QQ"], "UTC", 1950, "date pattern \"yyyy-QQ\" uses the letter 'Q', which CoreSeed does not parse (quote literal text: 'T')"),
        (["HH:mm"], "UTC", 1950, "date pattern \"HH:mm\" has no year (y, yy or yyyy)"),
        (["yyyy-MM-dd'T"], "UTC", 1950, "date pattern \"yyyy-MM-dd'T\" has an unclosed quote"),
        (["d-MMMMM-yy"], "UTC", 1950, "date pattern \"d-MMMMM-yy\" uses narrow month names (MMMMM), which cannot be parsed"),
        (["d-MMM-yy"], "Mars/Olympus", 1950, "unknown time zone \"Mars/Olympus\": use an IANA name such as America/New_York, or UTC"),
        (["d-MMM-yy"], "UTC", 70, "two-digit-year pivot 70 is not a four-digit year such as 1950 (00…49 → 2000…2049, 50…99 → 1950…1999)"),
    ]

    @Test(arguments: setupErrors)
    func refusesBadConfiguration(_ example: (inputs: [String], zone: String, pivot: Int, message: String)) {
        #expect(throws: FileError(message: example.message)) {
            try DateParser(example.inputs.map(DateInput.init(name:)), timeZone: example.zone, pivot: example.pivot)
        }
    }
}

/// A small seeded generator so random tests repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `yyyy-MM-dd HH:mm:ss` (UTC) for seconds since 2001, by Hinnant's `civil_from_days` (the
    /// exporter's, which shares no code with the parser's `days_from_civil`).
    static func format(_ secondsSince2001: Int64) -> String {
        let unix = secondsSince2001 + 978_307_200
        var days = unix / 86_400
        var rest = unix % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (year, month, day) = CivilTime.foundationCivil(fromDays: days) ?? ExportValue.civil(fromDays: days)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(two(month))-\(two(day)) \(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))"
    }
}
