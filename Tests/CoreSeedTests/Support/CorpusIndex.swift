import Foundation

/// One entry of `corpus/index.json`.
struct CorpusEntry: Decodable, Sendable, CustomStringConvertible {
    var name: String
    var store: String
    var model: String?
    var modelVersion: String?
    var frameworkVersion: Int
    var xmlModel: Bool
    var compiledModel: String?

    var description: String { name }

    /// Every entry of the index.
    static let all: [CorpusEntry] = {
        let url = TestPaths.corpus.appendingPathComponent("index.json")
        guard let data = FileManager.default.contents(atPath: url.path),
              let entries = try? JSONDecoder().decode([CorpusEntry].self, from: data) else { return [] }
        return entries
    }()

    /// The entries whose model is an XML `.xcdatamodeld`, so hashes can be computed.
    static let withXMLModel: [CorpusEntry] = all.filter(\.xmlModel)
}
