import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 1 (first part): a store's `Z_MODELCACHE` and a compiled `.mom` read back as a
/// compiled model's outline, checked against what the store itself says of its entities.
@Suite struct CompiledModelReaderTests {
    @Test func rawDeflateRoundTripsAndIsStable() throws {
        let text = Array(String(repeating: "NSEntityDescription NSAttributeDescription ", count: 200).utf8)
        let once = try RawDeflate.deflate(text), twice = try RawDeflate.deflate(text)
        #expect(once == twice)
        #expect(once.count < text.count / 4)
        #expect(try RawDeflate.inflate(once) == text)
    }

    @Test func truncatedOrForeignStreamIsRefused() throws {
        let stream = try RawDeflate.deflate(Array(String(repeating: "model ", count: 500).utf8))
        #expect(throws: RawDeflate.Failure.self) { try RawDeflate.inflate(Array(stream.prefix(stream.count / 2))) }
        #expect(throws: RawDeflate.Failure.self) { try RawDeflate.inflate([0xFF, 0xFF, 0xFF, 0xFF]) }
        #expect(throws: RawDeflate.Failure.self) { try RawDeflate.inflate(stream, limit: 100) }
    }

    @Test func archiveOfAnotherClassIsOneClearError() throws {
        let archive = KeyedArchiver.archive(.dictionary([.init(key: "a", value: .string("b"))]))
        #expect(throws: CompiledModelReader.Failure(message: "the archive holds a NSDictionary, not a compiled model (NSManagedObjectModel)")) {
            try CompiledModelReader.entities(archive)
        }
    }

    /// Every corpus store with a `Z_MODELCACHE`: the cached model's entities are the metadata's,
    /// and on a fresh store its parents are the store's own (`Z_PRIMARYKEY`, `Z_SUPER`).
    @Test(.needsCorpus) func everyStoreCacheNamesTheStoresEntities() throws {
        var checked = 0
        for entry in CorpusStore.all {
            let (database, directory) = try entry.openCopy()
            defer { try? FileManager.default.removeItem(at: directory) }
            let hasCache = try !database.rows("SELECT 1 FROM sqlite_master WHERE name = 'Z_MODELCACHE'").isEmpty
            #expect(hasCache == (entry.frameworkVersion >= 637), "\(entry.name)")
            guard hasCache else { continue }
            var expected: [CompiledModelReader.EntityOutline] = []
            let rows = try database.rows("SELECT a.Z_NAME, b.Z_NAME FROM Z_PRIMARYKEY a LEFT JOIN Z_PRIMARYKEY b ON b.Z_ENT = a.Z_SUPER ORDER BY a.Z_NAME")
            for row in rows {
                guard case .text(let name) = row[0] else { continue }
                if case .text(let parent) = row[1] { expected.append(.init(name: name, parentName: parent)) } else { expected.append(.init(name: name, parentName: nil)) }
            }
            let archive = try StoreModelCache.archive(ofStoreAt: database.path)
            let outline = try CompiledModelReader.entities(archive)
            // The metadata names the model the store conforms to; Z_PRIMARYKEY keeps an entity's
            // name from before a migration renamed it, so parents are compared only on fresh stores.
            let metadata = try StoreMetadata.read(from: database).metadata
            #expect(outline.map(\.name) == metadata.versionHashes.keys.sorted(), "\(entry.name)")
            if !entry.migrated { #expect(outline == expected.sorted { $0.name < $1.name }, "\(entry.name)") }
            checked += 1
        }
        #expect(checked >= 18)
    }

    /// The compiled `.mom` of a corpus model names the entities its XML source does.
    @Test(.needsCorpus) func compiledMomNamesItsSourceEntities() throws {
        let folder = TestPaths.corpus.appendingPathComponent("coredataplus-samplemodel-v1/model")
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent("SampleModel.momd/SampleModel.mom")))
        let source = try ModelVersions.load(path: folder.appendingPathComponent("SampleModel.xcdatamodeld").path).version(named: "SampleModel")
        let outline = try CompiledModelReader.entities(bytes)
        #expect(outline == source.entities.map { .init(name: $0.name, parentName: $0.parentName) }.sorted { $0.name < $1.name })
        #expect(!outline.isEmpty)
    }

    @Test func storeWithoutCacheSaysSoAndHowToFix() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.sqlite").path
        try SQLiteDatabase(path: path, mode: .readWriteCreate).execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER)")
        #expect(throws: StoreModelCache.Failure.self) { try StoreModelCache.archive(ofStoreAt: path) }
        do { _ = try StoreModelCache.archive(ofStoreAt: path) } catch { #expect(error.message.contains("give its model with the `model` option"), "\(error.message)") }
    }
}
