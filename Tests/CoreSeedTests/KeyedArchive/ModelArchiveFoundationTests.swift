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
        var fetchIndexes: [FetchIndexStandIn] = [], compoundIndexes: [[String]] = []
        init?(coder: NSCoder) {
            name = coder.decodeObject(forKey: "NSEntityName") as? String ?? ""
            className = coder.decodeObject(forKey: "NSClassNameForEntity") as? String
            properties = (coder.decodeObject(forKey: "NSProperties") as? NSDictionary) as? [String: NSObject] ?? [:]
            subentities = ((coder.decodeObject(forKey: "NSSubentities") as? NSDictionary)?.allKeys as? [String]) ?? []
            // swift-corelibs traps on decoding a key that is not there: ask first.
            if coder.containsValue(forKey: "NSFetchIndexDescriptions") {
                fetchIndexes = ((coder.decodeObject(forKey: "NSFetchIndexDescriptions") as? NSArray) as? [FetchIndexStandIn]) ?? []
                compoundIndexes = ((coder.decodeObject(forKey: "NSCompoundIndexes") as? NSArray) as? [[String]]) ?? []
            }
        }
        func encode(with coder: NSCoder) {}
    }

    /// `NSFetchIndexDescription` and its `NSFetchIndexElementDescription`s, as (property, ascending, type).
    final class FetchIndexStandIn: NSObject, NSCoding {
        var name = "", elements: [FetchIndexElementStandIn] = []
        init?(coder: NSCoder) {
            name = coder.decodeObject(forKey: "NSIndexName") as? String ?? ""
            elements = ((coder.decodeObject(forKey: "NSIndexElements") as? NSArray) as? [FetchIndexElementStandIn]) ?? []
        }
        func encode(with coder: NSCoder) {}
    }

    final class FetchIndexElementStandIn: NSObject, NSCoding {
        var property = "", ascending = false, type = -1
        init?(coder: NSCoder) {
            property = coder.decodeObject(forKey: "NSPropertyName") as? String ?? ""
            ascending = coder.decodeBool(forKey: "NSAscending")
            type = coder.decodeInteger(forKey: "NSFetchIndexElementType")
        }
        func encode(with coder: NSCoder) {}
    }

    class AttributeStandIn: NSObject, NSCoding {
        var name = "", type = 0, isOptional = false, defaultValue: Any?, transformer: String?, flags = 0
        required init?(coder: NSCoder) {
            name = coder.decodeObject(forKey: "NSPropertyName") as? String ?? ""
            type = Int(coder.decodeInteger(forKey: "NSAttributeType"))
            isOptional = coder.decodeBool(forKey: "NSIsOptional")
            defaultValue = coder.decodeObject(forKey: "NSDefaultValue")
            transformer = coder.decodeObject(forKey: "NSValueTransformerName") as? String
            flags = Int(coder.decodeInteger(forKey: "NSFlagsKey"))
        }
        func encode(with coder: NSCoder) {}
    }

    /// `NSDerivedAttributeDescription`: an attribute, read-only, with its derivation.
    final class DerivedAttributeStandIn: AttributeStandIn {
        var isReadOnly = false, derivation: ExpressionStandIn?
        required init?(coder: NSCoder) {
            super.init(coder: coder)
            isReadOnly = coder.decodeBool(forKey: "NSIsReadOnly")
            derivation = coder.decodeObject(forKey: "NSDerivationExpression") as? ExpressionStandIn
        }
    }

    /// The `NSExpression` classes a derivation is made of, read into the text of the expression:
    /// a function `count:(…)` of `_NSPredicateUtilities`, a key path on SELF, a key path specifier.
    final class ExpressionStandIn: NSObject, NSCoding {
        var text = ""
        init?(coder: NSCoder) {
            // swift-corelibs-foundation traps on a missing key: each class's keys are read by its type.
            func object(_ key: String) -> Any? { coder.containsValue(forKey: key) ? coder.decodeObject(forKey: key) : nil }
            let type = coder.decodeInteger(forKey: "NSExpressionType")
            switch type {
            case 0: text = "class " + (object("NSConstantValueClassName") as? String ?? "?")
            case 1: text = "SELF"
            case 3, 4:
                let operand = (object("NSOperand") as? ExpressionStandIn)?.text ?? "?"
                let arguments = ((object("NSArguments") as? NSArray as? [ExpressionStandIn]) ?? []).map(\.text).joined(separator: ",")
                let selector = object("NSSelectorName") as? String ?? ""
                text = type == 3 ? "\(operand).\(selector)\(arguments)" : "\(operand).\(selector)(\(arguments))"
            case 10: text = object("NSKeyPath") as? String ?? "?"
            default: text = "type \(type)"
            }
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
                             ("NSAttributeDescription", AttributeStandIn.self), ("NSRelationshipDescription", RelationshipStandIn.self),
                             ("NSDerivedAttributeDescription", DerivedAttributeStandIn.self),
                             ("NSFetchIndexDescription", FetchIndexStandIn.self),
                             ("NSFetchIndexElementDescription", FetchIndexElementStandIn.self)] as [(String, AnyClass)] {
            unarchiver.setClass(type, forClassName: name)
        }
        for name in ["NSFunctionExpression", "NSKeyPathExpression", "NSConstantValueExpression", "NSSelfExpression", "NSKeyPathSpecifierExpression"] {
            unarchiver.setClass(ExpressionStandIn.self, forClassName: name)
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
                #expect(stored.transformer == attribute.valueTransformerName, "\(entity.name).\(attribute.name)")
                #expect(stored.flags == (attribute.allowsExternalBinaryDataStorage ? 4 : 0) | (attribute.preserveAfterDeletion ? 0x10 : 0),
                        "\(entity.name).\(attribute.name)")
                let derived = stored as? DerivedAttributeStandIn
                #expect((derived != nil) == (attribute.derivationExpression != nil), "\(entity.name).\(attribute.name)")
                if let derived, let expression = attribute.derivationExpression {
                    // `relationship.@count` as Core Data's setter makes it: count:(SELF.valueForKey:relationship).
                    let relationship = String(expression.dropLast(".@count".count))
                    #expect(derived.isReadOnly && derived.derivation?.text == "class _NSPredicateUtilities.count:(SELF.valueForKey:\(relationship))",
                            "\(entity.name).\(attribute.name): \(derived.derivation?.text ?? "no derivation")")
                }
            }
            // Indexes as the loaded model holds them: indexed attributes, then compound indexes, then
            // fetch indexes, all ascending and binary (type 0); the legacy compound view beside them.
            let indexes = entity.attributes.filter(\.isIndexed).map { ($0.name, [$0.name]) }
                + entity.compoundIndexes.map { ($0.joined(separator: "_"), $0) }
                + entity.fetchIndexes.map { ($0.name, $0.elements.compactMap(\.property)) }
            let singles = entity.fetchIndexes.filter { $0.elements.count == 1 }.compactMap { $0.elements[0].property }.map { ($0, [$0]) }
            #expect(archived.fetchIndexes.map(\.name) == (singles + indexes).map(\.0), "\(entity.name)")
            #expect(archived.fetchIndexes.map { $0.elements.map(\.property) } == (singles + indexes).map(\.1), "\(entity.name)")
            #expect(archived.fetchIndexes.allSatisfy { $0.elements.allSatisfy { $0.ascending && $0.type == 0 } }, "\(entity.name)")
            #expect(archived.compoundIndexes == (singles + indexes).map(\.1).filter { $0.count > 1 }, "\(entity.name)")
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

    /// `make seed`'s other two models: a derived count (World, Carriers), a UUID (World), Transformable
    /// and external-storage attributes and a compound index (Carriers).
    @Test(arguments: ["World", "Carriers"])
    func theSeedModelsDecodeWithFoundation(_ name: String) throws {
        try Self.check(try ModelVersions.load(path: TestPaths.repositoryRoot.appendingPathComponent("Inputs/\(name).xcdatamodeld").path).current,
                       framework: 1518)
    }

    /// Inheritance three levels deep, uniqueness constraints, a Boolean default (a corpus model whose
    /// cache CoreSeed reproduces byte for byte).
    @Test(.needsCorpus) func aModelWithInheritanceDecodesWithFoundation() throws {
        let entry = try #require(CorpusStore.withXMLModel.first { $0.name == "coredataplus-2018-samplemodel-v1" })
        try Self.check(try entry.loadModel(), framework: entry.frameworkVersion)
    }
}
