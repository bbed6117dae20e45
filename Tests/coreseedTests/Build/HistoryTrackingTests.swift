import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 27, item 3: `"historyTracking": true` gives a new store Core Data's persistent-history tables,
/// exactly as the tracked corpus store has them, and records the seed as one transaction with one
/// insert change per row.
@Suite(.needsCorpus) struct HistoryTrackingTests {
    static let corpusStore = "coredataplus-samplemodel2-v1"
    /// The history tables and their indexes in `sqlite_master` order.
    static let historySchema = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name IN ('ACHANGE', 'ATRANSACTION', 'ATRANSACTIONSTRING') ORDER BY rowid"

    /// The corpus store's model (read from its own cache) and a spec seeding two authors and three
    /// feedbacks into `new.sqlite`; `extra` adds spec keys.
    static func prepare(extra: String = "\"historyTracking\": true,") throws -> Scratch {
        let scratch = try Scratch()
        let store = try StoreOps.copyCorpusStore(corpusStore, into: scratch.url)
        try FileManager.default.moveItem(atPath: store, toPath: scratch.path("model.sqlite"))
        try scratch.write("authors.csv", "alias,age\nzed,40\nyan,33\n")
        try scratch.write("feedback.csv", "comment,alias,rating\nGreat,zed,4.5\nMeh,yan,2\nFine,zed,3\n")
        try scratch.write("spec.json", """
            { "model": "model.sqlite", "output": "new.sqlite", \(extra)
              "sources": { "authors": { "csv": "authors.csv" }, "feedback": { "csv": "feedback.csv" } },
              "entities": { "Author": { "from": "authors", "key": "alias", "attributes": { "alias": "alias", "age": "age" } },
                            "Feedback": { "from": "feedback", "key": "comment", "attributes": {
                                "comment": "comment", "authorAlias": "alias", "rating": "rating", "bookID": { "uuid": "fromKey" } } } } }
            """)
        return scratch
    }

    @Test func theHistoryTablesAndIndexesAreTheCorpusStoresToTheLetter() throws {
        let scratch = try Self.prepare()
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let corpus = try scratch.query("model.sqlite", Self.historySchema)
        #expect(corpus.count == 11, "3 tables and 8 indexes in the corpus store")
        #expect(try scratch.query("new.sqlite", Self.historySchema) == corpus)
        // After Core Data's own tables, as in the corpus store.
        let order = "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('Z_MODELCACHE', 'ACHANGE') ORDER BY rowid"
        #expect(try scratch.query("new.sqlite", order) == scratch.query("model.sqlite", order))
        let entities = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT"
        #expect(try scratch.query("new.sqlite", entities) == scratch.query("model.sqlite", entities))
        let verify = try scratch.run(["verify", "new.sqlite", "--model", "model.sqlite"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func theSeedIsOneTransactionWithOneInsertChangePerRow() throws {
        let scratch = try Self.prepare()
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        // Every row once, in entity-number then Z_PK order: Feedback is entity 3, Author 6.
        #expect(try scratch.query("new.sqlite", "SELECT Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE ORDER BY Z_PK") == [
            ["1", "16001", "NULL", "0", "3", "1", "1", "NULL"], ["2", "16001", "NULL", "0", "3", "2", "1", "NULL"],
            ["3", "16001", "NULL", "0", "3", "3", "1", "NULL"],
            ["4", "16001", "NULL", "0", "6", "1", "1", "NULL"], ["5", "16001", "NULL", "0", "6", "2", "1", "NULL"],
        ])
        #expect(try scratch.query("new.sqlite", "SELECT count(*) FROM ZFEEDBACK") == [["3"]])
        #expect(try scratch.query("new.sqlite", "SELECT count(*) FROM ZWRITER") == [["2"]])
        // Strings once each: the author and the process are both "coreseed" (the unique index on ZNAME).
        #expect(try scratch.query("new.sqlite", """
            SELECT t.Z_PK, t.Z_ENT, t.Z_OPT, a.ZNAME, b.ZNAME, t.ZCONTEXTNAMETS, p.ZNAME, t.ZTIMESTAMP, t.ZAUTHOR, t.ZBUNDLEID, t.ZCONTEXTNAME, t.ZPROCESSID, t.ZQUERYGEN
            FROM ATRANSACTION t JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS
            JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS
            """) == [["1", "16002", "NULL", "coreseed", "org.coreseed.coreseed", "NULL", "coreseed", "0.0", "NULL", "NULL", "NULL", "NULL", "NULL"]])
        #expect(try scratch.query("new.sqlite", "SELECT Z_PK, Z_ENT, Z_OPT, ZNAME FROM ATRANSACTIONSTRING ORDER BY Z_PK") == [
            ["1", "16003", "NULL", "coreseed"], ["2", "16003", "NULL", "org.coreseed.coreseed"],
        ])
        #expect(try scratch.query("new.sqlite", "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT") == [
            ["16001", "5"], ["16002", "1"], ["16003", "2"],
        ])
    }

    @Test func authorAndSourceDateEpochAreRecordedAndBuildsAreByteIdentical() throws {
        let scratch = try Self.prepare()
        let arguments = ["build", "spec.json", "--quiet", "--author", "importer"]
        let environment = ["SOURCE_DATE_EPOCH": "1700000000"]
        let first = try BinaryRunner.run(arguments, in: scratch.url, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let bytes = try Data(contentsOf: scratch.url.appendingPathComponent("new.sqlite"))
        // 1700000000 s since 1970 is 721692800 s since 2001.
        #expect(try scratch.query("new.sqlite", "SELECT a.ZNAME, t.ZTIMESTAMP FROM ATRANSACTION t JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS") == [["importer", "721692800.0"]])
        #expect(try scratch.query("new.sqlite", "SELECT ZNAME FROM ATRANSACTIONSTRING ORDER BY Z_PK") == [["importer"], ["org.coreseed.coreseed"], ["coreseed"]])
        let second = try BinaryRunner.run(arguments, in: scratch.url, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("new.sqlite")) == bytes)
    }

    @Test func withoutTheKeyAStoreHasNoHistory() throws {
        let scratch = try Self.prepare(extra: "")
        let build = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(try scratch.query("new.sqlite", Self.historySchema) == [])
        #expect(try scratch.query("new.sqlite", "SELECT count(*) FROM Z_PRIMARYKEY WHERE Z_ENT > 16000") == [["0"]])
    }

    @Test func anUpdateThatChangesNothingRecordsNoTransaction() throws {
        let scratch = try Self.prepare()
        #expect(try scratch.run(["build", "spec.json", "--quiet"]).status == 0)
        let update = try scratch.run(["build", "spec.json", "--into", "new.sqlite"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.hasPrefix("updated new.sqlite: 0 added, 0 updated, 5 kept in "))
        #expect(try scratch.query("new.sqlite", "SELECT count(*) FROM ATRANSACTION") == [["1"]])
        #expect(try scratch.query("new.sqlite", "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT") == [
            ["16001", "5"], ["16002", "1"], ["16003", "2"],
        ])
    }

    @Test func badHistoryInputsAreRefusedBeforeAnyWork() throws {
        let scratch = try Self.prepare(extra: "\"historyTracking\": true, \"frameworkVersion\": 1000,")
        let old = try scratch.run(["build", "spec.json", "--quiet"])
        #expect(old.status == 1)
        #expect(old.stderr == "spec.json: error: at historyTracking: the history tables are known from a store of framework 1344 (docs/LAYOUT.md), not from 1000; leave frameworkVersion out or set it to 1344 or later\n")
        let epoch = try BinaryRunner.run(["build", "spec.json", "--quiet"], in: scratch.url, environment: ["SOURCE_DATE_EPOCH": "yesterday"])
        #expect(epoch.status == 64)
        #expect(epoch.stderr == "error: SOURCE_DATE_EPOCH must be whole seconds since 1970, not 'yesterday': set it to a number (git log -1 --format=%ct) or unset it\n")
        let author = try scratch.run(["build", "spec.json", "--author", ""])
        #expect(author.status == 64)
        #expect(author.stderr.hasPrefix("error: --author needs a name, not an empty one\n"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("new.sqlite")))
    }
}
