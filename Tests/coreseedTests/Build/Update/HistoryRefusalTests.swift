import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 27, item 2: `build --into` on a store that tracks persistent history is never silent. Until
/// CoreSeed records the update's history, it refuses in every mode (and in a dry run), naming what
/// would be missing and `--no-history`, which proceeds without history.
@Suite(.needsCorpus) struct HistoryRefusalTests {
    static let corpusStore = "coredataplus-samplemodel2-v1"
    static let refusal = "store.sqlite: error: the store tracks persistent history (ATRANSACTION, ACHANGE), and this update would record none of its changes there: NSPersistentCloudKitContainer would never export them and app extensions would not see them; pass --no-history to update it without history\n"

    /// A copy of the tracked corpus store (`store.sqlite`), a second copy as the model (the store has
    /// no XML model: its own cache is read), and a spec adding two authors.
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        _ = try StoreOps.copyCorpusStore(corpusStore, into: scratch.url)
        try FileManager.default.copyItem(atPath: scratch.path("store.sqlite"), toPath: scratch.path("model.sqlite"))
        try scratch.write("authors.csv", "alias,age\nzed,40\nyan,33\n")
        try scratch.write("spec.json", """
            { "model": "model.sqlite", "sources": { "authors": { "csv": "authors.csv" } },
              "entities": { "Author": { "from": "authors", "key": "alias", "attributes": { "alias": "alias", "age": "age" } } } }
            """)
        return scratch
    }

    @Test(arguments: [["--mode", "upsert"], ["--mode", "insert"], [], ["--dry-run"]])
    func anUpdateOfATrackedStoreIsRefusedAndChangesNothing(_ extra: [String]) throws {
        let scratch = try Self.prepare()
        let before = try StoreOps.contents(of: scratch.url)
        let result = try scratch.run(["build", "spec.json", "--into", "store.sqlite", "--quiet"] + extra)
        #expect(result.status == 1)
        #expect(result.stderr == Self.refusal)
        #expect(result.stdout == "")
        #expect(try StoreOps.contents(of: scratch.url) == before, "the store and its folder are as they were")
    }

    @Test func noHistoryProceedsAndRecordsNoHistory() throws {
        let scratch = try Self.prepare()
        let result = try scratch.run(["build", "spec.json", "--into", "store.sqlite", "--no-history"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("updated store.sqlite: 2 added, 0 updated, 2 kept in "))
        #expect(try scratch.query("store.sqlite", "SELECT Z_PK, ZALIAS FROM ZWRITER WHERE Z_PK > 2") == [["3", "zed"], ["4", "yan"]])
        // The history is the corpus store's: one transaction, 5,468 changes, Z_MAX unchanged.
        #expect(try scratch.query("store.sqlite", "SELECT count(*) FROM ACHANGE") == [["5468"]])
        #expect(try scratch.query("store.sqlite", "SELECT count(*) FROM ATRANSACTION") == [["1"]])
        #expect(try scratch.query("store.sqlite", "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000") == [["16001", "5468"], ["16002", "1"], ["16003", "2"]])
        let verify = try scratch.run(["verify", "store.sqlite"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }
}
