import Foundation
import Testing
@testable import CoreSeed

/// Each hash rule of DESIGN §4 on a tiny hand-built model, recomputed from SHA-256 by hand.
@Suite struct VersionHashRuleTests {
    private static func model(_ entities: [Entity]) -> Model { Model(versionName: "Tiny", entities: entities) }
    private static func hash(_ entity: Entity, among others: [Entity] = []) -> [UInt8] {
        ModelHashes.compute(for: model([entity] + others)).entities[entity.name] ?? []
    }
    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }

    @Test func sha2MatchesKnownVectors() {
        #expect(Data(SHA2.sha256(Array("abc".utf8))).base64EncodedString() == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
        #expect(SHA2.sha512([]).prefix(4) == [0xcf, 0x83, 0xe1, 0x35])
    }

    @Test func attributeHashFollowsTheRule() {
        let attribute = Attribute(name: "title", type: .string, isOptional: true)
        let base = SHA2.sha256(Array("title".utf8) + Self.le16(1))
        #expect(VersionHasher.attributeHash(attribute) == SHA2.sha256(base + Self.le32(700)))

        let stored = Attribute(name: "blob", type: .binary, isOptional: false,
                               allowsExternalBinaryDataStorage: true, preserveAfterDeletion: true)
        let storedBase = SHA2.sha256(Array("blob".utf8) + Self.le16(0))
        #expect(VersionHasher.attributeHash(stored) == SHA2.sha256(storedBase + Self.le32(1000) + [1, 1]))
    }

    @Test func entityHashFollowsTheRule() {
        let title = Attribute(name: "title", type: .string)
        let count = Attribute(name: "count", type: .integer32, isOptional: false)
        let entity = Entity(name: "Book", attributes: [title, count], uniquenessConstraints: [["title", "count"], []])
        let expected = SHA2.sha256(Array("Book".utf8) + [0]
            + VersionHasher.attributeHash(count) + VersionHasher.attributeHash(title)
            + Array("title.count".utf8))
        #expect(Self.hash(entity) == expected)
    }

    @Test func transientPropertiesAreExcluded() {
        let plain = Entity(name: "Car", attributes: [Attribute(name: "maker", type: .string)])
        var withTransient = plain
        withTransient.attributes.append(Attribute(name: "speed", type: .integer64, isTransient: true))
        withTransient.relationships.append(Relationship(name: "ghost", destinationEntity: "Car", isTransient: true))
        #expect(Self.hash(plain) == Self.hash(withTransient))
    }

    @Test func versionHashModifiersChangeTheHash() {
        let plain = Entity(name: "Car", attributes: [Attribute(name: "maker", type: .string)])
        var entityModified = plain
        entityModified.versionHashModifier = "2"
        var attributeModified = plain
        attributeModified.attributes[0].versionHashModifier = "2"
        let hashes = [Self.hash(plain), Self.hash(entityModified), Self.hash(attributeModified)]
        #expect(Set(hashes).count == 3)
    }

    @Test func orderedChangesTheRelationshipHash() {
        let unordered = Relationship(name: "items", destinationEntity: "Item", inverseName: "list", isToMany: true)
        var ordered = unordered
        ordered.isOrdered = true
        let base = SHA2.sha256(Array("items".utf8) + Self.le16(1))
        let body = base + Array("Item".utf8) + Array("list".utf8) + Self.le32(0) + Self.le32(0)
        #expect(VersionHasher.relationshipHash(unordered) == SHA2.sha256(body))
        #expect(VersionHasher.relationshipHash(ordered) == SHA2.sha256(body + [1, 0]))
    }

    @Test func deleteRuleIsNotHashed() {
        let nullify = Relationship(name: "owner", destinationEntity: "Person", deleteRule: .nullify)
        let cascade = Relationship(name: "owner", destinationEntity: "Person", deleteRule: .cascade)
        #expect(VersionHasher.relationshipHash(nullify) == VersionHasher.relationshipHash(cascade))
    }

    @Test func subEntityHashesItsParentAndInheritedProperties() {
        let root = Entity(name: "Region", isAbstract: true, attributes: [Attribute(name: "name", type: .string)])
        let child = Entity(name: "Country", parentName: "Region", attributes: [Attribute(name: "code", type: .integer16)])
        let hashes = ModelHashes.compute(for: Self.model([child, root])).entities
        let rootHash = SHA2.sha256(Array("Region".utf8) + [1] + VersionHasher.attributeHash(root.attributes[0]))
        #expect(hashes["Region"] == rootHash)
        let childHash = SHA2.sha256(Array("Country".utf8) + [0] + rootHash
            + VersionHasher.attributeHash(child.attributes[0]) + VersionHasher.attributeHash(root.attributes[0]))
        #expect(hashes["Country"] == childHash)
    }

    /// Byte order, not Swift's String order: "Z" (0x5A) sorts before "a" (0x61), "é" after "z".
    @Test func propertiesAndEntitiesSortInByteOrder() {
        #expect(VersionHasher.byteOrder("Zeta", "alpha"))
        #expect(VersionHasher.byteOrder("z", "é"))
        #expect(!VersionHasher.byteOrder("é", "z"))
        let entities = [Entity(name: "b"), Entity(name: "B"), Entity(name: "a")]
        let hashes = ModelHashes.compute(for: Self.model(entities))
        #expect(hashes.sortedEntityNames == ["B", "a", "b"])
        let all = hashes.entities
        let checksum = SHA2.sha256(all["B"]! + all["a"]! + all["b"]!)
        #expect(hashes.checksum == Data(checksum).base64EncodedString())
        let digest = SHA2.sha512(Array("B".utf8) + all["B"]! + Array("a".utf8) + all["a"]! + Array("b".utf8) + all["b"]!)
        #expect(hashes.digest == Data(digest).base64EncodedString())
    }
}
