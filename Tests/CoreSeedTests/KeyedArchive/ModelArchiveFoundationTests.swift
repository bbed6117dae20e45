import Foundation
import Testing
@testable import CoreSeed
import CoreSeedTestSupport

/// Issue 26, item 3: the `Z_MODELCACHE` archive CoreSeed writes, decoded by Foundation's own
/// `NSKeyedUnarchiver` (swift-corelibs-foundation here). Foundation has the container and value
/// classes (NSArray, NSDictionary, NSSet, NSString, NSNumber); Core Data's classes are not in it, so
/// each is read by a stand-in that decodes its keys as Core Data's `initWithCoder:` names them (the
/// back references `NSEntity`, `NSManagedObjectModel`, `NSSuperentity`, `NSDestinationEntity`,
/// `NSInverseRelationship` are left out: they are conditional, and the names beside them say the same).
/// Every decoded field must equal the model's.
@Suite struct ModelArchiveFoundationTests {
    final class ModelStandIn: NSObject, NSCoding {
        var entities: [EntityStandIn] = []
        var versionIdentifiers: [String] = []
        init?(coder: NSCoder) {
            guard let known = coder.decodeObject(forKey: "NSEntities") as? KnownKeysDictionary else { return nil }
            entities = known.values.compactMap { $0 as? EntityStandIn }
            versionIdentifiers = ((coder.decodeObject(forKey: "NSVersionIdentifiers") as? NSSet)?.allObjects as? [String]) ?? []
        }
        func encode(with coder: NSCoder) {}
    }

    final class KnownKeysDictionary: NSObject, NSCoding {
        var keys: [String] = []
        var values: [Any] = []
        init?(coder: NSCoder) {
            keys = ((coder.decodeObject(forKey: "searchMapping") as? KnownKeysMapping)?.keys) ?? []
            values = (coder.decodeObject(forKey: "values") as? NSArray) as? [Any] ?? []
        }
        func encode(with coder: NSCoder) {}
    }

    final class KnownKeysMapping: NSObject, NSCoding {
        var keys: [String] = []
        init?(coder: NSCoder) { keys = (coder.decodeObject(forKey: "keys") as? NSArray) as? [String] ?? [] }
        func encode(with coder: NSCoder) {}
    }

    final class EntityStandIn: NSObject, NSCoding {
        var name = "", className: String?, properties: [String: NSObject] = [:], subentities: [String] = []
        init?(coder: NSCoder) {
            name = coder.decodeObject(forKey: "NSEntityName") as? String ?? ""
            className = coder.decodeObject(forKey: "NSClassNameForEntity") as? String
            properties = (coder.decodeObject(forKey: "NSProperties") as? NSDictionary) as? [String: NSObject] ?? [:]
            subentities = ((coder.decodeObject(forKey: "NSSubentities") as? NSDictionary)?.allKeys as? [String]) ?? []
        }
        func encode(with coder: NSCoder) {}
    }

    final class AttributeStandIn: NSObject, NSCoding {
        var name = "", type = 0, isOptional = false, defaultValue: Any?
        init?(coder: NSCoder) {
            name = coder.decodeObject(forKey: "NSPropertyName") as? String ?? ""
            type = Int(coder.decodeInteger(forKey: "NSAttributeType"))
            isOptional = coder.decodeBool(forKey: "NSIsOptional")
            defaultValue = coder.decodeObject(forKey: "NSDefaultValue")
        }
        func encode(with coder: NSCoder) {}
    }

    final class RelationshipStandIn: NSObject, NSCoding {
        var name = "", destination = "", inverse = "", isOptional = false, minCount = 0, maxCount = 0, deleteRule = 0
        init?(coder: NSCoder) {
            name = coder.decodeObject(forKey: "NSPropertyName") as? String ?? ""
            destination = coder.decodeObject(forKey: "_NSDestinationEntityName") as? String ?? ""
            inverse = coder.decodeObject(forKey: "_NSInverseRelationshipName") as? String ?? ""
            isOptional = coder.decodeBool(forKey: "NSIsOptional")
            minCount = Int(coder.decodeInteger(forKey: "NSMinCount"))
            maxCount = Int(coder.decodeInteger(forKey: "NSMaxCount"))
            deleteRule = Int(coder.decodeInteger(forKey: "NSDeleteRule"))
        }
        func encode(with coder: NSCoder) {}
    }

    /// `model`'s archive at `framework`, decoded by `NSKeyedUnarchiver` into the stand-ins.
    static func decode(_ model: Model, framework: Int) throws -> ModelStandIn {
        let archive = ModelArchiver.archive(model, framework: framework)
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Data(archive))
        unarchiver.requiresSecureCoding = false
        for (name, type) in [("NSManagedObjectModel", ModelStandIn.self), ("NSKnownKeysDictionary1", KnownKeysDictionary.self),
                             ("NSKnownKeysMappingStrategy1", KnownKeysMapping.self), ("NSEntityDescription", EntityStandIn.self),
                             ("NSAttributeDescription", AttributeStandIn.self), ("NSRelationshipDescription", RelationshipStandIn.self)] as [(String, AnyClass)] {
            unarchiver.setClass(type, forClassName: name)
        }
        let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
        unarchiver.finishDecoding()
        return try #require(root as? ModelStandIn, "NSKeyedUnarchiver gave \(String(describing: root))")
    }

    /// Every field the stand-ins decode equals the model's, entity by entity.
    static func check(_ model: Model, framework: Int) throws {
        let decoded = try decode(model, framework: framework)
        #expect(decoded.entities.map(\.name) == model.entities.map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(decoded.versionIdentifiers == [model.versionIdentifier])
        for entity in model.entities {
            let archived = try #require(decoded.entities.first { $0.name == entity.name })
            #expect(archived.className == (entity.representedClassName ?? "NSManagedObject"), "\(entity.name)")
            #expect(Set(archived.subentities) == Set(model.entities.filter { $0.parentName == entity.name }.map(\.name)), "\(entity.name)")
            // A sub-entity holds a copy of every inherited property.
            let lineage = sequence(first: entity) { child in child.parentName.flatMap(model.entity(named:)) }
            let attributes = lineage.flatMap(\.attributes), relationships = lineage.flatMap(\.relationships)
            #expect(Set(archived.properties.keys) == Set(attributes.map(\.name) + relationships.map(\.name)), "\(entity.name)")
            for attribute in attributes {
                let stored = try #require(archived.properties[attribute.name] as? AttributeStandIn, "\(entity.name).\(attribute.name)")
                #expect(stored.name == attribute.name && stored.type == Int(attribute.type.typeCode) && stored.isOptional == attribute.isOptional,
                        "\(entity.name).\(attribute.name)")
                if let text = attribute.defaultValueString, attribute.type.isInteger {
                    #expect((stored.defaultValue as? NSNumber)?.int64Value == Int64(text), "\(entity.name).\(attribute.name)")
                }
            }
            for relationship in relationships {
                let stored = try #require(archived.properties[relationship.name] as? RelationshipStandIn, "\(entity.name).\(relationship.name)")
                #expect(stored.destination == relationship.destinationEntity && stored.inverse == (relationship.inverseName ?? ""),
                        "\(entity.name).\(relationship.name)")
                #expect(stored.isOptional == relationship.isOptional && stored.minCount == relationship.minCount
                        && stored.maxCount == relationship.maxCount, "\(entity.name).\(relationship.name)")
                #expect(Int64(stored.deleteRule) == ModelArchiveWriter.deleteRuleCode(relationship.deleteRule), "\(entity.name).\(relationship.name)")
            }
        }
    }

    @Test(arguments: [866, 1344, 1518])
    func theFailedBanksModelDecodesWithFoundation(_ framework: Int) throws {
        try Self.check(try ModelVersions.load(path: TestPaths.repositoryRoot.appendingPathComponent("Inputs/FailedBanksCD.xcdatamodeld").path).current,
                       framework: framework)
    }

    /// Inheritance three levels deep, uniqueness constraints, a Boolean default (a corpus model whose
    /// cache CoreSeed reproduces byte for byte).
    @Test(.needsCorpus) func aModelWithInheritanceDecodesWithFoundation() throws {
        let entry = try #require(CorpusStore.withXMLModel.first { $0.name == "coredataplus-2018-samplemodel-v1" })
        try Self.check(try entry.loadModel(), framework: entry.frameworkVersion)
    }
}
