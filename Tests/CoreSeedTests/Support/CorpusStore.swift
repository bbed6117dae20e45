import Foundation
@testable import CoreSeed

/// One entry of the corpus's `index.json` (`Corpus`); tests that use one carry `.needsCorpus`.
struct CorpusStore: Sendable, CustomStringConvertible {
    let name: String
    let store: String
    let model: String
    let modelVersion: String?
    let frameworkVersion: Int
    let xmlModel: Bool
    /// The app migrated this store in place: its SQL text keeps history a fresh store lacks (§4b.8).
    let migrated: Bool

    var description: String { name }

    /// Every entry of the index; empty when the corpus is absent (its tests are skipped then).
    static let all: [CorpusStore] = {
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

    static var withXMLModel: [CorpusStore] { all.filter(\.xmlModel) }

    var storeURL: URL { TestPaths.corpus.appendingPathComponent(store) }
    var modelPath: String { TestPaths.corpus.appendingPathComponent(model).path }

    func loadModel() throws -> Model {
        try ModelVersions.load(path: modelPath).version(named: modelVersion)
    }

    /// Opens a private copy of the store (with its `-wal`), so the original is never touched.
    func openCopy() throws -> (SQLiteDatabase, URL) {
        let directory = try TestPaths.temporaryDirectory()
        let copy = try TestPaths.copyStore(storeURL, into: directory)
        return (try SQLiteDatabase(path: copy.path, mode: .readWrite), directory)
    }
}

