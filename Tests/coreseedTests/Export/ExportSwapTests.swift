import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 24, item 8: an export interrupted between its renames left a mix of new and old files
/// (5 of 38 runs). The folder is now swapped with a complete staging folder in one step.
@Suite struct ExportSwapTests {
    /// Every file of `folder` (not hidden) with its bytes.
    static func contents(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where !name.hasPrefix(".") {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    /// 30 exports killed with SIGKILL at points spread over their run: each time the folder holds
    /// the complete earlier set or the complete new one, and the user's own file.
    @Test func aKilledExportLeavesTheOldSetOrTheNew() throws {
        let scratch = try Scratch()
        let old = URL(fileURLWithPath: try LiveStores.carriers(in: scratch, name: "old.sqlite", rows: 2_000)).lastPathComponent
        let new = URL(fileURLWithPath: try LiveStores.carriers(in: scratch, name: "new.sqlite", rows: 3_000)).lastPathComponent
        let model = LiveStoreTests.model
        for (store, folder) in [(old, "old-set"), (new, "new-set")] {
            let export = try scratch.run(["export", store, "--model", model, "--output", folder, "--spec"])
            #expect(export.status == 0, "\(export.stderr)")
        }
        var oldSet = try Self.contents(scratch.path("old-set")), newSet = try Self.contents(scratch.path("new-set"))
        oldSet["notes.txt"] = Data("mine\n".utf8)
        newSet["notes.txt"] = Data("mine\n".utf8)
        #expect(oldSet != newSet && oldSet.count > 2)
        let export = ["export", new, "--model", model, "--output", "out", "--spec"]
        let started = Date()
        try FileManager.default.copyItem(atPath: scratch.path("old-set"), toPath: scratch.path("out"))
        try Self.slowedRenames(export, in: scratch).waitUntilExit()
        let duration = Date().timeIntervalSince(started)
        var outcomes = (old: 0, new: 0)
        for run in 0..<30 {
            let folder = scratch.path("out")
            try? FileManager.default.removeItem(atPath: folder)
            try FileManager.default.copyItem(atPath: scratch.path("old-set"), toPath: folder)
            try scratch.write("out/notes.txt", "mine\n")
            let child = try Self.slowedRenames(export, in: scratch)
            usleep(UInt32(duration * 1.1 * Double(run) / 30 * 1_000_000))
            Self.kill(child)
            let seen = try Self.contents(folder)
            #expect(seen == oldSet || seen == newSet, "run \(run): \(seen.keys.sorted()) is neither set")
            if seen == oldSet { outcomes.old += 1 } else if seen == newSet { outcomes.new += 1 }
        }
        #expect(outcomes.old + outcomes.new == 30, "old \(outcomes.old), new \(outcomes.new)")
        // The next export removes what the killed ones left beside the folder.
        let last = try scratch.run(["export", new, "--model", model, "--output", "out", "--spec"])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try Self.contents(scratch.path("out")) == newSet)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: scratch.path(""))).contains { $0.contains("coreseed-export") })
    }

    /// A store built for one configuration holds only its entities' tables: export read every entity's
    /// table ("no such table: ZOTHER") and failed.
    @Test func aStoreOfOneConfigurationExports() throws {
        let scratch = try Scratch()
        try scratch.writeModel("I", """
            <entity name="Item"><attribute name="name" attributeType="String"/></entity>
            <entity name="Other"><attribute name="name" attributeType="String"/></entity>
            <configuration name="Main"><memberEntity name="Item"/></configuration>
            """)
        try scratch.write("items.csv", "name\na\nb\n")
        try scratch.write("spec.json", """
            { "model": "I.xcdatamodeld", "output": "I.sqlite", "configuration": "Main", "sources": { "s": { "csv": "items.csv" } },
              "entities": { "Item": { "from": "s", "key": "name" } } }
            """)
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let export = try scratch.run(["export", "I.sqlite", "--model", "I.xcdatamodeld", "--output", "ex"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout == "ex/Item.csv: 2 rows of Item\n")
        #expect(try String(contentsOfFile: scratch.path("ex/Item.csv"), encoding: .utf8) == "pk,name\r\n1,a\r\n2,b\r\n")
    }

    static let strace = "/usr/bin/strace"

    /// Runs the binary with `arguments`, under strace with every rename made 100 ms slower where strace
    /// is installed, so that a kill often lands between two renames (without it, the window is a few
    /// microseconds and the runs rarely hit it; the check is the same).
    static func slowedRenames(_ arguments: [String], in scratch: Scratch) throws -> Process {
        let process = Process()
        if FileManager.default.isExecutableFile(atPath: strace) {
            process.executableURL = URL(fileURLWithPath: strace)
            process.arguments = ["-f", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
                                 "-e", "inject=rename,renameat,renameat2:delay_exit=100000", BinaryRunner.binary.path] + arguments
        } else {
            process.executableURL = BinaryRunner.binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = scratch.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// SIGKILL to the export (strace's child when it runs under strace), then waits for both.
    static func kill(_ process: Process) {
        let pid = process.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        let export = process.executableURL?.path == strace ? children.split(separator: " ").compactMap { Int32($0) } : [pid]
        for child in export { Glibc.kill(child, SIGKILL) }
        if export.isEmpty { Glibc.kill(pid, SIGKILL) }
        process.waitUntilExit()
    }
}
