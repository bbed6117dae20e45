import Testing
@testable import CoreSeed

@Suite struct DateParserTests {
    @Test func smoke() throws {
        let ny = try DateParser([.pattern("d-MMM-yy")], timeZone: "America/New_York")
        #expect(ny.secondsSinceReference(parsing: "26-Mar-10") == 291268800.0)
    }
}
