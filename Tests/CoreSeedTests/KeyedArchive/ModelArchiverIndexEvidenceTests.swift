import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 3: the evidence for archiving a model file's indexed attributes and legacy compound
/// indexes (Carriers' `Network`). Only Wire's caches hold them, and they differ from CoreSeed's archive
/// elsewhere (proxies, Undefined attributes), so they are compared entity by entity: each entity's
/// `NSFetchIndexDescriptions` and `NSCompoundIndexes` in the cache equal CoreSeed's, down to the keys in
/// written order and every value (back references to the entity and the index left out).
@Suite(.needsCorpus) struct ModelArchiverIndexEvidenceTests {
    /// Entity name → its two index keys written out, for every entity of `archive` that has them.
    static func indexes(_ archive: [UInt8]) throws -> [String: String] {
        let (plist, objects, _) = try KeyedUnarchiver.header(archive)
        typealias Evidence = ModelArchiverAttributeEvidenceTests
        func describe(_ reference: Int) throws -> String {
            try Evidence.describe(plist, objects, reference, depth: 8, skipping: ["NSEntity", "NSFetchIndexDescription"])
        }
        var found: [String: String] = [:]
        for reference in objects where try Evidence.className(plist, objects, reference) == "NSEntityDescription" {
            guard case .dictionary(let entries) = try plist.object(reference), let name = entries["NSEntityName"],
                  let fetchIndexes = entries["NSFetchIndexDescriptions"], let compound = entries["NSCompoundIndexes"] else { continue }
            found[try describe(name)] = "fetch \(try describe(fetchIndexes)) compound \(try describe(compound))"
        }
        return found
    }

    /// Wire's migrated stores from 847 (the fetch-index form): every entity's indexes as CoreSeed
    /// archives them in the shape of a migrated model.
    @Test(arguments: ["wire-store2-39-0", "wire-store2-66-0", "wire-store2-95-0"])
    func eachEntityHasItsIndexes(_ name: String) throws {
        let entry = try #require(CorpusStore.withXMLModel.first { $0.name == name })
        let model = try entry.loadModel()
        let cache = try Self.indexes(try ModelArchiverCorpusTests.cache(entry))
        let ours = try Self.indexes(ModelArchiver.archive(model, framework: entry.frameworkVersion, shape: .migrated))
        #expect(cache.count == model.entities.count, "every entity has both keys")
        #expect(cache.values.contains { $0.contains("compound <NSMutableArray>{NS.objects=[<NSMutableArray>") }, "a legacy compound index is among them")
        for (entity, written) in cache.sorted(by: { $0.key < $1.key }) {
            #expect(ours[entity] == written, "\(name) \(entity)")
        }
    }
}
