import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 24, items 1, 2, 4, 7: a support folder has one owner. Two stores that map to one
/// `.NAME_SUPPORT` are refused before anything is written; clean-up removes only files the
/// destination's previous rows referred to; a torn external file is replaced, never trusted; `backup`
/// refuses a destination an app has open.
@Suite struct SupportFolderOwnerTests {
    static let folder = "out/.R_SUPPORT/_EXTERNAL_DATA"

    static func built() throws -> (Scratch, [String]) {
        let scratch = try ExternalStorageTests.prepare()
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let files = ExternalStorageTests.files(scratch, folder)
        #expect(files.count == 1)
        return (scratch, files)
    }

    static func contents(_ scratch: Scratch, _ folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        for name in ExternalStorageTests.files(scratch, folder) {
            result[name] = try? Data(contentsOf: URL(fileURLWithPath: scratch.path(folder + "/" + name)))
        }
        return result
    }

    /// Item 1: `backup R.sqlite R.bak` deleted every external file of the source.
    @Test func aBackupBesideItsSourceIsRefusedAndTheSourceKeepsItsFiles() throws {
        let (scratch, _) = try Self.built()
        let before = Self.contents(scratch, Self.folder)
        let backup = try scratch.run(["backup", "out/R.sqlite", "out/R.bak"])
        #expect(backup.status != 0)
        #expect(backup.stderr.contains("out/R.bak: error: this store and ") && backup.stderr.contains("out/R.sqlite would share one support folder (.R_SUPPORT"),
                "\(backup.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out/R.bak")))
        #expect(Self.contents(scratch, Self.folder) == before)
        #expect(try scratch.run(["verify", "out/R.sqlite", "--model", "R.xcdatamodeld"]).status == 0)
    }

    /// Item 2: `--output R.db` beside `R.sqlite`, and `--into R.sqlite --output R.new`, deleted the
    /// files of `R.sqlite`.
    @Test func aBuildBesideAnotherStoreOfTheSameNameIsRefused() throws {
        let (scratch, _) = try Self.built()
        let before = Self.contents(scratch, Self.folder)
        let store = try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/R.sqlite")))
        let beside = try scratch.run(["build", "spec.json", "--output", "out/R.db", "--quiet"])
        #expect(beside.status != 0)
        #expect(beside.stderr.contains("would share one support folder"), "\(beside.stderr)")
        try scratch.write("r.csv", "name,photo\nLarge,AAECAwQFBgcICQoLDA0=\n")
        let into = try scratch.run(["build", "spec.json", "--into", "out/R.sqlite", "--output", "out/R.new", "--quiet"])
        #expect(into.status != 0)
        #expect(into.stderr.contains("would share one support folder"), "\(into.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out/R.db")))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out/R.new")))
        #expect(Self.contents(scratch, Self.folder) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out/R.sqlite"))) == store)
    }

    /// Clean-up removes the files the replaced store's rows referred to, and no other.
    @Test func cleanUpRemovesOnlyWhatTheReplacedStoreReferredTo() throws {
        let (scratch, files) = try Self.built()
        let stranger = "0A0A0A0A-0000-4000-8000-000000000001"
        try scratch.write(Self.folder + "/" + stranger, "not this store's")
        try scratch.write("r.csv", "name,photo\nLarge,AAECAwQFBgcICQoLDA0=\n")
        let rebuild = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        let after = ExternalStorageTests.files(scratch, Self.folder)
        #expect(after.contains(stranger))
        #expect(!after.contains(files[0]))  // the replaced store's file, no longer referred to
        #expect(after.count == 2)
    }

    /// Item 4: a torn copy under the final name was kept by the next backup, and verify said OK.
    @Test func aTornExternalFileAtTheDestinationIsReplaced() throws {
        let (scratch, files) = try Self.built()
        #expect(try scratch.run(["backup", "out/R.sqlite", "copy/B.sqlite"]).status == 0)
        let copied = scratch.path("copy/.B_SUPPORT/_EXTERNAL_DATA/" + files[0])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: copied))
        try bytes.prefix(3).write(to: URL(fileURLWithPath: copied))
        let again = try scratch.run(["backup", "out/R.sqlite", "copy/B.sqlite"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copied)) == bytes)
        #expect(ExternalStorageTests.files(scratch, "copy/.B_SUPPORT/_EXTERNAL_DATA") == files)
        // The same through --into A --output B.
        try FileManager.default.createDirectory(atPath: scratch.path("v2/.R2_SUPPORT/_EXTERNAL_DATA"), withIntermediateDirectories: true)
        let torn = scratch.path("v2/.R2_SUPPORT/_EXTERNAL_DATA/" + files[0])
        try bytes.prefix(3).write(to: URL(fileURLWithPath: torn))
        let update = try scratch.run(["build", "spec.json", "--into", "out/R.sqlite", "--output", "v2/R2.sqlite", "--quiet"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: torn)) == bytes)
    }

    /// `make fault` (issue 24): its bank builds write `banks.sqlite` beside the legacy source
    /// `banks.sqlite3`, which maps to the same `.banks_SUPPORT` but is no Core Data store (no
    /// `Z_METADATA`) and owns no files: refusing it stopped the campaign.
    @Test func aLegacySQLiteFileOfTheSameNameIsNoOwner() throws {
        let (scratch, _) = try Self.built()
        let legacy = try SQLiteDatabase(path: scratch.path("out/R.sqlite3"), mode: .readWriteCreate)
        try legacy.execute("CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('Small')")
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        // A Core Data store of that name still is one.
        #expect(try scratch.run(["backup", "out/R.sqlite", "out/R.bak"]).status != 0)
    }

    /// `make fault` (issue 24): a backup killed mid-copy left `.UUID.coreseed-PID.part` in the
    /// destination's `_EXTERNAL_DATA`, and no later backup or `--into --output` ever removed it.
    @Test func aKilledCopysStagingFileIsRemovedByTheNextOne() throws {
        let (scratch, files) = try Self.built()
        let folder = "copy/.B_SUPPORT/_EXTERNAL_DATA"
        try FileManager.default.createDirectory(atPath: scratch.path(folder), withIntermediateDirectories: true)
        // PIDs never reach 99999999 (pid_max is at most 2^22): the process that wrote it is gone.
        let dead = ".\(files[0]).coreseed-99999999.part", live = ".\(files[0]).coreseed-1.part"
        try scratch.write("\(folder)/\(dead)", "torn")
        try scratch.write("\(folder)/\(live)", "another run's")  // pid 1 is alive: left alone
        let backup = try scratch.run(["backup", "out/R.sqlite", "copy/B.sqlite"])
        #expect(backup.status == 0, "\(backup.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path(folder)).sorted()
        #expect(names == [live] + files, "\(names)")
        #expect(try scratch.run(["verify", "copy/B.sqlite", "--model", "R.xcdatamodeld"]).status == 0)
    }

    /// Item 7: `backup` replaced a store an app had open, removing its `-wal`.
    @Test func aBackupOntoAStoreAnAppHasOpenIsRefused() throws {
        let (scratch, _) = try Self.built()
        #expect(try scratch.run(["backup", "out/R.sqlite", "copy/B.sqlite"]).status == 0)
        let app = try SQLiteDatabase(path: scratch.path("copy/B.sqlite"), mode: .readWrite)
        try app.execute("PRAGMA journal_mode = WAL; UPDATE ZRECIPE SET ZNAME = 'app edit' WHERE Z_PK = 1")
        let refused = try scratch.run(["backup", "out/R.sqlite", "copy/B.sqlite"])
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("store in use by another process (an app has it open)"), "\(refused.stderr)")
        try app.execute("UPDATE ZRECIPE SET ZNAME = 'app edit 2' WHERE Z_PK = 2")
        #expect(try StoreOps.rows(app, "SELECT ZNAME FROM ZRECIPE ORDER BY Z_PK") == [["app edit"], ["app edit 2"], ["None"]])
        #expect(FileManager.default.fileExists(atPath: scratch.path("copy/B.sqlite-wal")))
    }
}
