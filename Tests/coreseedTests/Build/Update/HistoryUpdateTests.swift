import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 27, item 2: `build --into` on a store that tracks persistent history is never silent. An
/// update records its new rows as insert changes and its changes of stored attribute values as update
/// changes, in one transaction, as Core Data would; one that changes stored objects' relationships
/// (keys, new rows or join rows linking stored ones) is refused, naming what would be missing and
/// `--no-history`, which proceeds without history.
@Suite(.needsCorpus) struct HistoryUpdateTests {
    static let corpusStore = "coredataplus-samplemodel2-v1"

    /// A copy of the tracked corpus store (`store.sqlite`), a second copy as the model (the store has
    /// no XML model: its own cache is read), and a spec adding or updating authors from `authors.csv`.
    static func prepare(authors: String = "alias,age\nzed,40\nyan,33\n") throws -> Scratch {
        let scratch = try Scratch()
        _ = try StoreOps.copyCorpusStore(corpusStore, into: scratch.url)
        try FileManager.default.copyItem(atPath: scratch.path("store.sqlite"), toPath: scratch.path("model.sqlite"))
        try scratch.write("authors.csv", authors)
        try scratch.write("spec.json", """
            { "model": "model.sqlite", "sources": { "authors": { "csv": "authors.csv" } },
              "entities": { "Author": { "from": "authors", "key": "alias", "attributes": { "alias": "alias", "age": "age" } } } }
            """)
        return scratch
    }

    @Test(arguments: [["--mode", "upsert"], ["--mode", "insert"], []])
    func newRowsAreRecordedAsTheStoresNextTransaction(_ extra: [String]) throws {
        let scratch = try Self.prepare()
        let result = try scratch.run(["build", "spec.json", "--into", "store.sqlite", "--quiet"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("store.sqlite", "SELECT Z_PK, Z_ENT, ZALIAS FROM ZWRITER WHERE Z_PK > 2") == [["3", "6", "zed"], ["4", "6", "yan"]])
        // The corpus store's transaction and changes stay; ours follow, numbered above their Z_MAX.
        #expect(try scratch.query("store.sqlite", "SELECT Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE WHERE Z_PK > 5468") == [
            ["5469", "16001", "NULL", "0", "6", "3", "2", "NULL"], ["5470", "16001", "NULL", "0", "6", "4", "2", "NULL"],
        ])
        #expect(try scratch.query("store.sqlite", "SELECT count(*) FROM ACHANGE WHERE ZTRANSACTIONID = 1") == [["5468"]])
        #expect(try scratch.query("store.sqlite", "SELECT Z_PK, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP FROM ATRANSACTION") == [
            ["1", "NULL", "1", "NULL", "2", "737057647.288022"], ["2", "3", "4", "NULL", "3", "737057647.288022"],
        ])
        #expect(try scratch.query("store.sqlite", "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING ORDER BY Z_PK") == [
            ["1", "com.apple.dt.xctest.tool"], ["2", "xctest"], ["3", "coreseed"], ["4", "org.coreseed.coreseed"],
        ])
        #expect(try scratch.query("store.sqlite", "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000") == [["16001", "5470"], ["16002", "2"], ["16003", "4"]])
        let verify = try scratch.run(["verify", "store.sqlite"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func aStoredStringIsReusedAndTheAuthorIsRecorded() throws {
        let scratch = try Self.prepare()
        // SOURCE_DATE_EPOCH after the stored transaction's date is taken as it is (2024-05-12 00:00:00 UTC).
        let result = try BinaryRunner.run(["build", "spec.json", "--into", "store.sqlite", "--quiet", "--author", "xctest"],
                                          in: scratch.url, environment: ["SOURCE_DATE_EPOCH": "1715472000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("store.sqlite", "SELECT ZTIMESTAMP FROM ATRANSACTION WHERE Z_PK = 2") == [["737164800.0"]])
        #expect(try scratch.query("store.sqlite", "SELECT ZAUTHORTS, ZBUNDLEIDTS, ZPROCESSIDTS FROM ATRANSACTION WHERE Z_PK = 2") == [["2", "3", "4"]])
        #expect(try scratch.query("store.sqlite", "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK > 2") == [["3", "org.coreseed.coreseed"], ["4", "coreseed"]])
    }

    /// An update of a stored object's attribute values is recorded as Core Data records it: an update
    /// change whose `ZCOLUMNS` marks the changed attributes. Author's bits: Writer's `age`, then its own
    /// `alias`, `siteURL` (by name), then its to-many `books`: 4 bits, one byte; `age` is the first.
    @Test func anAttributeUpdateIsRecordedAsAnUpdateChange() throws {
        let scratch = try Self.prepare(authors: "alias,age\nzed,40\nAndrea,31\n")
        let result = try scratch.run(["build", "spec.json", "--into", "store.sqlite", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("store.sqlite", "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, hex(ZCOLUMNS) FROM ACHANGE WHERE Z_PK > 5468") == [
            ["5469", "0", "6", "3", "2", ""], ["5470", "1", "6", "1", "2", "80"],
        ])
        #expect(try scratch.query("store.sqlite", "SELECT ZAGE FROM ZWRITER WHERE ZALIAS = 'Andrea'") == [["31"]])
        #expect(try scratch.query("store.sqlite", "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001") == [["5470"]])
        let verify = try scratch.run(["verify", "store.sqlite"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// Two attributes of one object changed: both bits.
    @Test func twoChangedAttributesAreTwoBits() throws {
        let scratch = try Self.prepare(authors: "alias,age,site\nAndrea,31,https://example.org\n")
        try scratch.write("spec.json", """
            { "model": "model.sqlite", "sources": { "authors": { "csv": "authors.csv" } },
              "entities": { "Author": { "from": "authors", "key": "alias", "attributes": { "alias": "alias", "age": "age", "siteURL": "site" } } } }
            """)
        let result = try scratch.run(["build", "spec.json", "--into", "store.sqlite", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try scratch.query("store.sqlite", "SELECT ZCHANGETYPE, ZENTITYPK, hex(ZCOLUMNS) FROM ACHANGE WHERE Z_PK > 5468") == [["1", "1", "A0"]])
    }

    @Test func noHistoryProceedsAndRecordsNoHistory() throws {
        let scratch = try Self.prepare(authors: "alias,age\nzed,40\nAndrea,31\n")
        let result = try scratch.run(["build", "spec.json", "--into", "store.sqlite", "--no-history"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("updated store.sqlite: 1 added, 1 updated, 1 kept in "))
        // The history is the corpus store's: one transaction, 5,468 changes, Z_MAX unchanged.
        #expect(try scratch.query("store.sqlite", "SELECT count(*) FROM ACHANGE") == [["5468"]])
        #expect(try scratch.query("store.sqlite", "SELECT count(*) FROM ATRANSACTION") == [["1"]])
        #expect(try scratch.query("store.sqlite", "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000") == [["16001", "5468"], ["16002", "1"], ["16003", "2"]])
        let verify = try scratch.run(["verify", "store.sqlite"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }
}

/// The same on a tracked store of a model of our own, with relationships: new rows that refer to stored
/// ones change the stored objects too, so the update is refused; new rows among themselves are recorded.
@Suite struct HistoryLinkedUpdateTests {
    static func prepare() throws -> Scratch {
        let scratch = try Scratch()
        try scratch.writeModel("Atlas", """
            <entity name="Country"><attribute name="code" attributeType="String"/>
              <relationship name="cities" optional="YES" toMany="YES" destinationEntity="City" inverseName="country" inverseEntity="City"/>
              <relationship name="partners" optional="YES" toMany="YES" destinationEntity="Country" inverseName="partners" inverseEntity="Country"/></entity>
            <entity name="City"><attribute name="name" attributeType="String"/>
              <relationship name="country" optional="YES" maxCount="1" destinationEntity="Country" inverseName="cities" inverseEntity="Country"/></entity>
            """)
        try scratch.write("countries.csv", "code,partners\nfr,\nde,fr\n")
        try scratch.write("cities.csv", "name,country\nParis,fr\nBerlin,de\n")
        try scratch.write("seed.json", """
            { "model": "Atlas.xcdatamodeld", "output": "Atlas.sqlite", "historyTracking": true,
              "sources": { "countries": { "csv": "countries.csv" }, "cities": { "csv": "cities.csv" } },
              "entities": { "Country": { "from": "countries", "key": "code", "relationships": { "partners": { "key": "partners" } } },
                            "City": { "from": "cities", "key": "name", "relationships": { "country": { "key": "country" } } } } }
            """)
        let build = try scratch.run(["build", "seed.json", "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        return scratch
    }

    /// The update spec: countries and cities from the given CSV text.
    static func update(_ scratch: Scratch, countries: String, cities: String) throws {
        try scratch.write("new-countries.csv", countries)
        try scratch.write("new-cities.csv", cities)
        try scratch.write("update.json", """
            { "model": "Atlas.xcdatamodeld",
              "sources": { "countries": { "csv": "new-countries.csv" }, "cities": { "csv": "new-cities.csv" } },
              "entities": { "Country": { "from": "countries", "key": "code", "relationships": { "partners": { "key": "partners" } } },
                            "City": { "from": "cities", "key": "name", "relationships": { "country": { "key": "country" } } } } }
            """)
    }

    @Test func newRowsLinkedAmongThemselvesAreRecorded() throws {
        let scratch = try Self.prepare()
        try Self.update(scratch, countries: "code,partners\nit,es\nes,\n", cities: "name,country\nRome,it\nMadrid,es\n")
        let result = try scratch.run(["build", "update.json", "--into", "Atlas.sqlite", "--mode", "insert", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        // City is entity 1, Country 2: the seed's changes 1-4, this update's 5-8 in transaction 2.
        #expect(try scratch.query("Atlas.sqlite", "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID FROM ACHANGE WHERE Z_PK > 4") == [
            ["5", "0", "1", "3", "2"], ["6", "0", "1", "4", "2"], ["7", "0", "2", "3", "2"], ["8", "0", "2", "4", "2"],
        ])
        #expect(try scratch.query("Atlas.sqlite", "SELECT count(*) FROM ATRANSACTION") == [["2"]])
        let verify = try scratch.run(["verify", "Atlas.sqlite", "--model", "Atlas.xcdatamodeld", "--strict"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// `export --spec` of a tracked store says `"historyTracking": true`: the rebuilt store tracks
    /// history too, its rows one transaction (the store's own transactions are not exported).
    @Test func exportSpecOfATrackedStoreRebuildsATrackedStore() throws {
        let scratch = try Self.prepare()
        let export = try scratch.run(["export", "Atlas.sqlite", "--model", "Atlas.xcdatamodeld", "--output", "export", "--spec"])
        #expect(export.status == 0, "\(export.stderr)")
        let spec = try String(contentsOfFile: scratch.path("export/seed.json"), encoding: .utf8)
        #expect(spec.contains("\n  \"historyTracking\": true,\n"), "\(spec.prefix(300))")
        let rebuild = try BinaryRunner.run(["build", "seed.json", "--output", scratch.path("Rebuilt.sqlite"), "--quiet"], in: scratch.url.appendingPathComponent("export"))
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        let history = "SELECT ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID FROM ACHANGE ORDER BY Z_PK"
        #expect(try scratch.query("Rebuilt.sqlite", history) == scratch.query("Atlas.sqlite", history))
        #expect(try scratch.query("Rebuilt.sqlite", "SELECT count(*) FROM ATRANSACTION") == [["1"]])
    }

    @Test(arguments: [
        ("code,partners\n", "name,country\nLyon,fr\nMunich,de\n", "2 new rows refer to stored rows, through City.country"),
        ("code,partners\nit,fr\n", "name,country\n", "1 new join row links a stored row, through Country.partners"),
    ])
    func newRowsThatChangeStoredObjectsAreRefused(_ countries: String, _ cities: String, _ said: String) throws {
        let scratch = try Self.prepare()
        try Self.update(scratch, countries: countries, cities: cities)
        let before = try Data(contentsOf: scratch.url.appendingPathComponent("Atlas.sqlite"))
        let result = try scratch.run(["build", "update.json", "--into", "Atlas.sqlite", "--mode", "insert", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr == "Atlas.sqlite: error: the store tracks persistent history, and this update changes stored objects (\(said)), which Core Data records as update changes whose column bitmap (ZCOLUMNS) CoreSeed cannot yet write for relationships; nothing was replaced: update only attribute values and new rows that do not refer to stored ones, or pass --no-history to update it without history\n")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("Atlas.sqlite")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
                == ["Atlas.sqlite", "Atlas.xcdatamodeld", "cities.csv", "countries.csv", "new-cities.csv", "new-countries.csv", "seed.json", "update.json"])
    }

    /// A stored city moved to another stored country: a relationship change, still refused.
    @Test func aStoredRowsRelationshipChangeIsRefused() throws {
        let scratch = try Self.prepare()
        try Self.update(scratch, countries: "code,partners\n", cities: "name,country\nParis,de\n")
        let result = try scratch.run(["build", "update.json", "--into", "Atlas.sqlite", "--quiet"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("this update changes stored objects (1 stored row's relationships updated, first City Z_PK 1, City.country)"), "\(result.stderr)")
    }

    /// `--mode sync` on a tracked store: deletions cannot be recorded yet, so a sync that deletes is
    /// refused with nothing changed (its dry run says so), and `--no-history` deletes without history.
    @Test func aSyncThatDeletesIsRefusedUnlessWithoutHistory() throws {
        let scratch = try Self.prepare()
        try Self.update(scratch, countries: "code,partners\nfr,\nde,fr\n", cities: "name,country\nParis,fr\n")
        let before = try Data(contentsOf: scratch.url.appendingPathComponent("Atlas.sqlite"))
        let refused = try scratch.run(["build", "update.json", "--into", "Atlas.sqlite", "--mode", "sync", "--allow-deletes"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the store tracks persistent history and the sync would delete 1 row(s), which CoreSeed cannot record in it yet"), "\(refused.stderr)")
        #expect(refused.stderr.contains("pass --no-history to delete them without history"), "\(refused.stderr)")
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("Atlas.sqlite")) == before)
        let dry = try scratch.run(["build", "update.json", "--into", "Atlas.sqlite", "--mode", "sync", "--allow-deletes", "--dry-run"])
        #expect(dry.stderr.contains("the run would stop here"), "\(dry.stderr)")
        let deleted = try scratch.run(["build", "update.json", "--into", "Atlas.sqlite", "--mode", "sync", "--allow-deletes", "--no-history", "--quiet"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try scratch.query("Atlas.sqlite", "SELECT ZNAME FROM ZCITY") == [["Paris"]])
        #expect(try scratch.query("Atlas.sqlite", "SELECT count(*) FROM ATRANSACTION") == [["1"]])
    }
}
