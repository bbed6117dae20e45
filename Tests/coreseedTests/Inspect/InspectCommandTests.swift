import Foundation
import Testing
import CoreSeed
import CoreSeedTestSupport

/// End-to-end: `coreseed inspect` on a corpus store copy and on a built store.
@Suite(.serialized) struct InspectCommandTests {
    @Test(.needsCorpus) func corpusStoreShowsMetadataEntitiesAndCounts() throws {
        let scratch = try Scratch()
        _ = try StoreOps.copyCorpusStore("objcio-moody1", into: scratch.url)
        let before = try StoreOps.contents(of: scratch.url)
        let result = try scratch.run(["inspect", "store.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // Core Data left this store in WAL mode (header bytes 18/19 are 2/2), checkpointed, without sidecars.
        #expect(Array(lines.prefix(6)) == ["store: store.sqlite", "uuid: 374C5961-3E41-43E5-915C-383EA914074C",
                                           "journal mode: wal", "page size: 4096", "auto_vacuum: incremental", "sidecars: none"])
        #expect(lines.contains("metadata NSPersistenceFrameworkVersion: 637"))
        #expect(lines.contains("metadata io.objc.Moody.CloudKitUserID: \"_62a0ed0ad3b375fc9ec7fdf66dfd9c63\""))
        #expect(lines.filter { $0.hasPrefix("metadata NSStoreModelVersionHashes.") }.count == 4)
        #expect(lines.filter { $0.hasPrefix("entity ") } == [
            "entity 1 GeographicRegion super 0 max 36 rows 0",
            "entity 2 Continent super 1 max 0 rows 2",
            "entity 3 Country super 1 max 0 rows 3",
            "entity 4 Mood super 0 max 116 rows 4",
        ])
        #expect(try StoreOps.contents(of: scratch.url) == before)
    }

    @Test(.needsCorpus) func walStoreCountsRowsInItsWALAndListsSidecars() throws {
        let scratch = try Scratch()
        let source = try StoreOps.copyCorpusStore("objcio-moody1", into: scratch.url)
        let (writer, _) = try BackupCommandTests.walWriter(source)
        let result = try scratch.run(["inspect", "store.sqlite"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("journal mode: wal"))
        #expect(lines.contains { $0.hasPrefix("sidecar: store.sqlite-wal (") })
        #expect(lines.contains { $0.hasPrefix("sidecar: store.sqlite-shm (") })
        #expect(lines.contains("entity 4 Mood super 0 max 119 rows 7"))
        withExtendedLifetime(writer) {}
    }

    @Test func builtStoreAndJSON() throws {
        let scratch = try Scratch()
        let build = try BinaryRunner.run(["build", "Inputs/seed.json", "--output", scratch.path("carriers.sqlite"), "--quiet"])
        #expect(build.status == 0, "\(build.stderr)")
        let text = try scratch.run(["inspect", "carriers.sqlite"])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("entity ") } == [
            "entity 1 AccessPoint super 0 max 1304 rows 1304",
            "entity 2 Country super 0 max 154 rows 154",
            "entity 3 Flag super 0 max 150 rows 150",
            "entity 4 Network super 0 max 818 rows 818",
            "entity 5 Provider super 0 max 700 rows 700",
        ])
        #expect(lines.contains("metadata CoreSeedVersion: \"20230416\""))
        #expect(lines.contains("metadata NSStoreModelVersionIdentifiers: [\"1\"]"))
        #expect(lines.contains("journal mode: rollback") && lines.contains("sidecars: none"))
        #expect(lines.last == "coreseed: \(CoreSeedInfo.version)")

        let json = try scratch.run(["inspect", "carriers.sqlite", "--json"])
        #expect(json.status == 0)
        #expect(json.stdout.hasPrefix("{\"store\": \"carriers.sqlite\", \"uuid\": "))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["journalMode"] as? String == "rollback")
        #expect(object["pageSize"] as? Int == 4096)
        #expect(object["autoVacuum"] as? String == "incremental")
        #expect((object["sidecars"] as? [Any])?.isEmpty == true)
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["NSPersistenceFrameworkVersion"] as? Int == 1518)
        #expect(metadata["NSPersistenceMaximumFrameworkVersion"] as? Int == 1518)
        #expect(metadata["CoreSeedVersion"] as? String == "20230416")
        let entities = try #require(object["entities"] as? [[String: Any]])
        #expect(entities.map { "\($0["number"]!) \($0["name"]!) \($0["super"]!) \($0["max"]!) \($0["rows"]!)" }
                == ["1 AccessPoint 0 1304 1304", "2 Country 0 154 154", "3 Flag 0 150 150", "4 Network 0 818 818", "5 Provider 0 700 700"])
        #expect(json.stdout.hasSuffix("], \"coreseed\": \"\(CoreSeedInfo.version)\"}\n"))
    }

    @Test func errors() throws {
        let scratch = try Scratch()
        let missing = try scratch.run(["inspect", "nope.sqlite"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "nope.sqlite: error: no store at this path\n")
        let usage = try scratch.run(["inspect"])
        #expect(usage.status == 64)
        #expect(usage.stderr == "error: missing STORE\nUsage: coreseed inspect STORE [--json] [--timeout SECONDS]\nsee 'coreseed inspect --help'\n")
    }
}
