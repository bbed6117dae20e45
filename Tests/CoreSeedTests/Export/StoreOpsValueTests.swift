import Foundation
import Testing
@testable import CoreSeed

/// Export value formats and file header parsing.
struct StoreOpsValueTests {
    @Test(arguments: [
        (291_268_800.0, "2010-03-26T04:00:00Z"),
        (0.0, "2001-01-01T00:00:00Z"),
        (0.5, "2001-01-01T00:00:00.5Z"),
        (-0.25, "2000-12-31T23:59:59.75Z"),
        (-978_307_200.0, "1970-01-01T00:00:00Z"),
        (-31_622_400.0, "2000-01-01T00:00:00Z"),
    ])
    func datesAreISO8601UTC(seconds: Double, text: String) {
        #expect(ExportValue.iso8601(secondsSinceReference: seconds) == text)
    }

    /// Seeded random dates with fractions read back to the same Double through the build's ISO 8601 reader.
    /// Dates between 1969 and 2033 (|seconds| up to 1e9): the reader takes at most 9 fraction digits, which
    /// pins down a Double only where its spacing exceeds 1e-9 s (|seconds| above about 1.7e7, i.e. outside 2000–2001).
    @Test func fractionalDatesRoundTripThroughTheDateParser() throws {
        let parser = try DateParser([.iso8601], timeZone: "UTC", pivot: DateParser.defaultPivot)
        var generator = SplitMix64(seed: 20_240_101)
        for _ in 0..<2000 {
            let seconds = Double(Int64(bitPattern: generator.next()) % 980_000_000 + (generator.next() % 2 == 0 ? 20_000_000 : -20_000_000)) + Double(generator.next() % 1_000_000_000) / 1e9
            let text = ExportValue.iso8601(secondsSinceReference: seconds)
            #expect(parser.secondsSinceReference(parsing: text) == seconds, "\(seconds) → \(text)")
        }
    }

    @Test func csvFieldsAreQuotedOnlyWhenNeeded() {
        #expect(ExportValue.csvField("plain text") == "plain text")
        #expect(ExportValue.csvField("a,b") == "\"a,b\"")
        #expect(ExportValue.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(ExportValue.csvField("two\nlines") == "\"two\nlines\"")
        #expect(ExportValue.csvField("cr\r") == "\"cr\r\"")
    }

    @Test func uuidsAreCanonicalUppercase() {
        let bytes: [UInt8] = [0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F]
        #expect(ExportValue.uuid(bytes) == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(ExportValue.uuid([1, 2]) == nil)
    }

    @Test func headerGivesJournalModePageSizeAndAutoVacuum() {
        var bytes = Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 84)
        bytes[16] = 0x10; bytes[17] = 0x00
        bytes[18] = 2; bytes[19] = 2
        bytes[55] = 3; bytes[67] = 1
        let header = StoreFileHeader(bytes: bytes)
        #expect(header?.journalMode == .wal)
        #expect(header?.pageSize == 4096)
        #expect(header?.autoVacuum == .incremental)
        bytes[18] = 1; bytes[19] = 1; bytes[55] = 0; bytes[16] = 0; bytes[17] = 1
        #expect(StoreFileHeader(bytes: bytes)?.journalMode == .rollback)
        #expect(StoreFileHeader(bytes: bytes)?.autoVacuum == StoreFileHeader.AutoVacuum.none)
        #expect(StoreFileHeader(bytes: bytes)?.pageSize == 65536)
        #expect(StoreFileHeader(bytes: Array("not a database".utf8)) == nil)
    }
}
