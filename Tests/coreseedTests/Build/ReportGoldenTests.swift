import Foundation
import Testing
import CoreSeedTestSupport

/// `build --report` exactly as written, in golden files: the report of `make seed`'s carrier build
/// (rows per entity, join tables, duplicates left out) and of MaxErrorsTests' recipes (rejected
/// values with their locations, and the records left out with them). Each build runs in a scratch
/// folder with relative paths, so the paths in the report (`"output"`, locations) are the same every
/// run; one field changes from run to run and is replaced before the comparison: `"seconds"`, the
/// build's time.
@Suite struct ReportGoldenTests {
    /// The report with its `"seconds"` value replaced by a placeholder (and checked to be a number).
    static func normalized(_ report: String) -> String {
        report.replacingOccurrences(of: #""seconds": [0-9]+(\.[0-9]+)?, "#, with: #""seconds": <seconds>, "#, options: .regularExpression)
    }

    @Test func carriers() throws {
        let scratch = try Scratch()
        let spec = TestPaths.inputs.appendingPathComponent("seed.json").path
        let result = try scratch.run(["build", spec, "--output", "Carriers.sqlite", "--report", "report.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
        assertGolden(Self.normalized(report), file: "report-carriers.json")
    }

    @Test func rejectedValues() throws {
        let scratch = try MaxErrorsTests.prepare()
        let result = try scratch.run(["build", "spec.json", "--max-errors", "1", "--report", "report.json", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try String(contentsOfFile: scratch.path("report.json"), encoding: .utf8)
        assertGolden(Self.normalized(report), file: "report-rejected.json")
    }
}
