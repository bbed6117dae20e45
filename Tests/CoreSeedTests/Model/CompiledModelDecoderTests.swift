import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 1: what the compiled model decoder reads from a model built in code, and how it
/// refuses a class or key it does not know.
@Suite(.needsCorpus) struct CompiledModelDecoderTests {
    static func momBytes() throws -> [UInt8] {
        let url = TestPaths.corpus.appendingPathComponent("coredataplus-samplemodel3-v1/model/SampleModel3.momd/SampleModel3_v3.mom")
        return try [UInt8](Data(contentsOf: url))
    }

    /// `bytes` with every `old` replaced by `new` (same length: the plist's offsets stay valid).
    static func replacing(_ old: String, with new: String, in bytes: [UInt8]) -> [UInt8] {
        precondition(old.utf8.count == new.utf8.count)
        let needle = Array(old.utf8), replacement = Array(new.utf8)
        var result = bytes, index = 0, found = 0
        while index + needle.count <= result.count {
            if Array(result[index..<(index + needle.count)]) == needle {
                result.replaceSubrange(index..<(index + needle.count), with: replacement)
                found += 1
            }
            index += 1
        }
        #expect(found > 0, "\(old) is not in the archive")
        return result
    }

    @Test func unknownKeyIsAnErrorNamingIt() throws {
        let bytes = Self.replacing("NSIsOptional", with: "NSIsOptionaX", in: try Self.momBytes())
        #expect(throws: CompiledModelReader.Failure.self) { try CompiledModelReader.model(bytes, versionName: "v", path: "v.mom") }
        do { _ = try CompiledModelReader.model(bytes, versionName: "v", path: "v.mom") } catch {
            #expect(error.message.contains("archive key 'NSIsOptionaX'"), "\(error.message)")
            #expect(error.message.contains("NSAttributeDescription") || error.message.contains("NSRelationshipDescription"), "\(error.message)")
        }
        // The same archive unchanged decodes.
        #expect(try !CompiledModelReader.model(try Self.momBytes(), versionName: "v", path: "v.mom").entities.isEmpty)
    }

    @Test func unknownPropertyClassIsAnErrorNamingIt() throws {
        let bytes = Self.replacing("NSRelationshipDescription", with: "NSRelationshipDescriptioX", in: try Self.momBytes())
        do {
            _ = try CompiledModelReader.model(bytes, versionName: "v", path: "v.mom")
            Issue.record("decoded an archive with an unknown property class")
        } catch {
            #expect(error.message.contains("class NSRelationshipDescriptioX, which CoreSeed does not know"), "\(error.message)")
        }
    }

    @Test func notAModelFileIsOneClearError() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Broken.mom").path
        try Data("not a plist".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FileError.self) { try ModelVersions.load(path: path) }
        do { _ = try ModelVersions.load(path: path) } catch {
            #expect(error.message.hasPrefix("not readable as a compiled model (.mom)"), "\(error.message)")
        }
    }

    /// `coredataplus-samplemodel2-v1`, a model built in code: a derivation, validation predicates, a
    /// Transformable default that is an app object, fetched properties, a configuration, inheritance.
    @Test func modelBuiltInCodeDecodesEveryPart() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = try TestPaths.copyStore(TestPaths.corpus.appendingPathComponent("coredataplus-samplemodel2-v1/store.sqlite"), into: directory)
        let model = try ModelVersions.load(path: copy.path).current
        #expect(model.entities.map(\.name) == ["Author", "Book", "Feedback", "GraphicNovel", "Page", "Writer"])
        #expect(model.configurations == [.init(name: "SampleConfigurationV1", entityNames: ["Author", "Book", "Feedback", "GraphicNovel", "Page", "Writer"])])
        let book = try #require(model.entity(named: "Book"))
        let graphicNovel = try #require(model.entity(named: "GraphicNovel"))
        #expect(graphicNovel.parentName == "Book")
        // Inherited properties stay with the entity that declares them.
        #expect(graphicNovel.attributes.map(\.name) == ["isBlackAndWhite"])
        #expect(book.attribute(named: "pagesCount")?.derivationExpression == "pages.@count")
        let title = try #require(book.attribute(named: "title"))
        #expect(title.minValueString == "3" && title.maxValueString == "50")
        #expect(title.otherValidationPredicates == ["SELF CONTAINS \"title\""])
        let cover = try #require(book.attribute(named: "cover"))
        #expect(cover.type == .transformable && cover.valueTransformerName == "CoverTransformer")
        #expect(cover.defaultValueString == nil && cover.opaqueDefaultClassName == "CoreDataPlus_Tests.Cover")
        let author = try #require(model.entity(named: "Author"))
        #expect(author.fetchedPropertyNames.sorted() == ["favFeedbacks", "feedbacks"])
        let books = try #require(author.relationship(named: "books"))
        #expect(books.isToMany && books.maxCount == -1 && books.destinationEntity == "Book")
        #expect(try #require(model.entity(named: "Page")).relationship(named: "book")?.inverseName == "pages")
    }
}
