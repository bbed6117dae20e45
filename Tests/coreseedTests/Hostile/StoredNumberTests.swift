import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 24, item 3 (checked arithmetic on what a store holds): a hostile number read from a store is
/// an error naming the table, column and row, never an overflow trap, an allocation that cannot be
/// made, or a silent change.
@Suite struct StoredNumberTests {
    static func update(_ scratch: Scratch, _ sql: String) throws -> BinaryRunner.Result {
        do {
            let store = try SQLiteDatabase(path: scratch.path("I.sqlite"), mode: .readWrite)
            try store.execute(sql)
        }
        try scratch.write("i.csv", "name\na\nc\n")
        return try scratch.run(["build", "spec.json", "--into", "I.sqlite", "--mode", "upsert"])
    }

    static func itemStore() throws -> Scratch {
        let scratch = try Scratch()
        try HostileInputTests.itemSpec(scratch, source: "{ \"csv\": \"i.csv\" }")
        try scratch.write("i.csv", "name\na\nb\n")
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        return scratch
    }

    /// Z_MAX -1 (an in-place migration's "no key handed out") counts new keys up from max(Z_PK): at
    /// Int64.max that trapped (SIGILL).
    @Test func aHighestKeyAtTheTopOfItsRangeIsAnError() throws {
        let scratch = try Self.itemStore()
        let update = try Self.update(scratch, "UPDATE Z_PRIMARYKEY SET Z_MAX = -1; UPDATE ZITEM SET Z_PK = 9223372036854775807 WHERE Z_PK = 2")
        #expect(update.status == 1, "\(update.status) \(update.stderr)")
        #expect(update.stderr == "I.sqlite: error: Z_PRIMARYKEY: Z_MAX of Item is -1 and ZITEM holds Z_PK 9223372036854775807, which leaves no room for new keys: the store is damaged; restore it from a backup\n")
    }

    /// An update's `Z_OPT + 1` made text 1 and Int64.max a real, silently.
    @Test(arguments: [("'abc'", "is 'abc', not an integer"), ("9223372036854775807", "is 9223372036854775807, which leaves no room for an update's + 1"),
                      ("1.5", "is 1.5, not an integer")])
    func aZOptAnUpdateCannotCountUpIsAnError(value: String, words: String) throws {
        let scratch = try Self.itemStore()
        let update = try Self.update(scratch, "UPDATE ZITEM SET Z_OPT = \(value) WHERE Z_PK = 2")
        #expect(update.status == 1, "\(update.status) \(update.stderr)")
        #expect(update.stderr == "I.sqlite: error: ZITEM: Z_OPT of Item Z_PK 2 \(words): the store is damaged; restore it from a backup\n")
        #expect(try scratch.query("I.sqlite", "SELECT count(*), typeof(max(Z_OPT)) FROM ZITEM") == [["2", value == "'abc'" ? "text" : value == "1.5" ? "real" : "integer"]])
    }

    /// NULL, which Core Data leaves in some stores (three tables of the corpus), stays NULL.
    @Test func aNullZOptIsLeftAlone() throws {
        let scratch = try Self.itemStore()
        let update = try Self.update(scratch, "UPDATE ZITEM SET Z_OPT = NULL")
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try scratch.query("I.sqlite", "SELECT count(*) FROM ZITEM") == [["3"]])
    }

    /// A support folder's file claims its size; a sparse one of 1 TB was an allocation export could not make.
    @Test func anExternalFileLargerThanAValueIsAnError() throws {
        let (scratch, files) = try SupportFolderOwnerTests.built()
        let entry = scratch.path(SupportFolderOwnerTests.folder + "/" + files[0])
        #expect(truncate(entry, 1 << 40) == 0)
        let export = try scratch.run(["export", "out/R.sqlite", "--model", "R.xcdatamodeld", "--output", "ex"])
        #expect(export.status == 66, "\(export.status) \(export.stderr)")
        #expect(export.stderr.hasSuffix(": the external file has 1099511627776 bytes, more than one value can hold (2147483647, SQLite's limit)\n"), "\(export.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("ex")))
    }
}
