import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 1: the model read from a store's `Z_MODELCACHE` (or a compiled `.mom`) is the model
/// Core Data wrote the store with: the store's hashes, its schema, and its XML source's schema.
@Suite(.needsCorpus) struct CompiledModelCorpusTests {
    /// The corpus stores Core Data wrote with a model cache (framework 637 on).
    /// (`CorpusStore.all` needs a model source; these include the stores without one.)
    static let cached: [CorpusStore] = {
        guard let data = try? Data(contentsOf: TestPaths.corpus.appendingPathComponent("index.json")),
              let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return array.compactMap { entry in
            guard let name = entry["name"] as? String, let store = entry["store"] as? String,
                  let framework = entry["frameworkVersion"] as? Int, framework >= 637 else { return nil }
            return CorpusStore(name: name, store: store, model: entry["model"] as? String ?? "",
                               modelVersion: entry["modelVersion"] as? String, frameworkVersion: framework,
                               xmlModel: entry["xmlModel"] as? Bool ?? false, migrated: entry["migrated"] as? Bool ?? false)
        }
    }()

    /// Where a store's cached model and the corpus's XML source disagree in fields Core Data does not
    /// hash, the source is not the exact model that wrote the store (evidence: the cache itself):
    /// - `carekit-samplestore2.0`: the test store was written before CareKit changed defaults in the
    ///   same model version (the cache has `schemaVersion` "2.0.1" and no numeric zeros);
    /// - `wire-store2-53-0`: the cache has no renaming identifier for `Conversation.isSilenced`, the
    ///   source says `mutedStatus` (which 2.66 turns into an attribute of that name).
    static let sourceDifferences: [String: Int] = ["carekit-samplestore2.0": 12, "wire-store2-53-0": 1]

    @Test func corpusHasCachedStores() {
        #expect(Self.cached.count >= 29)
        #expect(Self.cached.contains { !$0.xmlModel })
    }

    /// The store's own model, read from a private copy (the path `--model STORE` takes).
    static func cachedModel(_ entry: CorpusStore) throws -> (Model, StoreMetadata, [String]) {
        let (database, directory) = try entry.openCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(ModelVersions.kind(ofPath: database.path) == .store)
        let model = try ModelVersions.load(path: database.path).current
        let metadata = try StoreMetadata.read(from: database).metadata
        let sql = try database.rows("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL").compactMap { row -> String? in
            if case .text(let text) = row[0] { return text }
            return nil
        }
        return (model, metadata, sql)
    }

    @Test(arguments: cached)
    func cachedModelGivesTheStoresHashes(_ entry: CorpusStore) throws {
        let (model, metadata, _) = try Self.cachedModel(entry)
        let computed = ModelHashes.compute(for: model)
        #expect(Set(computed.entities.keys) == Set(metadata.versionHashes.keys), "\(entry.name)")
        for (name, stored) in metadata.versionHashes {
            #expect(computed.entities[name] == stored, "\(entry.name): entity \(name)")
        }
        if let digest = metadata.hashesDigest { #expect(computed.digest == digest, "\(entry.name)") }
        if let checksum = metadata.checksum { #expect(computed.checksum == checksum, "\(entry.name)") }
    }

    /// On a fresh store, the cached model's schema is the store's, statement for statement; with an
    /// XML source, it is also the source's (a migrated store keeps SQL history, §4b.8, so there only
    /// the source comparison holds).
    @Test(arguments: cached)
    func cachedModelGivesTheSchema(_ entry: CorpusStore) throws {
        let (model, _, stored) = try Self.cachedModel(entry)
        let framework = FrameworkVersion(entry.frameworkVersion)
        let ours = try StoreLayout(model: model, framework: framework).statements
        if entry.xmlModel {
            let source = try StoreLayout(model: try entry.loadModel(), framework: framework).statements
            // Statement for statement, in order: a one-element fetch index's own index comes first in
            // both (ddg-bookmarks-v2 and -v4, as the stores hold them).
            #expect(Set(ours) == Set(source), "\(entry.name): only from the cache \(Set(ours).subtracting(source).sorted()); only from the source \(Set(source).subtracting(ours).sorted())")
            #expect(ours == source, "\(entry.name)")
        }
        if !entry.migrated {
            // Persistent history tables come from a store option, not from the model
            // (coredataplus-samplemodel2-v1 has them).
            let history = ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]
            let stored = stored.filter { statement in
                !history.contains { statement.hasPrefix("CREATE TABLE \($0) ") || statement.contains(" ON \($0) (") }
            }
            let missing = Set(stored).subtracting(ours).sorted(), extra = Set(ours).subtracting(stored).sorted()
            #expect(missing.isEmpty, "\(entry.name): in the store but not derived: \(missing)")
            #expect(extra.isEmpty, "\(entry.name): derived but not in the store: \(extra)")
        }
    }

    /// Every decoded field that reaches the layout, the hashes or the values equals the XML source's.
    @Test(arguments: cached.filter(\.xmlModel))
    func cachedModelEqualsItsSource(_ entry: CorpusStore) throws {
        let (model, _, _) = try Self.cachedModel(entry)
        let source = try entry.loadModel()
        let differences = ModelComparison.differences(model, source)
        if let count = Self.sourceDifferences[entry.name] {
            #expect(differences.count == count, "\(entry.name): \(differences)")
            #expect(differences.allSatisfy { $0.contains(entry.name.hasPrefix("carekit") ? " default: " : " renaming identifier: ") }, "\(entry.name): \(differences)")
        } else {
            #expect(differences.isEmpty, "\(entry.name): \(differences.prefix(12))")
        }
    }

    /// The compiled `.momd` of the corpus: every version equals its XML source in hashes, schema and fields.
    @Test(arguments: ["coredataplus-samplemodel-v1/model/SampleModel", "coredataplus-samplemodel3-v1/model/SampleModel3"])
    func compiledBundleEqualsItsSource(_ base: String) throws {
        let compiled = try ModelVersions.load(path: TestPaths.corpus.appendingPathComponent(base + ".momd").path)
        let source = try ModelVersions.load(path: TestPaths.corpus.appendingPathComponent(base + ".xcdatamodeld").path)
        #expect(compiled.versions.map(\.versionName) == source.versions.map(\.versionName))
        #expect(compiled.currentVersionName == source.currentVersionName)
        for version in source.versions {
            let ours = try compiled.version(named: version.versionName)
            #expect(ModelHashes.compute(for: ours) == ModelHashes.compute(for: version), "\(version.versionName)")
            let framework = FrameworkVersion(1344)
            #expect(try StoreLayout(model: ours, framework: framework).statements == StoreLayout(model: version, framework: framework).statements)
            let differences = ModelComparison.differences(ours, version)
            #expect(differences.isEmpty, "\(version.versionName): \(differences.prefix(12))")
        }
        // One .mom file alone is one version.
        let mom = TestPaths.corpus.appendingPathComponent(base + ".momd/" + (base as NSString).lastPathComponent + ".mom").path
        #expect(ModelVersions.kind(ofPath: mom) == .compiledModel)
        #expect(try ModelVersions.load(path: mom).versions.count == 1)
    }
}

/// Field-by-field differences between a decoded model and its XML source, as text, ignoring what the
/// two forms cannot share (lines, paths, property order) and comparing defaults by meaning.
enum ModelComparison {
    static func differences(_ decoded: Model, _ source: Model) -> [String] {
        var result: [String] = []
        func check<T: Equatable>(_ a: T, _ b: T, _ what: String) { if a != b { result.append("\(what): \(a) ≠ \(b)") } }
        check(decoded.entities.map(\.name).sorted(), source.entities.map(\.name).sorted(), "entities")
        check(decoded.configurations.map { "\($0.name): \($0.entityNames.sorted())" }.sorted(),
              source.configurations.map { "\($0.name): \($0.entityNames.sorted())" }.sorted(), "configurations")
        for entity in source.entities {
            guard let ours = decoded.entity(named: entity.name) else { continue }
            let e = entity.name
            check(ours.parentName, entity.parentName, "\(e) parent")
            check(ours.isAbstract, entity.isAbstract, "\(e) abstract")
            check(ours.versionHashModifier, entity.versionHashModifier, "\(e) modifier")
            check(ours.renamingIdentifier ?? e, entity.renamingIdentifier ?? e, "\(e) renaming identifier")
            check(ours.userInfo, entity.userInfo, "\(e) userInfo")
            check(ours.uniquenessConstraints.map { $0.sorted() }.sorted { $0.description < $1.description },
                  entity.uniquenessConstraints.map { $0.sorted() }.sorted { $0.description < $1.description }, "\(e) uniqueness")
            check(ours.fetchedPropertyNames.sorted(), entity.fetchedPropertyNames.sorted(), "\(e) fetched properties")
            check(ours.attributes.map(\.name).sorted(), entity.attributes.map(\.name).sorted(), "\(e) attributes")
            check(ours.relationships.map(\.name).sorted(), entity.relationships.map(\.name).sorted(), "\(e) relationships")
            for attribute in entity.attributes {
                guard let mine = ours.attribute(named: attribute.name) else { continue }
                for (label, field) in attributeFields { check(field(mine), field(attribute), "\(e).\(attribute.name) \(label)") }
            }
            for relationship in entity.relationships {
                guard let mine = ours.relationship(named: relationship.name) else { continue }
                for (label, field) in relationshipFields { check(field(mine), field(relationship), "\(e).\(relationship.name) \(label)") }
            }
        }
        return result
    }

    static let attributeFields: [(String, @Sendable (Attribute) -> String)] = [
        ("type", { $0.type.rawValue }), ("optional", { "\($0.isOptional)" }), ("transient", { "\($0.isTransient)" }),
        ("derivation", { "\($0.derivationExpression as Any)" }), ("external", { "\($0.allowsExternalBinaryDataStorage)" }),
        ("preserve", { "\($0.preserveAfterDeletion)" }), ("modifier", { "\($0.versionHashModifier as Any)" }),
        ("renaming identifier", { $0.renamingIdentifier ?? $0.name }), ("transformer", { "\($0.valueTransformerName as Any)" }),
        ("userInfo", { "\($0.userInfo.sorted { $0.key < $1.key })" }), ("minimum", { "\($0.minValueString as Any)" }),
        ("maximum", { "\($0.maxValueString as Any)" }), ("default", { "\(defaultMeaning($0) as Any)" }),
    ]

    static let relationshipFields: [(String, @Sendable (Relationship) -> String)] = [
        ("destination", { $0.destinationEntity }), ("inverse", { "\($0.inverseName as Any)" }), ("to-many", { "\($0.isToMany)" }),
        ("ordered", { "\($0.isOrdered)" }), ("optional", { "\($0.isOptional)" }), ("transient", { "\($0.isTransient)" }),
        ("maxCount", { "\($0.maxCount)" }), ("minCount", { "\($0.minCount)" }), ("delete rule", { $0.deleteRule.rawValue }),
        ("modifier", { "\($0.versionHashModifier as Any)" }), ("renaming identifier", { $0.renamingIdentifier ?? $0.name }),
        ("userInfo", { "\($0.userInfo.sorted { $0.key < $1.key })" }),
    ]

    /// A default by the value it stores: the text a model file gives is read as the type reads it.
    static func defaultMeaning(_ attribute: Attribute) -> String? {
        guard let text = attribute.defaultValueString else { return nil }
        switch attribute.type {
        case .boolean: return ["YES", "1", "true"].contains(text) ? "true" : "false"
        case .integer16, .integer32, .integer64:
            if let value = Int64(text) { return String(value) }
            return ["YES", "true"].contains(text) ? "1" : (["NO", "false"].contains(text) ? "0" : text)
        case .double, .float, .decimal: return Double(text).map { String($0) } ?? text
        default: return text
        }
    }
}
