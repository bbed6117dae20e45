import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 24, item 12: a view or query of a legacy SQLite source that never ends (an endless
/// `WITH RECURSIVE`) wrote 380 MB in 20 s, until the disk was full. It now fails in bounded time,
/// naming the source and the limit, and leaves no output.
@Suite struct SourceLimitTests {
    /// A source database whose view `endless` counts up forever and whose view `stuck` never gives a row.
    static func scratch(source: String) throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("I", "<entity name=\"Item\"><attribute name=\"name\" attributeType=\"String\"/></entity>")
        try scratch.write("spec.json", """
            { "model": "I.xcdatamodeld", "output": "I.sqlite", "sources": { "legacy": \(source) },
              "entities": { "Item": { "from": "legacy", "key": "name" } } }
            """)
        let database = try SQLiteDatabase(path: scratch.path("legacy.db"), mode: .readWriteCreate)
        try database.execute("""
            CREATE VIEW endless AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT 'item ' || i AS name FROM n;
            CREATE VIEW stuck AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT 'item ' || i AS name FROM n WHERE i < 0
            """)
        return scratch
    }

    static func leftovers(_ scratch: Scratch) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.path("")).filter { $0.hasPrefix("I.sqlite") || $0.hasPrefix(".") }.sorted()
    }

    @Test func anEndlessViewStopsAtItsMaxRows() throws {
        let scratch = try Self.scratch(source: "{ \"sqlite\": \"legacy.db\", \"table\": \"endless\", \"maxRows\": 5000 }")
        let build = try scratch.run(["build", "spec.json", "--quiet"], within: 120)
        #expect(build.status == 1, "\(build.stderr)")
        #expect(build.stderr == """
            legacy.db:endless:5001: error: the view or query gave more than 5000 rows, its "maxRows" (an endless recursive query?)
            note: if the rows are meant, raise the limit with "maxRows": 50000 in this source of the spec

            """, "\(build.stderr)")
        #expect(try Self.leftovers(scratch) == [])
    }

    @Test func maxRowsMustBePositive() throws {
        let scratch = try Self.scratch(source: "{ \"sqlite\": \"legacy.db\", \"table\": \"endless\", \"maxRows\": 0 }")
        let build = try scratch.run(["build", "spec.json", "--quiet"], within: 60)
        #expect(build.status != 0)
        #expect(build.stderr.contains("\"maxRows\" must be a positive number of rows, not 0"), "\(build.stderr)")
    }
}
