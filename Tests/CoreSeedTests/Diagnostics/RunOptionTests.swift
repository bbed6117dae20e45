import Foundation
import Testing
@testable import CoreSeed

/// Issue 25: the library's messages name the options they suggest; the front end spells them. The
/// library's own words (no spelling installed: this test process) name what a program sets; the
/// command line's flags are checked by its tests, whose messages are unchanged.
@Suite struct RunOptionTests {
    @Test func theLibrarySpellsOptionsByName() {
        #expect("\(RunOption.noHistory)" == "the `noHistory` option")
        #expect("\(RunOption.upsert)" == "the `upsert` mode")
        #expect(Set(RunOption.allCases.map(\.name)).count == RunOption.allCases.count)
        // A message of the library, as a program calling it sees it (CompiledModelReaderTests too).
        let error = FileError(message: "pick one with \(RunOption.modelVersion)")
        #expect(error.message == "pick one with the `modelVersion` option")
    }
}
