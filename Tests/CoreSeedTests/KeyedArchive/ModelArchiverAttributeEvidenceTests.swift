import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 3: the evidence that lets a build archive Transformable and external-storage
/// attributes. The corpus caches that hold them differ from CoreSeed's archive elsewhere (Wire's proxies
/// and Undefined attributes, one transient attribute's key order in samplemodel-v1), so they are
/// compared attribute by attribute: each such attribute of the cache has its twin in CoreSeed's
/// archive of the same model — the same keys in the same order, the same values (strings, numbers,
/// flags; a nested object by its class; the back reference `NSEntity` and the `_P` pointer left out).
@Suite(.needsCorpus) struct ModelArchiverAttributeEvidenceTests {
    /// One attribute object: its name, and its keys in written order with their values.
    struct Attribute: Equatable {
        let name: String
        let type: Int64
        let flags: Int64
        let className: String
        let fields: [String]
    }

    /// The keys of dictionary `reference` in the order the binary property list writes them.
    static func orderedKeys(_ plist: PlistReader, _ reference: Int) throws -> [String] {
        let start = plist.offsets[reference]
        let marker = plist.bytes[start]
        guard marker >> 4 == 0xD else { return [] }
        var count = Int(marker & 0x0F), position = start + 1
        if count == 0x0F {
            let size = 1 << Int(plist.bytes[position] & 0x0F)
            count = Int(PlistReader.number(plist.bytes, position + 1, size))
            position += 1 + size
        }
        return try (0..<count).map { index in
            let key = Int(PlistReader.number(plist.bytes, position + index * plist.referenceSize, plist.referenceSize))
            guard case .string(let text) = try plist.object(key) else { return "?" }
            return text
        }
    }

    /// The class name of object `reference`, or nil for a plain value.
    static func className(_ plist: PlistReader, _ objects: [Int], _ reference: Int) throws -> String? {
        guard case .dictionary(let entries) = try plist.object(reference), let classReference = entries["$class"],
              case .uid(let index) = try plist.object(classReference),
              case .dictionary(let classEntries) = try plist.object(objects[index]), let name = classEntries["$classname"],
              case .string(let text) = try plist.object(name) else { return nil }
        return text
    }

    /// A value written out; a nested object by its class, or with `depth` left, with its keys (in
    /// written order) and values too, the keys in `skipping` by name only.
    static func describe(_ plist: PlistReader, _ objects: [Int], _ reference: Int, depth: Int, skipping: Set<String> = []) throws -> String {
        switch try plist.object(reference) {
        case .uid(let index):
            let target = objects[index]
            guard let name = try className(plist, objects, target) else { return try describe(plist, objects, target, depth: depth, skipping: skipping) }
            guard depth > 0, case .dictionary(let entries) = try plist.object(target) else { return "<\(name)>" }
            let inner = try orderedKeys(plist, target).map { key -> String in
                guard key != "$class", !skipping.contains(key), let value = entries[key] else { return key }
                return "\(key)=\(try describe(plist, objects, value, depth: depth - 1, skipping: skipping))"
            }
            return "<\(name)>{\(inner.joined(separator: ","))}"
        case .array(let members): return "[\(try members.map { try describe(plist, objects, $0, depth: depth, skipping: skipping) }.joined(separator: ","))]"
        case .string(let text): return "\"\(text)\""
        case .integer(let number): return "\(number)"
        case .real(let number): return "\(number)"
        case .boolean(let flag): return "\(flag)"
        default: return "…"
        }
    }

    /// Every `NSAttributeDescription` of `archive`.
    static func attributes(_ archive: [UInt8]) throws -> [Attribute] {
        let (plist, objects, _) = try KeyedUnarchiver.header(archive)
        func className(_ reference: Int) throws -> String? { try Self.className(plist, objects, reference) }
        func leaf(_ reference: Int, depth: Int = 0) throws -> String { try describe(plist, objects, reference, depth: depth) }
        var found: [Attribute] = []
        for reference in objects where try ["NSAttributeDescription", "NSDerivedAttributeDescription"].contains(className(reference)) {
            guard case .dictionary(let entries) = try plist.object(reference) else { continue }
            var name = "", type: Int64 = 0, flags: Int64 = 0, fields: [String] = []
            for key in try orderedKeys(plist, reference) {
                guard let value = entries[key] else { continue }
                if key == "NSEntity" || key == "_P" { fields.append(key); continue }
                let text = try leaf(value, depth: key == "NSDerivationExpression" ? 6 : 0)
                fields.append("\(key)=\(text)")
                if key == "NSPropertyName" { name = text }
                if key == "NSAttributeType", case .integer(let number) = try plist.object(value) { type = number }
                if key == "NSFlagsKey", case .integer(let number) = try plist.object(value) { flags = number }
            }
            found.append(Attribute(name: name, type: type, flags: flags, className: try className(reference) ?? "", fields: fields))
        }
        return found
    }

    /// Store, then how many Transformable, external-storage and UUID attributes its cache holds.
    static let expected: [(String, transformable: Int, external: Int, uuid: Int)] = [
        ("coredataplus-samplemodel-v1", 3, 0, 1), ("wire-store1-27", 0, 2, 0), ("wire-store2-8", 0, 2, 0),
        ("wire-store2-24-1", 12, 2, 0), ("wire-store2-30-0", 12, 2, 0),
    ]

    @Test(arguments: expected.map(\.0))
    func eachAttributeHasItsTwin(_ name: String) throws {
        let entry = try #require(CorpusStore.withXMLModel.first { $0.name == name })
        let cache = try Self.attributes(try ModelArchiverCorpusTests.cache(entry))
        let ours = try Self.attributes(ModelArchiver.archive(try entry.loadModel(), framework: entry.frameworkVersion))
        let transformable = cache.filter { $0.type == Int64(AttributeType.transformable.typeCode) }
        let external = cache.filter { $0.flags & 4 != 0 }
        let uuid = cache.filter { $0.type == Int64(AttributeType.uuid.typeCode) }
        let counts = try #require(Self.expected.first { $0.0 == name })
        #expect(transformable.count == counts.transformable && external.count == counts.external && uuid.count == counts.uuid)
        for attribute in transformable + external + uuid {
            #expect(ours.contains(attribute), "\(name): \(attribute.name) \(attribute.fields)")
        }
    }

    /// The one corpus cache with derived attributes has no model file: its model is read from the
    /// cache itself, and CoreSeed's archive of it must hold each derived attribute (a sub-entity's copy
    /// too) and each UUID attribute with the same keys, values and whole derivation expression graph.
    @Test func derivedAndUUIDAttributesHaveTheirTwins() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = TestPaths.corpus.appendingPathComponent("coredataplus-samplemodel2-v1/store.sqlite")
        let expected = try StoreModelCache.archive(ofStoreAt: try TestPaths.copyStore(store, into: directory).path)
        let model = try CompiledModelReader.model(expected, versionName: "Z_MODELCACHE", path: store.path)
        let cache = try Self.attributes(expected)
        let ours = try Self.attributes(ModelArchiver.archive(model, framework: 1344))
        let derived = cache.filter { $0.className == "NSDerivedAttributeDescription" }
        let uuid = cache.filter { $0.type == Int64(AttributeType.uuid.typeCode) }
        #expect(derived.count == 2 && uuid.count == 3)
        #expect(derived.allSatisfy { $0.fields.contains { $0.hasPrefix("NSDerivationExpression=<NSFunctionExpression>{") } })
        for attribute in derived + uuid {
            #expect(ours.contains(attribute), "\(attribute.name) \(attribute.fields)")
        }
    }
}
