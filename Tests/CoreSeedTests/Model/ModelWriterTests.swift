import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 2: a model read from a store's cache (or a compiled `.momd`) written as an
/// `.xcdatamodeld` reads back with the same hashes and schema.
@Suite struct ModelWriterTests {
    /// Writes `versions`, reads the folder back, and compares every version's hashes and schema.
    static func roundTrip(_ versions: [Model], current: String, _ label: String) throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Written.xcdatamodeld").path
        _ = try ModelWriter.writeBundle(versions, current: current, to: path)
        let back = try ModelVersions.load(path: path)
        #expect(back.currentVersionName == current, "\(label)")
        #expect(back.versions.map(\.versionName) == versions.map(\.versionName).sorted(), "\(label)")
        for model in versions {
            let read = try back.version(named: model.versionName)
            #expect(ModelHashes.compute(for: read) == ModelHashes.compute(for: model), "\(label) \(model.versionName)")
            for framework in [641, 1344] {
                let ours = try StoreLayout(model: read, framework: FrameworkVersion(framework)).statements
                let theirs = try StoreLayout(model: model, framework: FrameworkVersion(framework)).statements
                #expect(ours == theirs, "\(label) \(model.versionName) at \(framework): \(Set(ours).symmetricDifference(theirs).sorted().prefix(4))")
            }
        }
    }

    @Test(.needsCorpus, arguments: CompiledModelCorpusTests.cached)
    func storesOwnModelRoundTrips(_ entry: CorpusStore) throws {
        let (model, _, _) = try CompiledModelCorpusTests.cachedModel(entry)
        try Self.roundTrip([model], current: model.versionName, entry.name)
        if entry.xmlModel {
            let source = try entry.loadModel()
            try Self.roundTrip([source], current: source.versionName, "\(entry.name) (source)")
        }
    }

    @Test(.needsCorpus, arguments: ["coredataplus-samplemodel-v1/model/SampleModel.momd", "coredataplus-samplemodel3-v1/model/SampleModel3.momd"])
    func compiledBundleRoundTripsEveryVersion(_ path: String) throws {
        let versions = try ModelVersions.load(path: TestPaths.corpus.appendingPathComponent(path).path)
        #expect(versions.versions.count == 3)
        try Self.roundTrip(versions.versions, current: versions.currentVersionName, path)
    }

    /// A Date's bounds are seconds since 2001 (`minDateTimeInterval`), not `minValueString`: written
    /// and read back as such (before, `coreseed model` dropped them), and an archived `NSDate` bound,
    /// as a compiled model holds one, decodes to its seconds.
    @Test func dateBoundsSurviveTheRoundTrip() throws {
        var founded = Attribute(name: "founded", type: .date)
        (founded.minDateTimeInterval, founded.maxDateTimeInterval) = ("-31622400", "631152000")
        let model = Model(versionName: "V1", entities: [Entity(name: "Bank", attributes: [founded])])
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("M.xcdatamodeld").path
        #expect(try ModelWriter.writeBundle([model], current: "V1", to: path).isEmpty)
        let back = try ModelVersions.load(path: path).current.entities[0].attributes[0]
        #expect(back.minDateTimeInterval == "-31622400" && back.maxDateTimeInterval == "631152000")
        #expect(back.minValueString == nil && back.maxValueString == nil)

        let graph = try KeyedArchiveGraph(KeyedArchiver.archive(.date(631152000.5)))
        let reader = ArchiveObjectReader(graph: graph)
        guard case .object("NSDate", let uid) = try reader.node(graph.root) else { Issue.record("not an NSDate"); return }
        #expect(try ArchivedExpression.seconds(ofDate: uid, reader, "bound") == "631152000.5")
    }

    @Test func textIsEscapedAndAnExistingFolderIsKept() throws {
        #expect(ModelWriter.escaped("a<b & \"c\"\n") == "a&lt;b &amp; &quot;c&quot;&#10;")
        let entity = Entity(name: "Note", attributes: [Attribute(name: "body", type: .string, defaultValueString: "<none> & \"more\"",
                                                                 userInfo: ["key": "a\tb"])])
        let model = Model(versionName: "V1", entities: [entity])
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("M.xcdatamodeld").path
        #expect(try ModelWriter.writeBundle([model], current: "V1", to: path).isEmpty)
        let back = try ModelVersions.load(path: path).current
        #expect(back.entities[0].attributes[0].defaultValueString == "<none> & \"more\"")
        #expect(back.entities[0].attributes[0].userInfo == ["key": "a\tb"])
        #expect(throws: FileError.self) { try ModelWriter.writeBundle([model], current: "V1", to: path) }
        #expect(throws: FileError.self) { try ModelWriter.writeBundle([model], current: "V1", to: directory.appendingPathComponent("M.momd").path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["M.xcdatamodeld"])
    }
}
