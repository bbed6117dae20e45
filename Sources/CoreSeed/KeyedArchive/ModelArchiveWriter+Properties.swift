/// Attributes and relationships: `-[NSPropertyDescription encodeWithCoder:]` and its subclasses'.
extension ModelArchiveWriter {
    /// One property of an entity, inherited ones with the entity that declares them.
    struct Member {
        var declaredBy: String
        var attribute: Attribute?
        var relationship: Relationship?
        var name: String { attribute?.name ?? relationship!.name }
    }

    /// Every property of `entity`, inherited ones first (root first), each entity's attributes then
    /// its relationships, in declaration order.
    func members(of entity: String) -> [Member] {
        lineage(entity).flatMap { owner in
            owner.attributes.map { Member(declaredBy: owner.name, attribute: $0) }
                + owner.relationships.map { Member(declaredBy: owner.name, relationship: $0) }
        }
    }

    func encodeProperties(of entity: String) -> Node {
        let all = members(of: entity)
        let byName = Dictionary(all.map { ($0.name, $0) }) { first, _ in first }
        let (attributes, relationships) = propertyOrder(of: entity)
        let insertion = attributes + relationships
        return mutableDictionary(keys: insertion, key: { name in
            shape == .copied ? archiver.string(name, identity: "k:\(entity):\(name)") : propertyName(name, declaredBy: byName[name]!.declaredBy)
        }, value: { name in
            encodeProperty(byName[name]!, of: entity)
        })
    }

    /// The order of the entity's properties in Core Data's own dictionary, which the archived copy is
    /// built from: a root entity's attributes by name, then its relationships by name (87 of the 96 root
    /// entities of the corpus caches); a sub-entity's are its parent's attributes in the parent's order,
    /// then its own by name, and likewise relationships (every sub-entity of the caches but Wire's).
    func propertyOrder(of entity: String) -> (attributes: [String], relationships: [String]) {
        guard let declared = entities[entity] else { return ([], []) }
        func sorted(_ names: [String]) -> [String] { names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        let own = (sorted(declared.attributes.map(\.name)), sorted(declared.relationships.map(\.name)))
        guard let parent = declared.parentName else { return own }
        let inherited = propertyOrder(of: parent)
        return (inherited.attributes + own.0, inherited.relationships + own.1)
    }

    func encodeProperty(_ member: Member, of entity: String) -> Node {
        if let attribute = member.attribute {
            let derived = attribute.derivationExpression != nil
            let classes = (derived ? ["NSDerivedAttributeDescription"] : []) + ["NSAttributeDescription", "NSPropertyDescription", "NSObject"]
            return archiver.object("p:\(entity):\(member.name)", classes: classes, keyOrder: derived ? Self.derivedKeys : Self.attributeKeys) { fields in
                encodeCommon(&fields, member, entity, isOptional: attribute.isOptional, isTransient: attribute.isTransient, isOrdered: false,
                             isReadOnly: derived)
                fields.add("NSAttributeType", archiver.integer(Int64(attribute.type.typeCode)))
                // Core Data's constant strings: one object per value, never the tagged class-name strings.
                fields.add("NSAttributeValueClassName", valueClassName(attribute).map { archiver.string($0, identity: "class:\($0)") } ?? archiver.null)
                fields.add("NSDefaultValue", defaultValue(attribute))
                fields.add("NSValueTransformerName", attribute.valueTransformerName.map { archiver.string($0) } ?? archiver.null)
                if archivesAsIndexed(attribute, declaredBy: member.declaredBy) { fields.add("NSIsIndexed", archiver.boolean(true)) }
                var flags: Int64 = 0
                if attribute.allowsExternalBinaryDataStorage { flags |= 4 }
                if attribute.preserveAfterDeletion { flags |= 0x10 }
                fields.add("NSFlagsKey", archiver.integer(flags))
                if let expression = attribute.derivationExpression {
                    // One expression object, shared by a sub-entity's copy (`copyWithZone:` keeps the pointer).
                    fields.add("NSDerivationExpression", encodeDerivation(expression, identity: "x:\(member.declaredBy):\(member.name)"))
                    fields.add("NSFilteringPredicate", archiver.null)
                }
            }
        }
        let relationship = member.relationship!
        return archiver.object("p:\(entity):\(member.name)", classes: ["NSRelationshipDescription", "NSPropertyDescription", "NSObject"],
                               keyOrder: Self.relationshipKeys) { fields in
            encodeCommon(&fields, member, entity, isOptional: relationship.isOptional, isTransient: relationship.isTransient,
                         isOrdered: relationship.isOrdered)
            fields.add("NSMinCount", archiver.integer(Int64(relationship.minCount)))
            fields.add("NSMaxCount", archiver.integer(Int64(relationship.isToMany ? relationship.maxCount : 1)))
            fields.add("NSDeleteRule", archiver.integer(Self.deleteRuleCode(relationship.deleteRule)))
            let destination = relationship.destinationEntity
            fields.add("NSDestinationEntity", archiver.conditional("e:\(destination)"))
            fields.add("_NSDestinationEntityName", entityName(destination))
            if let inverse = relationship.inverseName {
                fields.add("NSInverseRelationship", archiver.conditional("p:\(destination):\(inverse)"))
                fields.add("_NSInverseRelationshipName", propertyName(inverse, declaredBy: declaringEntity(of: inverse, in: destination)))
            } else {
                fields.add("NSInverseRelationship", archiver.null)
                fields.add("_NSInverseRelationshipName", archiver.null)
            }
        }
    }

    /// The order an attribute's keys enter its dictionary, fitted to the corpus caches (1,166 of the
    /// 1,174 attributes with these keys): `NSPropertyName` after `NSDefaultValue`, and `NSIsTransient`
    /// and `NSIsIndexed` after `$class`, unlike the encoding order of `encodeWithCoder:`.
    static let attributeKeys = [
        "NSIsOptional", "NSRenamingIdentifier", "NSVersionHashModifier", "NSEntity", "_P", "NSAttributeType", "NSAttributeValueClassName", "NSDefaultValue",
        "NSPropertyName", "NSValueTransformerName", "NSFlagsKey", "$class", "NSIsTransient", "NSIsIndexed",
    ]
    /// A derived attribute's keys (`NSDerivedAttributeDescription`): an attribute's with `NSIsReadOnly`
    /// where `-[NSPropertyDescription encodeWithCoder:]` writes it (after `NSIsOptional`) and the
    /// derivation and its filter after `NSFlagsKey`, as its `encodeWithCoder:` writes them after the
    /// attribute's (the key order of `coredataplus-samplemodel2-v1`'s derived attributes).
    static let derivedKeys: [String] = {
        var keys = attributeKeys
        keys.insert("NSIsReadOnly", at: keys.firstIndex(of: "NSIsOptional")! + 1)
        keys.insert(contentsOf: ["NSDerivationExpression", "NSFilteringPredicate"], at: keys.firstIndex(of: "NSFlagsKey")! + 1)
        return keys
    }()

    /// A relationship's keys in encoding order (all 488 relationships of the corpus caches).
    static let relationshipKeys = [
        "NSIsTransient", "NSIsOptional", "NSIsOrdered", "NSRenamingIdentifier", "NSPropertyName", "NSEntity", "_P",
        "NSMinCount", "NSMaxCount", "NSDeleteRule", "NSDestinationEntity", "_NSDestinationEntityName",
        "NSInverseRelationship", "_NSInverseRelationshipName", "$class",
    ]

    /// `-[NSPropertyDescription encodeWithCoder:]`: flags, names, entity, and `_P` (optional 2 with bit 1
    /// always set, read-only 4, transient 8, ordered 0x400; 0x10/0x20/0x40/0x80 for no validation predicates, no
    /// warnings, no user info, no version hash modifier).
    func encodeCommon(_ fields: inout ObjectArchiver.Fields, _ member: Member, _ entity: String,
                      isOptional: Bool, isTransient: Bool, isOrdered: Bool, isReadOnly: Bool = false) {
        var flags: Int64 = isOptional ? 3 : 1
        if isOptional { fields.add("NSIsOptional", archiver.boolean(true)) }
        if isReadOnly {
            fields.add("NSIsReadOnly", archiver.boolean(true))
            flags |= 4
        }
        if isTransient {
            fields.add("NSIsTransient", archiver.boolean(true))
            flags |= 8
        }
        if isOrdered {
            fields.add("NSIsOrdered", archiver.boolean(true))
            flags |= 0x400
        }
        let name = propertyName(member.name, declaredBy: member.declaredBy)
        let renaming = member.attribute?.renamingIdentifier ?? member.relationship?.renamingIdentifier
        fields.add("NSRenamingIdentifier", renaming.map { archiver.string($0) } ?? name)
        fields.add("NSPropertyName", name)
        fields.add("NSEntity", archiver.conditional("e:\(entity)"))
        flags |= 0x10 | 0x20 | 0x40
        if let modifier = member.attribute?.versionHashModifier {
            fields.add("NSVersionHashModifier", archiver.string(modifier))
        } else {
            flags |= 0x80
        }
        fields.add("_P", archiver.integer(flags))
    }

    static func deleteRuleCode(_ rule: Relationship.DeleteRule) -> Int64 {
        switch rule {
        case .noAction: 0
        case .nullify: 1
        case .cascade: 2
        case .deny: 3
        }
    }

    /// `attributeValueClassName` for the attribute's type.
    func valueClassName(_ attribute: Attribute) -> String? {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: "NSNumber"
        case .decimal: "NSDecimalNumber"
        case .string: "NSString"
        case .date: "NSDate"
        case .binary: "NSData"
        case .uuid: "NSUUID"
        case .uri: "NSURL"
        // A Transformable's custom class is not archived (coredataplus-samplemodel-v1: "Color" → nil).
        case .transformable: nil
        case .undefined, .objectID, .composite: nil
        }
    }

    /// `NSDefaultValue`: nil, or the number, boolean or string the model gives.
    func defaultValue(_ attribute: Attribute) -> Node {
        guard let text = attribute.defaultValueString else { return archiver.null }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            // A default decoded from the compiled model: a 64-bit number, another object than the
            // 32-bit numbers `encodeInt:` writes (`contentful-persistence-test`).
            return Int64(text).map { archiver.number(archiver.integer($0, wide: true)) } ?? archiver.null
        case .double, .float:
            return Double(text).map { archiver.number(archiver.real($0)) } ?? archiver.null
        case .boolean:
            return archiver.number(archiver.boolean(["YES", "TRUE", "1"].contains(text.uppercased())))
        case .string:
            return archiver.string(text)
        default:
            return archiver.null
        }
    }

    /// Why an attribute's archived form is not proven, or nil.
    static func unsupported(_ attribute: Attribute) -> String? {
        if !attribute.userInfo.isEmpty { return "user info" }
        if attribute.minValueString != nil || attribute.maxValueString != nil || attribute.regularExpressionString != nil
            || attribute.minDateTimeInterval != nil || attribute.maxDateTimeInterval != nil || !attribute.otherValidationPredicates.isEmpty {
            return "validation predicates"
        }
        if let expression = attribute.derivationExpression, ModelArchiveWriter.countedRelationship(expression) == nil {
            return "the derivation \(expression)"
        }
        if attribute.opaqueDefaultClassName != nil { return "an archived default value" }
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean, .string, .date, .binary, .uuid, .uri:
            if attribute.defaultValueString != nil && [.date, .binary, .uuid, .uri].contains(attribute.type) { return "a default value of type \(attribute.type.rawValue)" }
            return nil
        case .transformable:
            // Matched object for object in coredataplus-samplemodel-v1 and wire-store2-24-1/2-30-0
            // (ModelArchiverAttributeEvidenceTests); a default is an app object's archive.
            return attribute.defaultValueString != nil ? "a default value of type Transformable" : nil
        case .decimal, .undefined, .objectID, .composite:
            return "type \(attribute.type.rawValue)"
        }
    }
}
