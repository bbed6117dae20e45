import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 24, items 5, 6, 10, 11: a pipe as a source, a legacy SQLite source with a hot journal, a
/// support folder that holds a symlink or a FIFO, a `Z_MAX` at the top of its range.
@Suite struct HostileInputTests {
    static func itemSpec(_ scratch: Scratch, source: String) throws {
        try scratch.writeModel("I", "<entity name=\"Item\"><attribute name=\"name\" attributeType=\"String\"/></entity>")
        try scratch.write("spec.json", """
            { "model": "I.xcdatamodeld", "output": "I.sqlite", "sources": { "s": \(source) },
              "entities": { "Item": { "from": "s", "key": "name" } } }
            """)
    }

    /// Item 5: a FIFO as a source blocked the build forever; a pipe gave "built" from part of it.
    @Test func aFIFOAsASourceIsRefusedAtOnce() throws {
        let scratch = try Scratch()
        try Self.itemSpec(scratch, source: "{ \"csv\": \"fifo.csv\" }")
        #expect(mkfifo(scratch.path("fifo.csv"), 0o600) == 0)
        // A writer that gives up after 20 s keeps a blocked build from hanging the suite.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "exec timeout 15 sh -c \"printf 'name\\na\\n' > fifo.csv\""]
        writer.currentDirectoryURL = scratch.url
        writer.standardOutput = FileHandle.nullDevice
        writer.standardError = FileHandle.nullDevice
        try writer.run()
        defer { writer.terminate() }
        let started = Date()
        let build = try scratch.run(["build", "spec.json"])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(build.status != 0)
        #expect(build.stderr == "fifo.csv: error: source 's' is a pipe (FIFO), not a regular file: coreseed reads its inputs more than once; save it to a file first (for example `cat > input.csv`) and name that file\n",
                "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("I.sqlite")))
    }

    /// Item 6: a source with a hot `-journal` was read as its uncommitted state (immutable=1).
    @Test func aLegacySourceWithAHotJournalIsReadAsCommitted() throws {
        let scratch = try Scratch()
        try Self.itemSpec(scratch, source: "{ \"sqlite\": \"legacy.db\", \"table\": \"t\" }")
        do {
            let live = try SQLiteDatabase(path: scratch.path("live.db"), mode: .readWriteCreate)
            try live.execute("PRAGMA journal_mode = DELETE; CREATE TABLE t (name TEXT); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) INSERT INTO t SELECT 'row ' || i FROM n")
            // A transaction that spills changed pages into the file and never commits; the files copied
            // mid-way are what a crash leaves: the database and its hot journal.
            try live.execute("PRAGMA cache_size = 2; BEGIN; UPDATE t SET name = 'uncommitted ' || rowid")
            try FileManager.default.copyItem(atPath: scratch.path("live.db"), toPath: scratch.path("legacy.db"))
            try FileManager.default.copyItem(atPath: scratch.path("live.db-journal"), toPath: scratch.path("legacy.db-journal"))
            try live.execute("ROLLBACK")
        }
        let journal = try Data(contentsOf: URL(fileURLWithPath: scratch.path("legacy.db-journal")))
        let database = try Data(contentsOf: URL(fileURLWithPath: scratch.path("legacy.db")))
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try scratch.query("I.sqlite", "SELECT count(*), sum(ZNAME LIKE 'row %') FROM ZITEM") == [["20000", "20000"]])
        // The source and its journal are as they were (the rollback happened in a private copy).
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("legacy.db-journal"))) == journal)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("legacy.db"))) == database)
    }

    /// Item 10: a UUID-named symlink in the support folder was exported as the value and copied by
    /// backup; a UUID-named FIFO blocked backup forever.
    @Test func theSupportFolderHoldsRegularFilesOnly() throws {
        let (scratch, files) = try SupportFolderOwnerTests.built()
        let entry = scratch.path(SupportFolderOwnerTests.folder + "/" + files[0])
        try FileManager.default.removeItem(atPath: entry)
        try FileManager.default.createSymbolicLink(atPath: entry, withDestinationPath: "/etc/passwd")
        let export = try scratch.run(["export", "out/R.sqlite", "--model", "R.xcdatamodeld", "--output", "ex"])
        #expect(export.status != 0)
        #expect(export.stderr.contains("symbolic link"), "\(export.stderr)")
        let backup = try scratch.run(["backup", "out/R.sqlite", "copy/B.sqlite"])
        #expect(backup.status != 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("copy/.B_SUPPORT/_EXTERNAL_DATA/" + files[0])))
        try FileManager.default.removeItem(atPath: entry)
        #expect(mkfifo(entry, 0o600) == 0)
        let started = Date()
        let blocked = try scratch.run(["backup", "out/R.sqlite", "copy/B.sqlite", "--timeout", "2"])
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(blocked.status != 0)
        #expect(blocked.stderr.contains("not a regular file"), "\(blocked.stderr)")
    }

    /// Item 11 (and 14's `Z_MAX` 'abc', reported as 0): a stored Z_MAX is checked before keys count up.
    @Test func aZMaxAtTheTopOfItsRangeIsAnErrorNotATrap() throws {
        let scratch = try Scratch()
        try Self.itemSpec(scratch, source: "{ \"csv\": \"i.csv\" }")
        try scratch.write("i.csv", "name\na\n")
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        try scratch.write("i.csv", "name\nb\n")
        for (value, words) in [("9223372036854775807", "is 9223372036854775807, which leaves no room for new keys"), ("'abc'", "is 'abc', not an integer")] {
            do {
                let store = try SQLiteDatabase(path: scratch.path("I.sqlite"), mode: .readWrite)
                try store.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(value)")
            }
            let update = try scratch.run(["build", "spec.json", "--into", "I.sqlite", "--mode", "upsert"])
            #expect(update.status == 65 || update.status == 1 || update.status == 66, "\(update.status) \(update.stderr)")
            #expect(update.stderr.contains("I.sqlite: error: ") && update.stderr.contains("Z_PRIMARYKEY: Z_MAX of Item \(words)"), "\(update.stderr)")
            #expect(!update.stderr.contains("is 0"), "\(update.stderr)")
        }
    }
}
