import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 3, whatever the byte comparison says: every archive CoreSeed writes reads back with
/// CoreSeed's own compiled-model reader to the model it came from (hashes, schema, every decoded field).
@Suite struct ModelArchiverDecodeTests {
    /// Every XML model of the corpus from framework 637, once (several stores share a model file).
    static let models: [CorpusStore] = {
        var seen = Set<String>()
        return CorpusStore.withXMLModel.filter { $0.frameworkVersion >= 637 && seen.insert($0.model + ($0.modelVersion ?? "")).inserted }
    }()

    static func check(_ source: Model, framework: Int, _ what: String) throws {
        for shape in ModelArchiver.Shape.allCases {
            let archive = ModelArchiver.archive(source, framework: framework, shape: shape)
            let stored = try RawDeflate.deflate(archive)
            let decoded = try CompiledModelReader.model(try RawDeflate.inflate(stored), versionName: source.versionName, path: what)
            #expect(ModelHashes.compute(for: decoded) == ModelHashes.compute(for: source), "\(what) \(shape)")
            let layout = FrameworkVersion(framework)
            #expect(try StoreLayout(model: decoded, framework: layout).statements == StoreLayout(model: source, framework: layout).statements, "\(what) \(shape)")
            let differences = ModelComparison.differences(decoded, source)
            #expect(differences.isEmpty, "\(what) \(shape): \(differences.prefix(8))")
        }
    }

    @Test(.needsCorpus, arguments: models)
    func corpusModelArchivesReadBack(_ entry: CorpusStore) throws {
        let source = try entry.loadModel()
        guard ModelArchiver.unsupportedFeature(source) == nil else { return }
        try Self.check(source, framework: entry.frameworkVersion, entry.name)
    }

    @Test func corpusHasSupportedModels() {
        guard Corpus.isPresent else { return }
        let supported = Self.models.filter { (try? $0.loadModel()).map { ModelArchiver.unsupportedFeature($0) == nil } ?? false }
        #expect(supported.count >= 7, "\(supported.map(\.name))")
    }

    /// A model with inheritance, every simple type and default, to-one, to-many and ordered relationships.
    @Test func handMadeModelReadsBack() throws {
        let parent = Entity(name: "Item", isAbstract: true, representedClassName: "Item", attributes: [
            Attribute(name: "title", type: .string, isOptional: false, defaultValueString: "untitled"),
            Attribute(name: "count", type: .integer64, defaultValueString: "3"),
        ])
        let child = Entity(name: "Note", parentName: "Item", representedClassName: "Note", attributes: [
            Attribute(name: "done", type: .boolean, defaultValueString: "YES"),
            Attribute(name: "score", type: .double, defaultValueString: "1.5"),
            Attribute(name: "when", type: .date),
            Attribute(name: "blob", type: .binary, allowsExternalBinaryDataStorage: true),
            Attribute(name: "id", type: .uuid, isIndexed: true),
        ], relationships: [
            Relationship(name: "tags", destinationEntity: "Tag", inverseName: "notes", inverseEntity: "Tag", isToMany: true, isOrdered: true),
        ], uniquenessConstraints: [["id"]])
        let tag = Entity(name: "Tag", representedClassName: "Tag", attributes: [Attribute(name: "name", type: .string)], relationships: [
            Relationship(name: "notes", destinationEntity: "Note", inverseName: "tags", inverseEntity: "Note", isToMany: true, deleteRule: .cascade),
            Relationship(name: "owner", destinationEntity: "Tag", inverseName: "owner", inverseEntity: "Tag", isToMany: false),
        ])
        let model = Model(versionName: "Hand", versionIdentifier: "7", entities: [parent, child, tag])
        #expect(ModelArchiver.unsupportedFeature(model) == nil)
        for framework in [637, 866, 1044, 1344] { try Self.check(model, framework: framework, "hand-made \(framework)") }
        #expect(ModelArchiver.archive(model, framework: 1344) == ModelArchiver.archive(model, framework: 1344))
    }
}
