import Foundation
import Testing
import CoreSeedTestSupport

/// Issue 26, item 1: every model input of the command line takes a compiled model or a store, and
/// `verify` and `export` without `--model` read the store with its own cached model and say so.
@Suite(.needsCorpus) struct OwnModelCommandTests {
    /// The corpus stores Core Data wrote with a model cache (framework 637 on), with or without a source.
    static let cached: [(name: String, model: String?, version: String?)] = {
        guard let data = try? Data(contentsOf: StoreOps.corpus.appendingPathComponent("index.json")),
              let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return array.compactMap { entry in
            guard let name = entry["name"] as? String, let framework = entry["frameworkVersion"] as? Int, framework >= 637 else { return nil }
            let model = (entry["model"] as? String).map { StoreOps.corpus.appendingPathComponent($0).path }
            return (name, entry["xmlModel"] as? Bool == true ? model : nil, entry["modelVersion"] as? String)
        }
    }()

    @Test func corpusHasCachedStores() {
        #expect(Self.cached.count >= 29)
    }

    @Test(arguments: cached.map(\.name))
    func verifyWithoutModelUsesTheStoresOwn(_ name: String) throws {
        let scratch = try Scratch()
        let store = try StoreOps.copyCorpusStore(name, into: scratch.url)
        let result = try scratch.run(["verify", store])
        #expect(result.status == 0, "\(name): \(result.stderr)")
        #expect(result.stdout.contains("\(store): note: no --model: read with the store's own model (Z_MODELCACHE)\n"), "\(name)")
        #expect(result.stdout.hasSuffix("\(store): OK\n"), "\(name): \(result.stdout.suffix(300))")
        #expect(!result.stderr.contains("error:"), "\(name)")
    }

    /// `hashes STORE` and `schema STORE` print what they print for the store's XML source.
    @Test(arguments: cached.filter { $0.model != nil }.map(\.name))
    func hashesAndSchemaOfAStoreAreItsSources(_ name: String) throws {
        let entry = try #require(Self.cached.first { $0.name == name })
        let scratch = try Scratch()
        let store = try StoreOps.copyCorpusStore(name, into: scratch.url)
        let version = try #require(entry.version), model = try #require(entry.model)
        let fromStore = try scratch.run(["hashes", store])
        let fromSource = try scratch.run(["hashes", model, "--model-version", version])
        #expect(fromStore.status == 0 && fromStore.stdout == fromSource.stdout, "\(name): \(fromStore.stderr)")
        let schema = try scratch.run(["schema", store])
        let sourceSchema = try scratch.run(["schema", model, "--model-version", version])
        #expect(schema.status == 0, "\(name): \(schema.stderr)")
        #expect(Set(schema.stdout.split(separator: "\n")) == Set(sourceSchema.stdout.split(separator: "\n")), "\(name)")
    }

    @Test func compiledBundleGivesItsSourcesHashesPerVersion() throws {
        let folder = StoreOps.corpus.appendingPathComponent("coredataplus-samplemodel-v1/model")
        let scratch = try Scratch()
        for version in ["SampleModel", "SampleModel2", "SampleModel3"] {
            let compiled = try scratch.run(["hashes", folder.appendingPathComponent("SampleModel.momd").path, "--model-version", version])
            let source = try scratch.run(["hashes", folder.appendingPathComponent("SampleModel.xcdatamodeld").path, "--model-version", version])
            #expect(compiled.status == 0 && !compiled.stdout.isEmpty && compiled.stdout == source.stdout, "\(version): \(compiled.stderr)")
        }
    }

    @Test func exportWithoutModelUsesTheStoresOwnAndItsSpecRebuilds() throws {
        let scratch = try Scratch()
        let store = try StoreOps.copyCorpusStore("coredataplus-samplemodel-v1", into: scratch.url)
        let output = scratch.url.appendingPathComponent("Export").path
        let result = try scratch.run(["export", store, "--output", output, "--spec"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("\(store): note: no --model: read with the store's own model (Z_MODELCACHE)\n"))
        let spec = try String(contentsOfFile: output + "/seed.json", encoding: .utf8)
        #expect(spec.contains("\"model\" : \"../store.sqlite\"") || spec.contains("\"model\": \"../store.sqlite\""), "\(spec.prefix(300))")
    }

    /// `coreseed model STORE --output NAME.xcdatamodeld`: the written source hashes as the store does.
    @Test(arguments: cached.map(\.name))
    func modelCommandWritesASourceWithTheStoresHashes(_ name: String) throws {
        let scratch = try Scratch()
        let store = try StoreOps.copyCorpusStore(name, into: scratch.url)
        let output = scratch.url.appendingPathComponent("Out.xcdatamodeld").path
        let result = try scratch.run(["model", store, "--output", output])
        #expect(result.status == 0, "\(name): \(result.stderr)")
        #expect(result.stdout == "\(output): 1 version of \(store) (current: store)\n", "\(name)")
        let fromStore = try scratch.run(["hashes", store]), fromSource = try scratch.run(["hashes", output])
        #expect(fromSource.status == 0 && fromSource.stdout == fromStore.stdout, "\(name): \(fromSource.stderr)")
        let again = try scratch.run(["model", store, "--output", output])
        #expect(again.status != 0 && again.stderr.contains("already exists"), "\(name)")
    }

    @Test func aFileThatIsNoModelIsOneClearError() throws {
        let scratch = try Scratch()
        let path = scratch.url.appendingPathComponent("notes.sqlite").path
        try Data("SQLite format 3\u{0}".utf8 + [UInt8](repeating: 0, count: 84)).write(to: URL(fileURLWithPath: path))
        for command in ["hashes", "model"] {
            let output = scratch.url.appendingPathComponent("Out.xcdatamodeld").path
            let result = try scratch.run(command == "hashes" ? ["hashes", path] : ["model", path, "--output", output])
            #expect(result.status != 0)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(path), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }
}
