/// Decodes the properties of a compiled model's entity (``CompiledModelDecoder``): attributes,
/// derived attributes, relationships and fetched properties, with the keys
/// `-[NSPropertyDescription encodeWithCoder:]` and its subclasses write.
enum CompiledPropertyDecoder {
    typealias Failure = CompiledModelReader.Failure
    typealias Node = KeyedArchiveGraph.Node

    static let propertyKeys: Set<String> = [
        "NSPropertyName", "NSEntity", "_P", "NSIsOptional", "NSIsTransient", "NSIsReadOnly", "NSRenamingIdentifier",
        "NSUserInfo", "NSVersionHashModifier", "NSValidationPredicates",
        // Known and ignored: validation messages, Spotlight, CloudKit record and encryption flags.
        "NSValidationWarnings", "NSIndexedBySpotlight", "NSIsStoredInTruth", "NSAllowsCloudEncryption",
    ]
    static let attributeKeys = propertyKeys.union([
        "NSAttributeType", "NSDefaultValue", "NSValueTransformerName", "NSIsIndexed", "NSFlagsKey",
        "NSMinValueName", "NSMaxValueName",
        // Known and ignored: the value class (Core Data derives it from the type; kept for Transformable).
        "NSAttributeValueClassName",
    ])
    static let derivedKeys = attributeKeys.union(["NSDerivationExpression", "NSFilteringPredicate"])
    static let relationshipKeys = propertyKeys.union([
        "NSDestinationEntity", "_NSDestinationEntityName", "NSInverseRelationship", "_NSInverseRelationshipName",
        "NSMaxCount", "NSMinCount", "NSDeleteRule", "NSIsOrdered",
    ])
    static let fetchedKeys = propertyKeys.union([
        // Known and ignored: a fetched property is a query, never stored.
        "NSFetchRequest", "_NSFetchRequestEntityName",
    ])

    /// The flags of `NSPropertyDescription`: from `_P` when the archive has it (bits: 2 optional,
    /// 4 read-only, 8 transient, 0x400 ordered), else from the boolean keys.
    struct Flags {
        var isOptional, isReadOnly, isTransient, isOrdered: Bool
    }

    static func flags(_ uid: Int, _ what: String, reader: ArchiveObjectReader) throws(Failure) -> Flags {
        if let bits = try reader.integer(uid, "_P", what), bits != 0 {
            return Flags(isOptional: bits & 2 != 0, isReadOnly: bits & 4 != 0, isTransient: bits & 8 != 0, isOrdered: bits & 0x400 != 0)
        }
        return Flags(isOptional: try reader.bool(uid, "NSIsOptional", what), isReadOnly: try reader.bool(uid, "NSIsReadOnly", what),
                     isTransient: try reader.bool(uid, "NSIsTransient", what), isOrdered: try reader.bool(uid, "NSIsOrdered", what))
    }

    static func name(_ uid: Int, _ what: String, reader: ArchiveObjectReader) throws(Failure) -> String {
        guard let name = try reader.string(uid, "NSPropertyName", what) else { throw Failure(message: "\(what) has no NSPropertyName") }
        return name
    }

    /// A renaming identifier Core Data writes as the name itself when none is set: nil then.
    static func renamingIdentifier(_ uid: Int, _ name: String, _ what: String, reader: ArchiveObjectReader) throws(Failure) -> String? {
        try reader.string(uid, "NSRenamingIdentifier", what).flatMap { $0 == name ? nil : $0 }
    }

    static func modifier(_ uid: Int, _ what: String, reader: ArchiveObjectReader) throws(Failure) -> String? {
        try reader.string(uid, "NSVersionHashModifier", what).flatMap { $0.isEmpty ? nil : $0 }
    }

    static func attribute(_ uid: Int, _ className: String, _ what: String, reader: ArchiveObjectReader) throws(Failure) -> Attribute {
        let derived = className == "NSDerivedAttributeDescription"
        try reader.checkKeys(uid, className, what, known: derived ? derivedKeys : attributeKeys)
        let name = try name(uid, what, reader: reader)
        let flags = try flags(uid, what, reader: reader)
        let code = try reader.integer(uid, "NSAttributeType", what) ?? 0
        guard let type = AttributeType.allCases.first(where: { Int64($0.typeCode) == code }) else {
            throw Failure(message: "\(what) has attribute type \(code), which CoreSeed does not know")
        }
        guard type != .composite else { throw Failure(message: "\(what) is a composite attribute, which CoreSeed does not decode from a compiled model") }
        var derivation: String?
        if derived {
            if let filter = try reader.field(uid, "NSFilteringPredicate"), filter != .null {
                throw Failure(message: "\(what) is derived with a filtering predicate, which CoreSeed does not decode")
            }
            derivation = try ArchivedExpression(reader: reader).derivation(try reader.field(uid, "NSDerivationExpression"), what)
        } else if flags.isReadOnly {
            throw Failure(message: "\(what) is read-only, which a model file cannot say and CoreSeed does not hash")
        }
        let bits = try reader.integer(uid, "NSFlagsKey", what) ?? 0
        // 1: a maximum, 2: a minimum, 4: external storage, 0x10: preserved after deletion (decompiled
        // -[NSAttributeDescription encodeWithCoder:]); 0x20 (file-backed future) is not reproducible.
        guard bits & ~0x17 == 0 else {
            throw Failure(message: "\(what) has attribute flags \(bits) (NSFlagsKey), of which CoreSeed does not know \(bits & ~0x17)")
        }
        let expression = ArchivedExpression(reader: reader)
        let predicates = try expression.validation(try reader.field(uid, "NSValidationPredicates"), type: type, what)
        func bound(_ key: String) throws(Failure) -> String? {
            switch try reader.field(uid, key) {
            case .integer(let number)?: return String(number)
            case .real(let number)?: return type.isInteger || type == .string ? String(Int64(number)) : String(number)
            case .object("NSDate", let dateUID)?: return try ArchivedExpression.seconds(ofDate: dateUID, reader, what)
            case nil: return nil
            case let other?: throw Failure(message: "\(what) \(key) is \(ArchiveObjectReader.describe(other)), not a number")
            }
        }
        let transformer = try reader.string(uid, "NSValueTransformerName", what)
        let defaultValue = try expression.defaultValue(try reader.field(uid, "NSDefaultValue"), type: type, what)
        let minimum = bits & 2 != 0 ? try bound("NSMinValueName") : predicates.minimum
        let maximum = bits & 1 != 0 ? try bound("NSMaxValueName") : predicates.maximum
        // A Date's bounds are seconds since 2001, kept apart as the model file keeps them.
        let isDate = type == .date
        var attribute = Attribute(
            name: name, type: type, isOptional: flags.isOptional, isTransient: flags.isTransient,
            derivationExpression: derivation, isIndexed: try reader.bool(uid, "NSIsIndexed", what),
            defaultValueString: defaultValue.text,
            minValueString: isDate ? nil : minimum, maxValueString: isDate ? nil : maximum,
            allowsExternalBinaryDataStorage: bits & 4 != 0, preserveAfterDeletion: bits & 0x10 != 0,
            versionHashModifier: try modifier(uid, what, reader: reader),
            renamingIdentifier: try renamingIdentifier(uid, name, what, reader: reader),
            valueTransformerName: transformer,
            customClassName: type == .transformable ? try reader.string(uid, "NSAttributeValueClassName", what) : nil,
            userInfo: try reader.userInfo(uid, what),
            otherValidationPredicates: predicates.others, opaqueDefaultClassName: defaultValue.opaqueClass)
        if isDate { (attribute.minDateTimeInterval, attribute.maxDateTimeInterval) = (minimum, maximum) }
        return attribute
    }

    static func relationship(_ uid: Int, _ what: String, reader: ArchiveObjectReader) throws(Failure) -> Relationship {
        try reader.checkKeys(uid, "NSRelationshipDescription", what, known: relationshipKeys)
        let name = try name(uid, what, reader: reader)
        let flags = try flags(uid, what, reader: reader)
        guard !flags.isReadOnly else { throw Failure(message: "\(what) is read-only, which a model file cannot say and CoreSeed does not hash") }
        var destination = try reader.string(uid, "_NSDestinationEntityName", what)
        if destination == nil { destination = try reader.entityName(try reader.field(uid, "NSDestinationEntity"), "\(what) NSDestinationEntity") }
        guard let destination else {
            throw Failure(message: "\(what) has no destination entity")
        }
        var inverse = try reader.string(uid, "_NSInverseRelationshipName", what)
        if inverse == nil, case .object(let inverseClass, let inverseUID)? = try reader.field(uid, "NSInverseRelationship") {
            guard inverseClass == "NSRelationshipDescription" else {
                throw Failure(message: "\(what) NSInverseRelationship is an object of class \(inverseClass), not a relationship")
            }
            inverse = try reader.string(inverseUID, "NSPropertyName", what)
        }
        let maxCount = Int(try reader.integer(uid, "NSMaxCount", what) ?? 0)
        let minCount = Int(try reader.integer(uid, "NSMinCount", what) ?? 0)
        // A model built in code can leave the maximum at NSUIntegerMax (archived as -1): unbounded, and
        // hashed as written (coredataplus-samplemodel2-v1 `Author.books`).
        guard maxCount >= -1, minCount >= 0 else { throw Failure(message: "\(what) has counts \(minCount)…\(maxCount)") }
        let rule: Relationship.DeleteRule
        switch try reader.integer(uid, "NSDeleteRule", what) ?? 1 {
        case 0: rule = .noAction
        case 1: rule = .nullify
        case 2: rule = .cascade
        case 3: rule = .deny
        case let other: throw Failure(message: "\(what) has delete rule \(other), which CoreSeed does not know")
        }
        // -[NSRelationshipDescription isToMany]: any maximum other than 1.
        let toMany = maxCount != 1
        return Relationship(
            name: name, destinationEntity: destination, inverseName: inverse, inverseEntity: inverse == nil ? nil : destination,
            isToMany: toMany, isOrdered: flags.isOrdered, isOptional: flags.isOptional, isTransient: flags.isTransient,
            maxCount: maxCount, minCount: minCount, deleteRule: rule,
            versionHashModifier: try modifier(uid, what, reader: reader),
            renamingIdentifier: try renamingIdentifier(uid, name, what, reader: reader),
            userInfo: try reader.userInfo(uid, what))
    }

    static func checkFetchedProperty(_ uid: Int, _ what: String, reader: ArchiveObjectReader) throws(Failure) {
        try reader.checkKeys(uid, "NSFetchedPropertyDescription", what, known: fetchedKeys)
    }
}
