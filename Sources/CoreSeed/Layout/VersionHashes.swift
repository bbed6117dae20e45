import Foundation

/// The version hashes Core Data records in a store's metadata (`NSStoreModelVersionHashes`,
/// `NSStoreModelVersionHashesDigest`, `NSStoreModelVersionChecksumKey`), computed from a model.
///
/// Core Data opens a store only when every entity hash equals the app model's (error 134100 otherwise).
/// The rules (DESIGN §4, checked against every corpus store with an XML model) are in `VersionHasher`.
public struct ModelHashes: Sendable, Equatable {
    /// Entity name → 32-byte SHA-256 version hash; every entity, abstract ones included.
    public var entities: [String: [UInt8]]
    /// `NSStoreModelVersionHashesDigest`: base64 SHA-512 over each entity's name and hash, in name order.
    public var digest: String
    /// `NSStoreModelVersionChecksumKey`: base64 SHA-256 over the entity hashes, in name order.
    public var checksum: String

    public init(entities: [String: [UInt8]], digest: String, checksum: String) {
        self.entities = entities
        self.digest = digest
        self.checksum = checksum
    }

    /// The entity names in the order Core Data combines them: plain UTF-8 byte order.
    public var sortedEntityNames: [String] { entities.keys.sorted(by: VersionHasher.byteOrder) }

    /// The hashes of every entity of `model`, with the digest and checksum over them.
    ///
    /// The model must be valid (every parent and destination known); `ModelParser` checks that.
    public static func compute(for model: Model) -> ModelHashes {
        var hasher = VersionHasher(model: model)
        var entities: [String: [UInt8]] = [:]
        for entity in model.entities {
            entities[entity.name] = hasher.entityHash(entity.name)
        }
        return ModelHashes(entities: entities)
    }

    /// Digest and checksum over already-known entity hashes (e.g. those read from a store).
    public init(entities: [String: [UInt8]]) {
        let names = entities.keys.sorted(by: VersionHasher.byteOrder)
        var digestInput: [UInt8] = []
        var checksumInput: [UInt8] = []
        for name in names {
            let hash = entities[name] ?? []
            digestInput += Array(name.utf8) + hash
            checksumInput += hash
        }
        self.entities = entities
        self.digest = Data(SHA2.sha512(digestInput)).base64EncodedString()
        self.checksum = Data(SHA2.sha256(checksumInput)).base64EncodedString()
    }
}

/// The hash rules, one function per kind of element. Names are UTF-8 without terminator,
/// integers little-endian.
struct VersionHasher {
    private let entitiesByName: [String: Entity]
    private var cache: [String: [UInt8]] = [:]

    init(model: Model) {
        var byName: [String: Entity] = [:]
        for entity in model.entities { byName[entity.name] = entity }
        entitiesByName = byName
    }

    /// Plain byte order of the UTF-8 forms (Swift's `<` on `String` compares Unicode scalars
    /// after normalisation, which is not what Core Data does).
    static func byteOrder(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Property flags: optional 1, transient 2, read-only 4 (read-only cannot be set in a model file).
    static func flags(isOptional: Bool, isTransient: Bool, isReadOnly: Bool = false) -> UInt16 {
        (isOptional ? 1 : 0) | (isTransient ? 2 : 0) | (isReadOnly ? 4 : 0)
    }

    /// SHA-256( name ‖ UInt16 flags ‖ versionHashModifier if set ).
    static func propertyBase(name: String, flags: UInt16, modifier: String?) -> [UInt8] {
        var bytes = Array(name.utf8)
        bytes.appendLittleEndian(flags)
        if let modifier { bytes += Array(modifier.utf8) }
        return SHA2.sha256(bytes)
    }

    /// SHA-256( base ‖ UInt32 type code ‖ 01 if external storage ‖ 01 if preserved after deletion ).
    /// A derived attribute's is SHA-256 of its derivation's `predicateFormat` alone (see ``derivationFormat(_:)``).
    static func attributeHash(_ attribute: Attribute) -> [UInt8] {
        if let expression = attribute.derivationExpression {
            return SHA2.sha256(Array(derivationFormat(expression).utf8))
        }
        var bytes = propertyBase(
            name: attribute.name,
            flags: flags(isOptional: attribute.isOptional, isTransient: attribute.isTransient),
            modifier: attribute.versionHashModifier)
        bytes.appendLittleEndian(attribute.type.typeCode)
        if attribute.allowsExternalBinaryDataStorage { bytes.append(1) }
        if attribute.preserveAfterDeletion { bytes.append(1) }
        return SHA2.sha256(bytes)
    }

    /// The `predicateFormat` Core Data hashes for a derivation as a model file writes it:
    /// `NSDerivedAttributeDescription setDerivationExpression:` turns a key path ending in `.@count`
    /// into the function `count:(path)`, and `.@sum` / `.@total` into `sum:(path)` (decompiled); the
    /// version hash is SHA-256 of that text only — the attribute's own hash is computed and not used.
    /// Observed: `coredataplus-samplemodel2-v1`'s Book hash (`pages.@count` → `count:(pages)`).
    /// Other forms are hashed as written (inferred: a key path's format is itself).
    static func derivationFormat(_ expression: String) -> String {
        let text = expression.trimmingCharacters(in: .whitespaces)
        for (suffix, function) in [(".@count", "count:"), (".@sum", "sum:"), (".@total", "sum:")] where text.hasSuffix(suffix) {
            return "\(function)(\(text.dropLast(suffix.count)))"
        }
        return text
    }

    /// SHA-256( base ‖ destination ‖ inverse if any ‖ UInt32 maxCount ‖ UInt32 minCount ‖ 01 00 if ordered ).
    static func relationshipHash(_ relationship: Relationship) -> [UInt8] {
        var bytes = propertyBase(
            name: relationship.name,
            flags: flags(isOptional: relationship.isOptional, isTransient: relationship.isTransient),
            modifier: relationship.versionHashModifier)
        bytes += Array(relationship.destinationEntity.utf8)
        if let inverse = relationship.inverseName { bytes += Array(inverse.utf8) }
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.maxCount))
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.minCount))
        if relationship.isOrdered { bytes += [1, 0] }
        return SHA2.sha256(bytes)
    }

    /// SHA-256( name ‖ byte isAbstract ‖ parent's hash ‖ property hashes by name ‖ modifier ‖ constraints ).
    mutating func entityHash(_ name: String) -> [UInt8] {
        if let known = cache[name] { return known }
        guard let entity = entitiesByName[name] else {
            preconditionFailure("entity '\(name)' is not in the model (the model validator rejects this)")
        }
        var bytes = Array(entity.name.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let parent = entity.parentName { bytes += entityHash(parent) }

        var properties: [(name: String, hash: [UInt8])] = []
        for owner in lineage(of: entity) {
            for attribute in owner.attributes where !attribute.isTransient {
                properties.append((attribute.name, Self.attributeHash(attribute)))
            }
            for relationship in owner.relationships where !relationship.isTransient {
                properties.append((relationship.name, Self.relationshipHash(relationship)))
            }
        }
        properties.sort { Self.byteOrder($0.name, $1.name) }
        for property in properties { bytes += property.hash }

        if let modifier = entity.versionHashModifier { bytes += Array(modifier.utf8) }
        let constraints = entity.uniquenessConstraints
            .map { $0.joined(separator: ".") }
            .filter { !$0.isEmpty }
            .sorted(by: Self.byteOrder)
        for constraint in constraints { bytes += Array(constraint.utf8) }

        let hash = SHA2.sha256(bytes)
        cache[name] = hash
        return hash
    }

    /// The entity and its ancestors, root first.
    private func lineage(of entity: Entity) -> [Entity] {
        var chain = [entity]
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.parentName, let parent = entitiesByName[parentName], seen.insert(parentName).inserted {
            chain.append(parent)
            current = parent
        }
        return chain.reversed()
    }
}

extension Array where Element == UInt8 {
    /// Appends `value`'s bytes, least significant first.
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        // SAFETY: the bytes of a local copy, read (copied in) within the closure that lends them.
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
