import Foundation
import Testing
import CoreSeed

/// End-to-end: `verify`, `inspect` and `export` on stores that another process is writing to, and what
/// an interrupted command leaves behind.
/// The writer runs in this process (`LiveWriter`); the command in a child with a private `TMPDIR`.
@Suite(.serialized) struct LiveStoreTests {
    static let model = BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/Carriers.xcdatamodeld").path

    /// Waits until `writer` has committed `count` more transactions.
    static func waitForCommits(_ writer: LiveWriter, _ count: Int) {
        let target = writer.committed + count
        let deadline = Date().addingTimeInterval(30)
        while writer.committed < target && Date() < deadline { usleep(1_000) }
    }

    /// The `entity 1 AccessPoint …` line of `inspect`: its `max` and `rows` must be equal.
    static func accessPointLine(_ stdout: String) -> (max: Int, rows: Int)? {
        guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("entity 1 AccessPoint super 0 max ") }) else { return nil }
        let words = line.split(separator: " ")
        guard words.count == 9, let max = Int(words[6]), let rows = Int(words[8]) else { return nil }
        return (max, rows)
    }

    /// Defect 6: an app writing to the store (WAL, or a rollback journal) while `verify`, `inspect` and
    /// `export` read it: each sees one committed state (no false corruption, `Z_MAX` equal to the rows).
    /// A rollback-journal reader may also wait for the writer's lock, never longer than its timeout.
    @Test(arguments: ["wal", "delete"])
    func readingALiveStoreSeesOneCommittedState(journal: String) throws {
        let scratch = try Scratch()
        _ = try LiveStores.carriers(in: scratch, name: "live.sqlite", rows: 30_000, journal: journal)
        let writer = LiveWriter(path: scratch.path("live.sqlite"), journal: journal)
        var outcomes: [String] = []
        for round in 0..<4 {
            LiveStoreTests.waitForCommits(writer, 2)
            let verify = try ChildRun(["verify", "live.sqlite", "--model", LiveStoreTests.model], in: scratch.url)
            let inspect = try ChildRun(["inspect", "live.sqlite"], in: scratch.url)
            let export = round == 0 ? try ChildRun(["export", "live.sqlite", "--model", LiveStoreTests.model, "--entity", "AccessPoint",
                                                     "--output", "export"], in: scratch.url) : nil
            for (name, child) in [("verify", verify), ("inspect", inspect)] + (export.map { [("export", $0)] } ?? []) {
                let result = try #require(child.wait(upTo: 120), "\(name) did not finish")
                #expect(child.temporaryFiles() == [], "\(name) left files in its TMPDIR")
                if result.status != 0, result.stderr.contains("in use by another process") {
                    outcomes.append("\(name): in use")
                    continue
                }
                #expect(result.status == 0, "\(name) (round \(round)): \(result.stdout)\(result.stderr)")
                switch name {
                case "verify":
                    #expect(result.stdout.hasSuffix("live.sqlite: OK\n"), "\(result.stdout)\(result.stderr)")
                case "inspect":
                    let counts = try #require(LiveStoreTests.accessPointLine(result.stdout), "\(result.stdout)")
                    #expect(counts.max == counts.rows, "inspect saw Z_MAX \(counts.max) beside \(counts.rows) rows")
                default:
                    #expect(result.stdout.hasPrefix("export/AccessPoint.csv: "), "\(result.stdout)")
                }
                outcomes.append("\(name): ok")
            }
        }
        #expect(writer.stop() == nil)
        #expect(outcomes.filter { $0.hasSuffix("ok") }.count >= 6, "\(outcomes)")
        let counts = try LiveStores.accessPointCounts(scratch.path("live.sqlite"))
        #expect(counts[0] == counts[1] && counts[1] == counts[2])
    }

    /// A WAL store whose committed rows are only in its `-wal`, beside no `-shm` (copied while its writer
    /// was open): what a command must read from a private copy, in TMPDIR.
    static func walStoreWithoutSHM(in scratch: Scratch, rows: Int) throws -> String {
        let live = scratch.url.appendingPathComponent("live")
        try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)
        let liveScratch = try Scratch()
        let source = try LiveStores.carriers(in: liveScratch, name: "store.sqlite", rows: rows, journal: "wal")
        let writer = try SQLiteDatabase(path: source, mode: .readWrite)
        try writer.execute("PRAGMA wal_autocheckpoint = 0; UPDATE ZACCESSPOINT SET ZUSERNAME = 'in the wal' WHERE Z_PK % 10 = 0")
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: scratch.path("frozen.sqlite" + suffix))
        }
        withExtendedLifetime(writer) {}
        return scratch.path("frozen.sqlite")
    }

    /// Defect 8: SIGINT or SIGTERM in the middle of a command leaves nothing in TMPDIR: no private copy of
    /// the store (a WAL store without its -shm is read from one; a rollback-journal store is read in place).
    @Test(arguments: [
        ("verify", SIGINT, "frozen"), ("verify", SIGTERM, "frozen"), ("inspect", SIGINT, "frozen"),
        ("export", SIGTERM, "frozen"), ("backup", SIGINT, "frozen"), ("verify", SIGINT, "rollback"),
    ])
    func anInterruptedCommandLeavesNothingInTMPDIR(command: String, signal: Int32, layout: String) throws {
        let scratch = try Scratch()
        let store = layout == "frozen"
            ? try LiveStoreTests.walStoreWithoutSHM(in: scratch, rows: 60_000)
            : try LiveStores.carriers(in: scratch, name: "rollback.sqlite", rows: 60_000)
        let name = URL(fileURLWithPath: store).lastPathComponent
        let before = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
        let arguments: [String] = switch command {
        case "verify": ["verify", name, "--model", LiveStoreTests.model]
        case "export": ["export", name, "--model", LiveStoreTests.model, "--output", "export"]
        case "backup": ["backup", name, "copy.sqlite"]
        default: [command, name]
        }
        let child = try ChildRun(arguments, in: scratch.url)
        // Signal as soon as the command has put something in its TMPDIR (a store read from a private copy
        // does), or after a second when it has not (a store read in place, then usually done already).
        let wait = layout == "frozen" ? 10.0 : 1.0
        while child.isRunning && child.temporaryFiles().isEmpty && child.elapsed < wait { usleep(200) }
        let wasRunning = child.isRunning, sawFiles = !child.temporaryFiles().isEmpty
        child.send(signal)
        let result = try #require(child.wait(upTo: 60), "\(command) did not end after signal \(signal)")
        if layout == "frozen" {
            #expect(wasRunning && sawFiles, "\(command) was signalled while it had a private copy in TMPDIR")
            #expect(result.status == 128 + signal, "\(command): \(result.stderr)")
        } else if wasRunning {
            #expect(result.status == 128 + signal || result.status == 0, "\(command): \(result.stderr)")
        }
        #expect(child.temporaryFiles() == [], "\(command) interrupted by signal \(signal) left its TMPDIR holding files")
        let after = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
            .filter { !$0.hasPrefix("tmp-") && !$0.hasPrefix("out-") && !$0.hasPrefix("err-") && $0 != "export" && $0 != "copy.sqlite" }
        #expect(after.sorted() == before, "\(command) left files beside the store")
    }
}
