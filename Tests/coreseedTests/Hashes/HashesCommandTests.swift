import Foundation
import Testing
import CoreSeedTestSupport

@Suite struct HashesCommandTests {
    /// The exact JSON, against the hashes Core Data wrote into contentful-persistence-test (see its metadata.txt).
    @Test(.needsCorpus) func jsonEqualsTheStoreHashes() throws {
        let model = StoreOps.corpus.appendingPathComponent("contentful-persistence-test/model/Test.xcdatamodeld").path
        let result = try BinaryRunner.run(["hashes", model, "--model-version", "Test", "--json"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
            {"entities": {"Asset": "vpD7YUlwqHvePA8ShetYaIpJRDF+1LabaCdY+9kUa44=", \
            "Author": "IiMdDT7EtT5Z0FIUEB/26GQ4BNnwF141IDOJnXuymvw=", \
            "Category": "ulYIqNJzbYoR8HyUVXZ0K/PeoVqM4uqQrZ6oKCm/XaI=", \
            "Post": "/FVdB3R99EQLU4RY/wbXjU5bx6Yi9H/HJdc7ngEDtu4=", \
            "SyncInfo": "kY6NHObk/W1DaiYGcaGM9/iSeRKeMxmSElSXyThj6H8="}, \
            "digest": "6EfkCVlZYIxr4rqME2NcWHkOzc51ilRSccLKUVgC5sGO8UPQ3W5ap+9rZ5VH8VLoQ/AV38RsdRWyjtYiQ0/zfQ==", \
            "checksum": "gW5zQaDo3eKxFNsxHZ1XfyoOL+OIJRPycZs1ji8H648="}

            """)
    }

    @Test(.needsCorpus) func textListsEntitiesThenDigestAndChecksum() throws {
        let model = StoreOps.corpus.appendingPathComponent("contentful-persistence-test/model/Test.xcdatamodeld").path
        let result = try BinaryRunner.run(["hashes", model, "--model-version", "Test.xcdatamodel"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Asset vpD7YUlwqHvePA8ShetYaIpJRDF+1LabaCdY+9kUa44=")
        #expect(lines.map { $0.split(separator: " ")[0] } == ["Asset", "Author", "Category", "Post", "SyncInfo", "digest", "checksum"])
        #expect(lines.last == "checksum gW5zQaDo3eKxFNsxHZ1XfyoOL+OIJRPycZs1ji8H648=")
    }

    @Test(.needsCorpus) func unknownVersionExits66() throws {
        let model = StoreOps.corpus.appendingPathComponent("bnr-coredatastack-testmodel/model/Sample.xcdatamodeld").path
        let result = try BinaryRunner.run(["hashes", model, "--model-version", "Nope"])
        #expect(result.status == 66)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("\(model): error: no model version 'Nope' (versions: "))
    }

    @Test func missingModelExits66() throws {
        let result = try BinaryRunner.run(["hashes", "/nonexistent.xcdatamodeld"])
        #expect(result.status == 66)
        #expect(result.stderr == "/nonexistent.xcdatamodeld: error: no model at this path\n")
    }

    @Test func missingArgumentIsAUsageError() throws {
        let result = try BinaryRunner.run(["hashes"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("error: missing MODEL\nUsage: coreseed hashes MODEL"))
    }

    @Test func helpHasAnExample() throws {
        let result = try BinaryRunner.run(["hashes", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Example:\n  coreseed hashes "))
    }
}
