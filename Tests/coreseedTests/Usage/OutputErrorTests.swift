import Foundation
import Testing
import CoreSeedTestSupport

/// Write errors are errors: output that cannot be written (a full device, a closed pipe) ends the
/// command with one line on stderr naming where it could not write, and exit 74 — never a crash.
@Suite struct OutputErrorTests {
    static let full = "error: cannot write to standard output (/dev/full): No space left on device\n"

    /// Runs `arguments` with stdout on /dev/full (Linux, and most Unix systems, have it).
    static func runToFull(_ arguments: [String], in directory: URL? = nil) throws -> BinaryRunner.Result {
        let device = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? device.close() }
        return try BinaryRunner.run(arguments, in: directory, stdout: device)
    }

    @Test(arguments: [
        ["schema", "Inputs/Carriers.xcdatamodeld"],
        ["hashes", "Inputs/Carriers.xcdatamodeld", "--json"],
        ["preview", "Inputs/seed.json", "providers"],
        ["--version"],
        ["help", "build"],
    ])
    func fullDeviceExits74WithOneLine(_ arguments: [String]) throws {
        let result = try Self.runToFull(arguments)
        #expect(result.status == 74)
        #expect(result.stderr == Self.full)
    }

    @Test func inspectToAFullDevice() throws {
        let scratch = try Scratch()
        let build = try BinaryRunner.run(["build", "Inputs/seed.json", "--output", scratch.path("carriers.sqlite"), "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        for arguments in [["inspect", "carriers.sqlite"], ["inspect", "carriers.sqlite", "--json"]] {
            let result = try Self.runToFull(arguments, in: scratch.url)
            #expect(result.status == 74)
            #expect(result.stderr == Self.full)
        }
    }

    /// Diagnostics that cannot reach stderr: a build that would succeed with warnings exits 74; a
    /// failure keeps its own status.
    @Test func stderrOnAFullDevice() throws {
        let scratch = try Scratch()
        try scratch.writeModel("Library", """
            <entity name="Book"><attribute name="isbn" attributeType="Integer 64"/></entity>
            """)
        try scratch.write("books.csv", "isbn\n1\nx\n")
        try scratch.write("spec.json", """
            { "model": "Library.xcdatamodeld", "output": "Library.sqlite",
              "sources": { "books": { "csv": "books.csv" } }, "entities": { "Book": { "from": "books", "key": "isbn" } } }
            """)
        let device = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? device.close() }
        let warned = try BinaryRunner.run(["build", "spec.json", "--max-errors", "1"], in: scratch.url, stderr: device)
        #expect(warned.status == 74)
        #expect(warned.stdout.hasPrefix("built Library.sqlite: 1 entities, 1 rows, 1 record rejected in "))  // issue 23: the summary counts it
        let failed = try BinaryRunner.run(["build", "spec.json"], in: scratch.url, stderr: device)
        #expect(failed.status == 1)
    }

    /// A pipe nobody reads: SIGPIPE is ignored, so the write fails with EPIPE and is reported.
    @Test func closedPipeExits74() throws {
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try BinaryRunner.run(["schema", "Inputs/Carriers.xcdatamodeld"], stdout: pipe.fileHandleForWriting)
        #expect(result.status == 74)
        #expect(result.stderr == "error: cannot write to standard output: Broken pipe\n")
    }

    /// An output path that is a folder is refused before the build reads a record (issue 24, item 14:
    /// it used to be found only when the finished store was moved into place; a report path that is
    /// a folder was refused up front already).
    @Test(arguments: [["--output", "out.sqlite"], ["--output", "x.sqlite", "--report", "out.sqlite"]])
    func anOutputThatIsAFolderIsRefusedUpFront(_ extra: [String]) throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("out.sqlite/keep"), withIntermediateDirectories: true)
        let spec = FileManager.default.currentDirectoryPath + "/Inputs/seed.json"
        let result = try BinaryRunner.run(["build", spec] + extra, in: scratch.url)
        let what = extra.contains("--report") ? "report" : "output"
        #expect(result.status != 0)
        #expect(result.stderr == (what == "output"
            ? "out.sqlite: error: the output is a folder; name a file (for example out.sqlite/NAME.sqlite for a store), or remove the folder\n"
            : "out.sqlite: error: cannot write the report: Is a directory; nothing was built\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["out.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("out.sqlite")) == ["keep"])
    }
}
