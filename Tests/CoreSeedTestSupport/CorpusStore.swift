import Foundation
import CoreSeed

/// One entry of the corpus's `index.json` (`Corpus`); tests that use one carry `.needsCorpus`.
public struct CorpusStore: Sendable, CustomStringConvertible {
    public let name: String
    public let store: String
    public let model: String
    public let modelVersion: String?
    public let frameworkVersion: Int
    public let xmlModel: Bool
    /// The app migrated this store in place: its SQL text keeps history a fresh store lacks (§4b.8).
    public let migrated: Bool

    public var description: String { name }

    public init(name: String, store: String, model: String, modelVersion: String?, frameworkVersion: Int,
                xmlModel: Bool, migrated: Bool) {
        self.name = name
        self.store = store
        self.model = model
        self.modelVersion = modelVersion
        self.frameworkVersion = frameworkVersion
        self.xmlModel = xmlModel
        self.migrated = migrated
    }

    /// Every entry of the index; empty when the corpus is absent (its tests are skipped then).
    public static let all: [CorpusStore] = {
        let url = TestPaths.corpus.appendingPathComponent("index.json")
        guard let data = try? Data(contentsOf: url),
              let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return array.compactMap { entry in
            guard let name = entry["name"] as? String, let store = entry["store"] as? String,
                  let model = entry["model"] as? String, let framework = entry["frameworkVersion"] as? Int else { return nil }
            return CorpusStore(name: name, store: store, model: model, modelVersion: entry["modelVersion"] as? String,
                               frameworkVersion: framework, xmlModel: entry["xmlModel"] as? Bool ?? false,
                               migrated: entry["migrated"] as? Bool ?? false)
        }
    }()

    public static var withXMLModel: [CorpusStore] { all.filter(\.xmlModel) }

    public var storeURL: URL { TestPaths.corpus.appendingPathComponent(store) }
    public var modelPath: String { TestPaths.corpus.appendingPathComponent(model).path }

    public func loadModel() throws -> Model {
        try ModelVersions.load(path: modelPath).version(named: modelVersion)
    }

    /// Opens a private copy of the store (with its `-wal`), so the original is never touched.
    public func openCopy() throws -> (SQLiteDatabase, URL) {
        let directory = try TestPaths.temporaryDirectory()
        let copy = try TestPaths.copyStore(storeURL, into: directory)
        return (try SQLiteDatabase(path: copy.path, mode: .readWrite), directory)
    }
}

