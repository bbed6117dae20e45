import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// Issue 27, item 4: `inspect` says whether a store tracks persistent history and how many
/// transactions it holds; `verify` checks the history tables' consistency.
@Suite(.needsCorpus) struct HistoryVerifyTests {
    static let corpusStore = "coredataplus-samplemodel2-v1"

    /// A copy of the tracked corpus store (`store.sqlite`) and a second copy as its model.
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        _ = try StoreOps.copyCorpusStore(corpusStore, into: scratch.url)
        try FileManager.default.copyItem(atPath: scratch.path("store.sqlite"), toPath: scratch.path("model.sqlite"))
        return scratch
    }

    @Test func inspectShowsTheHistoryOfATrackedStore() throws {
        let scratch = try Self.prepare()
        let text = try scratch.run(["inspect", "store.sqlite"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("\nauto_vacuum: incremental\nsidecars: none\npersistent history: 1 transaction, 5468 changes\nmetadata "))
        let json = try scratch.run(["inspect", "store.sqlite", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(", \"externalData\": null, \"history\": {\"transactions\": 1, \"changes\": 5468}, \"metadata\": {"))
    }

    @Test func inspectSaysWhenAStoreDoesNotTrackHistory() throws {
        let scratch = try Scratch()
        _ = try StoreOps.copyCorpusStore("objcio-moody1", into: scratch.url)
        let text = try scratch.run(["inspect", "store.sqlite"])
        #expect(text.stdout.contains("\nsidecars: none\npersistent history: not tracked\nmetadata "))
        let json = try scratch.run(["inspect", "store.sqlite", "--json"])
        #expect(json.stdout.contains(", \"history\": null, \"metadata\": {"))
    }

    /// Each damage to the corpus store's history and the one line `verify` gives for it.
    @Test(arguments: [
        ("UPDATE ACHANGE SET ZTRANSACTIONID = 9 WHERE Z_PK IN (3, 4)",
         "error: persistent history: change Z_PK 3 refers to transaction 9, which ATRANSACTION does not hold (and 1 more)"),
        ("UPDATE ACHANGE SET ZTRANSACTIONID = NULL WHERE Z_PK <= 10",
         "error: persistent history: change Z_PK 1 refers to transaction NULL, which ATRANSACTION does not hold (and 5 or more others)"),
        ("UPDATE ACHANGE SET ZENTITY = 99 WHERE Z_PK = 5",
         "warning: persistent history: 1 change of entity 99, which is not an entity number of the model (1 to 6); the first: Z_PK 5"),
        ("UPDATE ACHANGE SET ZCHANGETYPE = 7 WHERE Z_PK IN (6, 8)",
         "error: persistent history: 2 changes of type 7, not 0 (insert), 1 (update) or 2 (delete); the first: Z_PK 6"),
        ("UPDATE ATRANSACTION SET ZPROCESSIDTS = 5",
         "error: persistent history: transaction Z_PK 1: ZPROCESSIDTS refers to string 5, which ATRANSACTIONSTRING does not hold"),
        ("UPDATE ACHANGE SET Z_PK = 6000 WHERE Z_PK = 1",
         "error: persistent history: ACHANGE holds Z_PK 6000, above its Z_MAX 5468 (Core Data would issue that key again)"),
        ("DELETE FROM Z_PRIMARYKEY WHERE Z_ENT = 16003",
         "error: persistent history: Z_PRIMARYKEY has no row 16003 TRANSACTIONSTRING"),
        ("DROP TABLE ATRANSACTIONSTRING",
         "error: persistent history: no ATRANSACTIONSTRING table (a store that tracks history has ACHANGE, ATRANSACTION, ATRANSACTIONSTRING)"),
        ("ALTER TABLE ACHANGE DROP COLUMN ZCOLUMNS",
         "error: persistent history: ACHANGE lacks ZCOLUMNS"),
    ])
    func verifyFindsDamagedHistory(_ damage: String, _ line: String) throws {
        let scratch = try Self.prepare()
        let clean = try scratch.run(["verify", "store.sqlite", "--model", "model.sqlite"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(!clean.stdout.contains("history") && !clean.stderr.contains("history"))
        let database = try SQLiteDatabase(path: scratch.path("store.sqlite"), mode: .readWrite)
        try database.execute(damage)
        let result = try scratch.run(["verify", "store.sqlite", "--model", "model.sqlite"])
        let said = (result.stdout + result.stderr).split(separator: "\n").filter { $0.contains("persistent history") }
        #expect(said == ["store.sqlite: " + line[...]], "\(result.stdout)\(result.stderr)")
        #expect(result.status == (line.hasPrefix("error") ? 1 : 0))
    }
}
