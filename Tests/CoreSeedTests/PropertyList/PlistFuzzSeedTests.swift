import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// The seed corpus of the plist fuzz target (`Fuzz/corpus/plist/`, `make fuzz`): written by CoreSeed's
/// own writers (`BinaryPropertyListWriter`, `KeyedArchiver`), never taken from corpus stores (their
/// licences). `CORESEED_RECORD_FUZZ_SEEDS=1` writes the files, and then fails, as a golden record does.
@Suite struct PlistFuzzSeedTests {
    static var seeds: [(name: String, bytes: [UInt8])] {
        get throws {
            let model = try ModelVersions.load(path: TestPaths.inputs.appendingPathComponent("Carriers.xcdatamodeld").path).current
            let other: [String: PropertyListValue] = [
                "app.values": .array([.string("a"), .string("é ✓"), .integer(-3), .integer(1 << 40), .real(1.5), .boolean(true),
                                      .date(-86_400.5), .data([0, 1, 2, 255])]),
                "app.nested": .dictionary(["inner": .dictionary(["list": .array([.integer(1), .array([])])]), "empty": .dictionary([:])]),
            ]
            let plain = StoreMetadata(frameworkVersion: 1518, versionHashes: ["Item": Array(repeating: 7, count: 32)], other: other)
            let json = #"""
                {"serves": 4, "source": {"$url": "https://example.com/r?x=1"}, "when": {"$date": 726000000.25},
                 "id": {"$uuid": "0C4F2E8A-1B3D-4E5F-8A9B-0C1D2E3F4A5B"}, "raw": {"$data": "AAEC/w=="},
                 "tags": ["sweet", "sweet", "breakfast", ""], "ok": true, "no": false, "ratio": -0.5, "big": 9223372036854775807,
                 "nested": [[1, [2, [3]]], {"k": "v"}], "text": "Grüße, 日本 🍣"}
                """#
            return [
                ("metadata-carriers.bplist", StoreMetadata(model: model, frameworkVersion: 1518).binaryPropertyList()),
                ("metadata-other-keys.bplist", plain.binaryPropertyList()),
                ("archive-list.bplist", KeyedArchiver.archive(.array([.string("sweet"), .string("breakfast")]))),
                ("archive-json.bplist", KeyedArchiver.archive(try ArchivedValue.parse(json: json))),
                ("archive-scalar.bplist", KeyedArchiver.archive(.integer(42))),
            ]
        }
    }

    @Test func theCheckedInSeedsAreWhatTheWritersWrite() throws {
        let folder = TestPaths.repositoryRoot.appendingPathComponent("Fuzz/corpus/plist")
        let record = ProcessInfo.processInfo.environment["CORESEED_RECORD_FUZZ_SEEDS"] == "1"
        for (name, bytes) in try Self.seeds {
            let url = folder.appendingPathComponent(name)
            if record {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(bytes).write(to: url)
                Issue.record("recorded \(name): rerun without CORESEED_RECORD_FUZZ_SEEDS")
                continue
            }
            #expect(try [UInt8](Data(contentsOf: url)) == bytes, "\(name) differs from what the writers write (rerun with CORESEED_RECORD_FUZZ_SEEDS=1)")
            // Each seed reads back as what it is (so the fuzzer starts from inputs that get deep).
            if name.hasPrefix("metadata") {
                _ = try StoreMetadata(propertyList: bytes)
            } else {
                _ = try KeyedUnarchiver.value(bytes)
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == (try Self.seeds).map(\.name).sorted())
    }
}
