import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

@Suite struct StoreMetadataTests {
    private static let sample = StoreMetadata(
        frameworkVersion: 1344,
        versionHashes: ["Person": [UInt8](repeating: 7, count: 32), "Car": Array(0..<32)],
        versionIdentifiers: ["1"], storeUUID: "3BD8FBD9-6C08-430E-9492-E7535CFB80C0",
        hashesDigest: "digest==", checksum: "checksum=",
        other: ["io.objc.Moody.CloudKitUserID": .string("_62a0ed"), "CoreSeedVersion": .string("0.1"),
                "nested": .dictionary(["flag": .boolean(true), "when": .date(-12.5), "ratio": .real(0.25),
                                       "list": .array([.integer(-1), .integer(70_000), .integer(Int64.max)]),
                                       "unicode": .string("Zürich ☃"), "long": .string(String(repeating: "x", count: 300))])])

    @Test func roundTripsThroughTheBinaryPlist() throws {
        let bytes = Self.sample.binaryPropertyList()
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        let read = try StoreMetadata(propertyList: bytes)
        #expect(read == Self.sample)
    }

    /// `PropertyListSerialization` on Linux gives different bytes per process for the same dictionary
    /// (checked: four runs, four outputs); our writer sorts keys, so insertion order cannot matter.
    @Test func writingIsDeterministic() throws {
        let first = Self.sample.binaryPropertyList()
        #expect(try StoreMetadata(propertyList: first).binaryPropertyList() == first)
        var forward: [String: PropertyListValue] = [:]
        var backward: [String: PropertyListValue] = [:]
        let keys = (0..<40).map { "key\($0)" }
        for key in keys { forward[key] = .string(key) }
        for key in keys.reversed() { backward[key] = .string(key) }
        let a = StoreMetadata(frameworkVersion: 1, versionHashes: [:], other: forward)
        let b = StoreMetadata(frameworkVersion: 1, versionHashes: [:], other: backward)
        #expect(a.binaryPropertyList() == b.binaryPropertyList())
    }

    @Test func autoVacuumLevelIsTheString2() throws {
        let metadata = StoreMetadata(frameworkVersion: 1344, versionHashes: [:])
        let parsed = try PropertyListSerialization.propertyList(from: Data(metadata.binaryPropertyList()), format: nil)
        let plist = try #require(parsed as? [String: Any])
        #expect(plist["_NSAutoVacuumLevel"] as? String == "2")
        #expect(plist["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(plist["NSStoreType"] as? String == "SQLite")
        #expect(plist["NSStoreModelVersionIdentifiers"] as? [String] == [""])
        #expect(plist["NSStoreUUID"] == nil)
    }

    @Test(.needsCorpus) func readsACorpusStoreAndKeepsTheAppKey() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try TestPaths.copyStore(TestPaths.corpus.appendingPathComponent("objcio-moody1/store.sqlite"), into: directory)
        let (uuid, metadata) = try StoreMetadata.read(fromStoreAt: store.path)
        #expect(uuid == "374C5961-3E41-43E5-915C-383EA914074C")
        #expect(metadata.frameworkVersion == 637)
        #expect(metadata.versionHashesVersion == 3)
        #expect(metadata.storeType == "SQLite")
        #expect(metadata.autoVacuumLevel == "2")
        #expect(metadata.other == ["io.objc.Moody.CloudKitUserID": .string("_62a0ed0ad3b375fc9ec7fdf66dfd9c63")])
        #expect(Data(metadata.versionHashes["Mood"] ?? []).base64EncodedString() == "7T9Gdak5eFpm0SwzoW8xgNweQEaUUdRpXUh2hnzAbCA=")
        // Our writer's bytes read back to the same metadata.
        #expect(try StoreMetadata(propertyList: metadata.binaryPropertyList()) == metadata)
    }

    @Test(.needsCorpus) func metadataForAModelCarriesItsHashes() throws {
        let path = TestPaths.corpus.appendingPathComponent("contentful-persistence-test/model/Test.xcdatamodeld").path
        let model = try ModelVersions.load(path: path).current
        let metadata = StoreMetadata(model: model, frameworkVersion: 1327)
        #expect(metadata.checksum == "gW5zQaDo3eKxFNsxHZ1XfyoOL+OIJRPycZs1ji8H648=")
    }

    @Test func notAPlistIsAnError() {
        #expect(throws: FileError.self) { try StoreMetadata(propertyList: Array("hello".utf8)) }
        let missing = BinaryPropertyListWriter.data(for: .dictionary(["NSStoreType": .string("SQLite")]))
        #expect(throws: FileError(message: "metadata key NSPersistenceFrameworkVersion is not an integer")) {
            try StoreMetadata(propertyList: missing)
        }
    }

    @Test func missingStoreIsAnError() {
        #expect(throws: (any Error).self) { try StoreMetadata.read(fromStoreAt: "/nonexistent/store.sqlite") }
    }
}
