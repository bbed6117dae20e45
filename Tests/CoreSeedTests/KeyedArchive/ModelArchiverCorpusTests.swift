import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 3: CoreSeed's archive of a model, against the `Z_MODELCACHE` Core Data wrote for the
/// same model, store by store (every fresh corpus store from framework 637 with its XML source).
/// The report lists each store's result; the test pins which stores match, so a change that loses
/// (or gains) one is seen.
@Suite(.needsCorpus) struct ModelArchiverCorpusTests {
    /// The fresh (not migrated) corpus stores from 637 whose model source is XML.
    static let fresh: [CorpusStore] = CorpusStore.withXMLModel.filter { $0.frameworkVersion >= 637 && !$0.migrated }
    /// The migrated ones: Core Data archived the model it migrated to, the XML source's current version.
    static let migrated: [CorpusStore] = CorpusStore.withXMLModel.filter { $0.frameworkVersion >= 637 && $0.migrated }

    /// The stores whose cache CoreSeed's archive reproduces byte for byte, with the shape that does it.
    static let expectedMatches: [String: String] = [
        "iqtodolist": "loaded", "contentful-persistence-test": "loaded", "coredataplus-samplemodel3-v1": "loaded+sharedClassNames",
        "bnr-coredatastack-testmodel": "copied", "coredataplus-2018-samplemodel-v1": "loaded",
        "wibosco-migration-1": "copied", "wibosco-migration-2": "copied", "jeffreybergier-migration-v1.0.0": "copied",
        "ddg-bookmarks-v2": "loaded+sharedClassNames", "coredataplus-2018-samplemodel-v2": "migrated",
    ]

    /// Where the model Core Data held is known to differ from the XML source in a way the source cannot
    /// show, the model as held. `coredataplus-2018-samplemodel-v2`'s cache names no class for any of its
    /// four entities (the XML source names one for each: the test suite migrated with a model whose class
    /// names were cleared); everything else is compared as the source gives it.
    static func heldModel(_ entry: CorpusStore, _ model: Model) -> Model {
        guard entry.name == "coredataplus-2018-samplemodel-v2" else { return model }
        var held = model
        for index in held.entities.indices { held.entities[index].representedClassName = nil }
        return held
    }

    /// The cache of `entry`, decompressed.
    static func cache(_ entry: CorpusStore) throws -> [UInt8] {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = try TestPaths.copyStore(entry.storeURL, into: directory)
        return try StoreModelCache.archive(ofStoreAt: copy.path)
    }

    /// Per store: the shape that matches, else each shape's first difference.
    static func compare(_ entry: CorpusStore) throws -> (match: String?, report: String) {
        let expected = try cache(entry)
        let model = heldModel(entry, try entry.loadModel())
        var lines: [String] = []
        let dump = ProcessInfo.processInfo.environment["CORESEED_ARCHIVE_DUMP"]
        for shape in ModelArchiver.Shape.allCases {
            for shared in [false, true] {
                let variant = shape.rawValue + (shared ? "+sharedClassNames" : "")
                let actual = ModelArchiver.archive(model, framework: entry.frameworkVersion, shape: shape, sharedClassNames: shared)
                if let dump {
                    let folder = URL(fileURLWithPath: dump).appendingPathComponent(entry.name)
                    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try? Data(actual).write(to: folder.appendingPathComponent("ours-\(variant).bplist"))
                }
                guard let difference = ArchiveDifference.first(expected: expected, actual: actual) else {
                    return (variant, "\(entry.name) (\(entry.frameworkVersion)): match, \(variant)")
                }
                lines.append("\(variant): \(difference)")
            }
        }
        let unsupported = ModelArchiver.unsupportedFeature(model).map { " [unproven: \($0)]" } ?? ""
        return (nil, "\(entry.name) (\(entry.frameworkVersion)): differs\(unsupported)\n    " + lines.joined(separator: "\n    "))
    }

    @Test func corpusStoresAreListed() {
        #expect(Self.fresh.count >= 20)
    }

    /// The per-store table; the matched set equals ``expectedMatches``.
    @Test func archivesAgainstCorpusCaches() throws {
        var matches: [String: String] = [:]
        var report: [String] = []
        for entry in Self.fresh + Self.migrated {
            let (match, line) = try Self.compare(entry)
            if let match { matches[entry.name] = match }
            report.append(line)
        }
        print("Z_MODELCACHE archive comparison:\n" + report.joined(separator: "\n"))
        #expect(matches == Self.expectedMatches, "\(report.joined(separator: "\n"))")
    }
}
