import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Defect 15 of issue 16: an interrupted or failing `export` left its temporary file and a partial set
/// of files. Files are now staged inside the output folder and moved into place together, so the folder
/// is left as it was; writes are checked (defect 5: a full disk crashed `export` with SIGILL).
@Suite struct ExportFaultTests {
    /// The folder's entries, staging folders included.
    static func entries(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    @Test func anExportPastTheFileSizeLimitLeavesTheFolderAsItWas() throws {
        let scratch = try Scratch()
        let store = try LiveStores.carriers(in: scratch, name: "store.sqlite", rows: 3_000)
        let name = URL(fileURLWithPath: store).lastPathComponent
        // A folder holding an earlier export: its files must survive unchanged.
        let first = try scratch.run(["export", name, "--model", LiveStoreTests.model, "--output", "kept"])
        #expect(first.status == 0, "\(first.stderr)")
        let kept = Self.entries(scratch.path("kept"))
        let earlier = try Data(contentsOf: scratch.url.appendingPathComponent("kept/AccessPoint.csv"))
        for output in ["kept", "fresh"] {
            // 1000 blocks of 512 bytes: the first files fit, AccessPoint's (about 3 MB) does not.
            let result = try BinaryRunner.run(executable: URL(fileURLWithPath: "/bin/sh"), [
                "-c", "ulimit -f 1000; exec \"$0\" export \(name) --model \"$1\" --output \(output)",
                BinaryRunner.binary.path, LiveStoreTests.model,
            ], in: scratch.url)
            #expect(result.status == 73)
            #expect(result.stderr == "\(output)/AccessPoint.csv: error: cannot write the file: File too large (is the disk full, or a file size limit such as ulimit -f reached?); nothing was replaced\n")
        }
        #expect(Self.entries(scratch.path("kept")) == kept)
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("kept/AccessPoint.csv")) == earlier)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("fresh")), "a failed export left the folder it created")
    }

    /// SIGTERM or SIGINT while the files are being written: the folder keeps its earlier files only.
    @Test(arguments: [SIGTERM, SIGINT])
    func anInterruptedExportLeavesTheFolderAsItWas(signal: Int32) throws {
        let scratch = try Scratch()
        let store = try LiveStores.carriers(in: scratch, name: "store.sqlite", rows: 60_000)
        let name = URL(fileURLWithPath: store).lastPathComponent
        try FileManager.default.createDirectory(atPath: scratch.path("export"), withIntermediateDirectories: true)
        try scratch.write("export/notes.txt", "mine\n")
        let child = try ChildRun(["export", name, "--model", LiveStoreTests.model, "--output", "export", "--spec"], in: scratch.url)
        func staged() -> Bool { Self.entries(scratch.path("")).contains { $0.hasPrefix(".export.coreseed-export-") } }
        while child.isRunning && !staged() && child.elapsed < 20 { usleep(200) }
        let wasStaging = child.isRunning && staged()
        child.send(signal)
        let result = try #require(child.wait(upTo: 60), "export did not end after signal \(signal)")
        #expect(wasStaging, "export was signalled while it was writing its files")
        #expect(result.status == 128 + signal, "\(result.stderr)")
        #expect(Self.entries(scratch.path("export")) == ["notes.txt"])
        #expect(!Self.entries(scratch.path("")).contains { $0.contains(".coreseed-export-") })
        #expect(child.temporaryFiles() == [])
    }

    /// A staging folder left by an export killed with SIGKILL is removed by the next export.
    @Test func aKilledExportsStagingFolderIsRemovedByTheNext() throws {
        let scratch = try Scratch()
        let store = try LiveStores.carriers(in: scratch, name: "store.sqlite", rows: 0)
        let name = URL(fileURLWithPath: store).lastPathComponent
        // A pid that no longer exists: a child that has ended.
        let ended = try BinaryRunner.run(executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "echo $$"])
        let pid = ended.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.createDirectory(atPath: scratch.path("export/.coreseed-export-\(pid)"), withIntermediateDirectories: true)
        try scratch.write("export/.coreseed-export-\(pid)/Country.csv", "partial")
        let result = try scratch.run(["export", name, "--model", LiveStoreTests.model, "--output", "export"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!Self.entries(scratch.path("export")).contains { $0.hasPrefix(".coreseed-") })
        #expect(Self.entries(scratch.path("export")).contains("Country.csv"))
    }
}
