import Foundation
import Testing
import CoreSeedTestSupport

/// `build`'s progress on stderr when it is not a terminal (a CI log): plain lines, at most one per
/// interval (`CORESEED_PROGRESS_INTERVAL`, 0 here: every report), each `progress: N s: PHASE…`.
@Suite(.serialized) struct ProgressTests {
    static let rows = 200_000

    /// A one-entity model and a CSV of `rows` books.
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Library", """
            <entity name="Book"><attribute name="isbn" attributeType="Integer 64"/><attribute name="title" optional="YES" attributeType="String"/></entity>
            """)
        var csv = "isbn,title\n"
        csv.reserveCapacity(rows * 20)
        for number in 1...rows { csv += "\(number),Title \(number)\n" }
        try scratch.write("books.csv", csv)
        try scratch.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite",
              "sources": { "books": { "csv": "books.csv" } }, "entities": { "Book": { "from": "books", "key": "isbn" } } }
            """)
        return scratch
    }

    /// The lines of `stderr` without their `progress: N s: ` prefix; every line must have it.
    static func phases(_ stderr: String) -> [String] {
        stderr.split(separator: "\n").map { line in
            let match = line.wholeMatch(of: /progress: \d+ s: ((?:reading|linking|writing|checking) .+)/)
            #expect(match != nil, "not a progress line: \(line)")
            return match.map { String($0.1) } ?? String(line)
        }
    }

    @Test func rowsReadAsTheyComeAreCounted() throws {
        let scratch = try Self.prepare()
        let result = try BinaryRunner.run(["build", "spec.json"], in: scratch.url, environment: ["CORESEED_PROGRESS_INTERVAL": "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("built Library.sqlite: 1 entities, 200000 rows in "))
        #expect(Self.phases(result.stderr) == [
            "writing rows",
            "writing rows: 65536",
            "writing rows: 131072",
            "writing rows: 196608",
            "checking the store (indexes, integrity, model)",
        ])
    }

    /// With a key pass (here because errors are tolerated), the row pass knows its total.
    @Test func aKeyPassGivesReadingLinkingAndAPercentage() throws {
        let scratch = try Self.prepare()
        let result = try BinaryRunner.run(["build", "spec.json", "--max-errors", "5"], in: scratch.url,
                                          environment: ["CORESEED_PROGRESS_INTERVAL": "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.phases(result.stderr) == [
            "reading keys",
            "reading books: 65536 records read",
            "reading books: 131072 records read",
            "reading books: 196608 records read",
            "linking relationships",
            "writing rows",
            "writing rows: 65536 of 200000 (32%)",
            "writing rows: 131072 of 200000 (65%)",
            "writing rows: 196608 of 200000 (98%)",
            "checking the store (indexes, integrity, model)",
        ])
    }

    /// Never a flood: with a 1 s interval, no two lines in the same second, and none in the first.
    @Test func anIntervalSpacesTheLines() throws {
        let scratch = try Self.prepare()
        let result = try BinaryRunner.run(["build", "spec.json", "--max-errors", "5"], in: scratch.url,
                                          environment: ["CORESEED_PROGRESS_INTERVAL": "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let seconds = result.stderr.split(separator: "\n").compactMap { line in
            line.wholeMatch(of: /progress: (\d+) s: .+/).map { Int($0.1)! }
        }
        #expect(seconds.count == result.stderr.split(separator: "\n").count)
        #expect(seconds.allSatisfy { $0 >= 1 })
        #expect(zip(seconds, seconds.dropFirst()).allSatisfy { $0 < $1 }, "\(seconds)")
    }

    /// On a terminal (util-linux `script` gives the run one), the line is rewritten in place and
    /// cleared before the summary.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func aTerminalGetsOneLineRewritten() throws {
        let scratch = try Self.prepare()
        let command = "'\(BinaryRunner.binary.path)' build spec.json"
        let result = try BinaryRunner.run(executable: URL(fileURLWithPath: "/usr/bin/script"), ["-qc", command, "/dev/null"], in: scratch.url)
        #expect(result.status == 0, "\(result.stdout)")
        let rewrite = "\r\u{1B}[K"
        #expect(result.stdout.hasPrefix(rewrite + "writing rows" + rewrite + "writing rows: 65536" + rewrite + "writing rows: 131072"),
                "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains(rewrite + "checking the store (indexes, integrity, model)" + rewrite + "built Library.sqlite: "))
        #expect(!result.stdout.contains("progress: "))
    }

    @Test func quietPrintsNothing() throws {
        let scratch = try Self.prepare()
        let result = try BinaryRunner.run(["build", "spec.json", "--quiet"], in: scratch.url,
                                          environment: ["CORESEED_PROGRESS_INTERVAL": "0"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == "")
    }

    /// A build shorter than the default interval (5 s) prints no progress line in a log.
    @Test func aShortBuildPrintsNoProgress() throws {
        let result = try BinaryRunner.run(["build", "Inputs/failedbanks-csv.json", "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
    }
}
