import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// End-to-end: `verify`, `inspect`, `export` and `backup` on stores that another process is writing to,
/// holds locked, or that were altered to hang a reader — and what an interrupted command leaves behind.
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

    /// Defect 3: `backup` of a store an app is writing to (a rollback journal present, or WAL) makes a
    /// consistent copy through SQLite's online backup API: integrity_check passes, `Z_MAX` equals the
    /// rows, `verify` accepts it, and nothing remains in TMPDIR or beside the copy.
    @Test(arguments: ["delete", "wal"])
    func backupOfALiveStoreIsConsistent(journal: String) throws {
        let scratch = try Scratch()
        _ = try LiveStores.carriers(in: scratch, name: "live.sqlite", rows: 20_000, journal: journal)
        let writer = LiveWriter(path: scratch.path("live.sqlite"), journal: journal)
        var copies: [String] = []
        for round in 0..<5 {
            LiveStoreTests.waitForCommits(writer, 2)
            let name = "copy-\(round).sqlite"
            let child = try ChildRun(["backup", "live.sqlite", "out/\(name)"], in: scratch.url)
            let result = try #require(child.wait(upTo: 120), "backup did not finish")
            #expect(child.temporaryFiles() == [], "backup left files in its TMPDIR")
            if result.status != 0, result.stderr.contains("in use by another process") { continue }
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("out/\(name): "), "\(result.stdout)")
            copies.append(name)
        }
        #expect(writer.stop() == nil)
        #expect(copies.count >= 3, "most backups succeed while the app writes: \(copies)")
        // Each copy, and its external files (the carrier store's flags) beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("out")).sorted()
                == (copies + copies.map { ".\($0.dropLast(".sqlite".count))_SUPPORT" }).sorted())
        for name in copies {
            let counts = try LiveStores.accessPointCounts(scratch.path("out/\(name)"))
            #expect(counts[0] == counts[1] && counts[1] == counts[2], "\(name): Z_MAX, rows, max(Z_PK) = \(counts)")
            let copy = try SQLiteDatabase(path: scratch.path("out/\(name)"), mode: .readOnly(immutable: true))
            #expect(try StoreOps.rows(copy, "PRAGMA integrity_check") == [["ok"]], "\(name)")
            #expect(try StoreOps.rows(copy, "PRAGMA journal_mode") == [["delete"]], "\(name)")
        }
        if let last = copies.last {
            let verify = try scratch.run(["verify", "out/\(last)", "--model", LiveStoreTests.model])
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        }
    }

    /// Defect 13: a store whose lock another process holds (an exclusive transaction) is waited for with
    /// the process asleep, and given up after the timeout (10 s by default) with "in use by another
    /// process" — by `backup`, and by `verify` and `inspect` alike.
    @Test func aLockedStoreIsWaitedForWithoutSpinningThenRefused() throws {
        let scratch = try Scratch()
        let store = try LiveStores.carriers(in: scratch, name: "locked.sqlite", rows: 0)
        let holder = try SQLiteDatabase(path: store, mode: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        let children = [
            ("backup", try ChildRun(["backup", "locked.sqlite", "copy.sqlite"], in: scratch.url)),
            ("verify", try ChildRun(["verify", "locked.sqlite", "--model", LiveStoreTests.model], in: scratch.url)),
            ("inspect", try ChildRun(["inspect", "locked.sqlite"], in: scratch.url)),
        ]
        for (name, child) in children {
            let result = try #require(child.wait(upTo: 40), "\(name) still waited after 40 s")
            #expect(child.elapsed >= 9, "\(name) gave up after \(child.elapsed) s")
            let cpu = try #require(child.cpuSeconds)
            #expect(cpu < 1.5, "\(name) used \(cpu) s of CPU in the \(child.elapsed) s it waited for the lock")
            #expect(result.status == 66, "\(name): \(result.stderr)")
            #expect(result.stderr == "locked.sqlite: error: store in use by another process: it stayed locked for 10 s (database is locked); try again when it is free, or wait longer with --timeout SECONDS\n")
            #expect(child.temporaryFiles() == [])
        }
        try holder.execute("COMMIT")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix("copy") || $0.hasPrefix(".copy") } == [])
    }

    /// `--timeout SECONDS` bounds the wait of every command that opens an existing store (issue 16).
    @Test func timeoutBoundsTheWait() throws {
        let scratch = try Scratch()
        let store = try LiveStores.carriers(in: scratch, name: "locked.sqlite", rows: 0)
        let holder = try SQLiteDatabase(path: store, mode: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        let message = "locked.sqlite: error: store in use by another process: it stayed locked for 2 s (database is locked); try again when it is free, or wait longer with --timeout SECONDS\n"
        let children = [
            ("backup", try ChildRun(["backup", "locked.sqlite", "copy.sqlite", "--timeout", "2"], in: scratch.url)),
            ("verify", try ChildRun(["verify", "locked.sqlite", "--model", LiveStoreTests.model, "--timeout", "2"], in: scratch.url)),
            ("inspect", try ChildRun(["inspect", "locked.sqlite", "--timeout", "2"], in: scratch.url)),
            ("export", try ChildRun(["export", "locked.sqlite", "--model", LiveStoreTests.model, "--output", "out", "--timeout", "2"], in: scratch.url)),
            ("build --into", try ChildRun(["build", BinaryRunner.repositoryRoot.appendingPathComponent("Inputs/seed.json").path,
                                           "--into", "locked.sqlite", "--timeout", "2", "--quiet"], in: scratch.url)),
        ]
        for (name, child) in children {
            let result = try #require(child.wait(upTo: 30), "\(name) still waited after 30 s")
            #expect(child.elapsed >= 1.9 && child.elapsed < 8, "\(name) gave up after \(child.elapsed) s")
            #expect(result.status == 66, "\(name): \(result.stderr)")
            #expect(result.stderr == message, "\(name)")
            #expect(child.temporaryFiles() == [])
        }
        try holder.execute("COMMIT")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out")))
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

    /// Defect 9: a store whose entity table was replaced by a view over an endless recursive query. `verify`
    /// names the view among the differences; `export` and `inspect` refuse the store, naming the view. None
    /// runs the view's query, and each ends in seconds.
    @Test func aViewOverAnEndlessQueryIsNamedAndNothingHangs() throws {
        let scratch = try Scratch()
        let store = try LiveStores.carriers(in: scratch, name: "hostile.sqlite", rows: 0)
        let view = "CREATE VIEW ZCOUNTRY AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS Z_PK, 2 AS Z_ENT, 1 AS Z_OPT, 'c' || x AS ZCODE, 'n' AS ZNAME FROM c"
        do {
            let database = try SQLiteDatabase(path: store, mode: .readWrite)
            try database.execute("DROP TABLE ZCOUNTRY; \(view)")
        }
        let runs = [
            ("verify", try ChildRun(["verify", "hostile.sqlite", "--model", LiveStoreTests.model], in: scratch.url)),
            ("export", try ChildRun(["export", "hostile.sqlite", "--model", LiveStoreTests.model, "--output", "export"], in: scratch.url)),
            ("inspect", try ChildRun(["inspect", "hostile.sqlite"], in: scratch.url)),
        ]
        for (name, child) in runs {
            let result = try #require(child.wait(upTo: 30), "\(name) still ran after 30 s")
            #expect(child.elapsed < 10, "\(name) took \(child.elapsed) s")
            #expect(result.status == 1, "\(name): \(result.stdout)\(result.stderr)")
            switch name {
            case "verify":
                #expect(result.stderr.contains("hostile.sqlite: error: schema: missing table ZCOUNTRY (Z_PK, Z_ENT, Z_OPT, ZPROVIDERCOUNT, ZFLAG, ZCODE, ZNAME) for entity Country\n"))
                #expect(result.stderr.contains("hostile.sqlite: error: schema: unexpected view ZCOUNTRY: \(view)\n"))
            default:
                #expect(result.stderr == "hostile.sqlite: error: refusing to read this store: ZCOUNTRY, the table of entity Country, is a view (\(view.prefix(60))…); a Core Data store has no views, and reading one runs its query\n")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("export/Country.csv")))
    }

    /// `export` refuses a store holding a trigger the model does not define, naming it; `inspect`, which
    /// has no model to judge by (Core Data keeps derived attributes with triggers), still reads it.
    @Test func exportRefusesATriggerTheModelDoesNotDefine() throws {
        let scratch = try Scratch()
        let store = try LiveStores.carriers(in: scratch, name: "trigger.sqlite", rows: 0)
        let trigger = "CREATE TRIGGER sneaky AFTER INSERT ON ZCOUNTRY BEGIN DELETE FROM ZPROVIDER; END"
        do {
            let database = try SQLiteDatabase(path: store, mode: .readWrite)
            try database.execute(trigger)
        }
        let export = try scratch.run(["export", "trigger.sqlite", "--model", LiveStoreTests.model, "--output", "export"])
        #expect(export.status == 1)
        #expect(export.stderr == "trigger.sqlite: error: refusing to read this store: it holds trigger sneaky, which the model does not define (\(trigger.prefix(60))…)\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("export")))
        let inspect = try scratch.run(["inspect", "trigger.sqlite"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
    }
}
