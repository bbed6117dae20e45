import Foundation
import Testing
import CoreSeedTestSupport

/// `assertGolden` and its record mode: a match passes, a difference or a missing file fails naming
/// the file and the first different line, and recording rewrites the file and fails all the same.
@Suite struct GoldenFileTests {
    @Test func matchingTextPasses() throws {
        let scratch = try Scratch()
        try scratch.write("Golden/a.txt", "one\ntwo\n")
        let testFile = scratch.path("SomeTests.swift")
        #expect(GoldenFile.check("one\ntwo\n", against: GoldenFile.url("a.txt", besideTestFile: testFile), recording: false) == nil)
        assertGolden("one\ntwo\n", file: "a.txt", recording: false, filePath: testFile)
    }

    @Test func aDifferenceNamesTheFileAndItsFirstLine() throws {
        let scratch = try Scratch()
        try scratch.write("Golden/a.txt", "one\ntwo\n")
        let url = GoldenFile.url("a.txt", besideTestFile: scratch.path("SomeTests.swift"))
        let failure = try #require(GoldenFile.check("one\nthree\n", against: url, recording: false))
        #expect(failure == "the text differs from the golden file \(url.path) at line 2: expected \"two\", got \"three\"; "
                + "if the change is meant, run with CORESEED_RECORD_GOLDEN=1 and review the diff")
        let shorter = try #require(GoldenFile.check("one\ntwo", against: url, recording: false))
        #expect(shorter.contains(" at line 3: expected \"\", got <end of text>;"))
        withKnownIssue { assertGolden("one\n", file: "a.txt", recording: false, filePath: scratch.path("SomeTests.swift")) }
    }

    @Test func aMissingGoldenFileFails() throws {
        let scratch = try Scratch()
        let url = GoldenFile.url("none.txt", besideTestFile: scratch.path("SomeTests.swift"))
        #expect(GoldenFile.check("text", against: url, recording: false)
                == "no golden file \(url.path): run with CORESEED_RECORD_GOLDEN=1 to record it, then review it")
        withKnownIssue { assertGolden("text", file: "none.txt", recording: false, filePath: scratch.path("SomeTests.swift")) }
    }

    /// A recording run never passes silently: the file is written, and the test fails saying so.
    @Test func recordingRewritesTheFileAndFails() throws {
        let scratch = try Scratch()
        try scratch.write("Golden/a.txt", "old\n")
        let url = GoldenFile.url("a.txt", besideTestFile: scratch.path("SomeTests.swift"))
        let failure = try #require(GoldenFile.check("new\n", against: url, recording: true))
        #expect(failure.hasPrefix("recorded the golden file \(url.path) (CORESEED_RECORD_GOLDEN=1); a recording run fails"))
        #expect(try String(contentsOf: url, encoding: .utf8) == "new\n")
        // Even when the text was already the same, and through assertGolden.
        withKnownIssue { assertGolden("new\n", file: "a.txt", recording: true, filePath: scratch.path("SomeTests.swift")) }
        withKnownIssue { assertGolden("fresh\n", file: "b.txt", recording: true, filePath: scratch.path("SomeTests.swift")) }
        #expect(try String(contentsOf: scratch.url.appendingPathComponent("Golden/b.txt"), encoding: .utf8) == "fresh\n")
    }
}
