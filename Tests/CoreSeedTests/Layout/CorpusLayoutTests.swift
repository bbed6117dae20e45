import Foundation
import Testing
@testable import CoreSeed

/// Golden tests: the layout derived from each corpus model equals what Core Data wrote in its store.
@Suite struct CorpusLayoutTests {
    @Test func corpusIsPresent() {
        #expect(CorpusStore.withXMLModel.count >= 13, "expected the corpus at \(TestPaths.corpus.path)")
    }

    @Test(arguments: CorpusStore.withXMLModel)
    func schemaEqualsTheStore(_ entry: CorpusStore) throws {
        let model = try entry.loadModel()
        let layout = try StoreLayout(model: model, framework: FrameworkVersion(entry.frameworkVersion))
        let (db, directory) = try entry.openCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stored = try db.rows("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL").compactMap { row -> String? in
            if case .text(let sql) = row[0] { return sql }
            return nil
        }
        let ours = layout.statements
        #expect(Set(ours).count == ours.count, "duplicate statements")
        let missing = Set(stored).subtracting(ours).sorted()
        let extra = Set(ours).subtracting(stored).sorted()
        #expect(missing.isEmpty, "in the store but not derived: \(missing)")
        #expect(extra.isEmpty, "derived but not in the store: \(extra)")
    }

    @Test(arguments: CorpusStore.withXMLModel)
    func primaryKeyTableEqualsTheStore(_ entry: CorpusStore) throws {
        let layout = try StoreLayout(model: try entry.loadModel(), framework: FrameworkVersion(entry.frameworkVersion))
        let (db, directory) = try entry.openCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = try db.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
        let expected: [[SQLiteValue]] = layout.entities.map { [.integer(Int64($0.number)), .text($0.name), .integer(Int64($0.superNumber))] }
        #expect(rows == expected)
    }
}
