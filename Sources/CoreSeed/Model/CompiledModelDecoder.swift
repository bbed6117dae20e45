/// Decodes a compiled model (the `NSManagedObjectModel` keyed archive of a `.mom` file or of a store's
/// `Z_MODELCACHE`, DESIGN §4c.7) into the ``Model`` the XML parser produces.
///
/// Keys are those `-[NSEntityDescription encodeWithCoder:]` and its property classes write (read
/// from the corpus stores' caches and the decompiled framework). A class or key not listed here is
/// an error naming it; keys that change neither the layout, the hashes nor the values (Spotlight,
/// CloudKit encryption, compiler versions, fetch request templates) are listed as known and ignored.
enum CompiledModelDecoder {
    typealias Failure = CompiledModelReader.Failure
    typealias Node = KeyedArchiveGraph.Node

    static let modelKeys: Set<String> = [
        "NSEntities", "NSConfigurations", "NSVersionIdentifiers",
        // Known and ignored: fetch request templates never reach the store; compiler versions.
        "NSFetchRequestTemplates", "CDMCompilerToolVersion", "CDMCompilerXcodeVersion",
    ]

    static let entityKeys: Set<String> = [
        "NSEntityName", "NSClassNameForEntity", "NSIsAbstract", "NSSuperentity", "NSProperties", "NSUserInfo",
        "NSVersionHashModifier", "NSRenamingIdentifier", "NSUniqueTuples", "NSFetchIndexDescriptions", "NSCompoundIndexes",
        // Known and ignored: back references (the model, the sub-entities, which NSSuperentity gives)
        // and the Spotlight display name.
        "NSManagedObjectModel", "NSSubentities", "NSCoreSpotlightDisplayName",
    ]

    /// The model archived in `bytes`, named `versionName`; `path` names it in diagnostics.
    static func model(_ bytes: [UInt8], versionName: String, path: String) throws(Failure) -> Model {
        let graph = try ArchiveObjectReader.lift { () throws(KeyedUnarchiver.Failure) in try KeyedArchiveGraph(bytes) }
        let reader = ArchiveObjectReader(graph: graph)
        guard case .object(let rootClass, let root) = try reader.node(graph.root) else {
            throw Failure(message: "the archive's root is not an object")
        }
        guard rootClass == "NSManagedObjectModel" else {
            throw Failure(message: "the archive holds a \(rootClass), not a compiled model (NSManagedObjectModel)")
        }
        try reader.checkKeys(root, rootClass, "the model", known: modelKeys)
        var entities: [Entity] = []
        for (name, value) in try reader.entries(try reader.field(root, "NSEntities"), "NSEntities") {
            guard case .object(let className, let uid) = value else {
                throw Failure(message: "NSEntities '\(name)' is \(ArchiveObjectReader.describe(value)), not an entity")
            }
            guard className == "NSEntityDescription" else {
                throw Failure(message: "NSEntities '\(name)' is an object of class \(className), which CoreSeed does not know")
            }
            entities.append(try entity(uid, reader: reader))
        }
        entities.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        var configurations: [Model.Configuration] = []
        for (name, value) in try reader.entries(try reader.field(root, "NSConfigurations"), "NSConfigurations") {
            var members: [String] = []
            for member in try reader.members(value, "configuration '\(name)'") {
                if case .object("NSEntityDescription", _) = member, let entity = try reader.entityName(member, "configuration '\(name)'") {
                    members.append(entity)
                } else if let entity = try reader.string(member, "configuration '\(name)' member") {
                    members.append(entity)
                }
            }
            configurations.append(Model.Configuration(name: name, entityNames: members.sorted()))
        }
        configurations.sort { $0.name < $1.name }
        var identifiers: [String] = []
        for member in try reader.members(try reader.field(root, "NSVersionIdentifiers"), "NSVersionIdentifiers") {
            if let text = try reader.string(member, "NSVersionIdentifiers member") { identifiers.append(text) }
        }
        guard identifiers.count <= 1 else {
            throw Failure(message: "the model has \(identifiers.count) version identifiers (\(identifiers.sorted().joined(separator: ", "))); CoreSeed's model has one")
        }
        return Model(versionName: versionName, versionIdentifier: identifiers.first ?? "", entities: entities,
                     configurations: configurations, path: path)
    }

    static func entity(_ uid: Int, reader: ArchiveObjectReader) throws(Failure) -> Entity {
        guard let name = try reader.string(uid, "NSEntityName", "an entity") else { throw Failure(message: "an entity without NSEntityName") }
        let what = "entity '\(name)'"
        try reader.checkKeys(uid, "NSEntityDescription", what, known: entityKeys)
        let parentNode = try reader.field(uid, "NSSuperentity")
        let parentName = try reader.entityName(parentNode, "\(what) NSSuperentity")
        // A sub-entity's archive holds its inherited properties too (copies or proxies): they belong
        // to the ancestor that declares them.
        var inherited = Set<String>()
        var ancestor = parentNode
        for _ in 0..<ArchiveObjectReader.depthLimit {
            guard case .object("NSEntityDescription", let ancestorUID)? = ancestor else { break }
            for (key, _) in try reader.entries(try reader.field(ancestorUID, "NSProperties"), "\(what) ancestor properties") { inherited.insert(key) }
            ancestor = try reader.field(ancestorUID, "NSSuperentity")
        }
        var entity = Entity(
            name: name, parentName: parentName, isAbstract: try reader.bool(uid, "NSIsAbstract", what),
            representedClassName: try reader.string(uid, "NSClassNameForEntity", what),
            versionHashModifier: try reader.string(uid, "NSVersionHashModifier", what).flatMap { $0.isEmpty ? nil : $0 },
            renamingIdentifier: try reader.string(uid, "NSRenamingIdentifier", what).flatMap { $0 == name ? nil : $0 },
            userInfo: try reader.userInfo(uid, what))
        for (key, value) in try reader.entries(try reader.field(uid, "NSProperties"), "\(what) NSProperties") {
            guard case .object(let className, let propertyUID) = value else {
                throw Failure(message: "\(what) property '\(key)' is \(ArchiveObjectReader.describe(value)), not a property")
            }
            if inherited.contains(key) { continue }
            let propertyWhat = "property '\(name).\(key)'"
            switch className {
            case "NSAttributeDescription", "NSDerivedAttributeDescription":
                entity.attributes.append(try CompiledPropertyDecoder.attribute(propertyUID, className, propertyWhat, reader: reader))
            case "NSRelationshipDescription":
                entity.relationships.append(try CompiledPropertyDecoder.relationship(propertyUID, propertyWhat, reader: reader))
            case "NSFetchedPropertyDescription":
                try CompiledPropertyDecoder.checkFetchedProperty(propertyUID, propertyWhat, reader: reader)
                entity.fetchedPropertyNames.append(key)
            case "_NSPropertyDescriptionProxy":
                throw Failure(message: "\(propertyWhat) is an inherited-property proxy, but no ancestor of '\(name)' declares '\(key)'")
            default:
                throw Failure(message: "\(propertyWhat) is an object of class \(className), which CoreSeed does not know (composite attributes and other property kinds are not decoded)")
            }
        }
        entity.uniquenessConstraints = try propertyNameLists(try reader.field(uid, "NSUniqueTuples"), "\(what) NSUniqueTuples", reader: reader)
        let fetchIndexes = try reader.field(uid, "NSFetchIndexDescriptions")
        if case .object = fetchIndexes {
            // NSCompoundIndexes is then written from the fetch indexes (encodeWithCoder:): not read twice.
            var indexes: [Entity.FetchIndex] = []
            for index in try reader.members(fetchIndexes, "\(what) NSFetchIndexDescriptions") {
                indexes.append(try fetchIndex(index, what, reader: reader))
            }
            restoreModelFileIndexes(&entity, indexes)
        } else {
            entity.compoundIndexes = try propertyNameLists(try reader.field(uid, "NSCompoundIndexes"), "\(what) NSCompoundIndexes", reader: reader)
        }
        // Core Data orders an entity's properties by name (a model file lists them so, too).
        entity.attributes.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        entity.relationships.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return entity
    }

    /// Core Data keeps an `indexed="YES"` attribute as a fetch index named for it, and a compound index
    /// as one named for its properties joined by `_` (ascending, binary); and it archives NSIsIndexed
    /// for every property a fetch index covers; a model file's one-element fetch index also gives an
    /// index named for its property, before it (ddg-bookmarks-v2: `uuid`, `url`, `byUUID`, `byURL`).
    /// Back to the model file's form, which the layout reads (an explicit fetch index of the same name
    /// and elements gives the same statements).
    static func restoreModelFileIndexes(_ entity: inout Entity, _ indexes: [Entity.FetchIndex]) {
        var indexed = Set<String>()
        entity.fetchIndexes = []
        for (position, index) in indexes.enumerated() {
            let properties = index.elements.compactMap(\.property)
            let plain = properties.count == index.elements.count && index.elements.allSatisfy { $0.type == "Binary" && $0.isAscending }
            let fromLaterIndex = properties.count == 1 && indexes[(position + 1)...].contains { later in
                later.name != index.name && later.elements.count == 1 && later.elements[0].property == properties[0]
            }
            if plain, properties.count == 1, index.name == properties[0], fromLaterIndex {
                continue
            } else if plain, properties.count == 1, index.name == properties[0], entity.attribute(named: properties[0])?.isIndexed == true {
                indexed.insert(properties[0])
            } else if plain, properties.count > 1, index.name == properties.joined(separator: "_") {
                entity.compoundIndexes.append(properties)
            } else {
                entity.fetchIndexes.append(index)
            }
        }
        for position in entity.attributes.indices {
            entity.attributes[position].isIndexed = indexed.contains(entity.attributes[position].name)
        }
    }

    /// A list of lists of property names (uniqueness constraints, compound indexes): each element a
    /// name or a property object.
    static func propertyNameLists(_ node: Node?, _ what: String, reader: ArchiveObjectReader) throws(Failure) -> [[String]] {
        var result: [[String]] = []
        for list in try reader.members(node, what) {
            var names: [String] = []
            for element in try reader.members(list, what) {
                if case .object(let className, let uid) = element, className.hasSuffix("Description") {
                    guard let name = try reader.string(uid, "NSPropertyName", what) else { throw Failure(message: "\(what): a property without a name") }
                    names.append(name)
                } else if let name = try reader.string(element, what) {
                    names.append(name)
                }
            }
            result.append(names)
        }
        return result
    }

    static func fetchIndex(_ node: Node, _ what: String, reader: ArchiveObjectReader) throws(Failure) -> Entity.FetchIndex {
        guard case .object("NSFetchIndexDescription", let uid) = node else {
            throw Failure(message: "\(what) NSFetchIndexDescriptions holds \(ArchiveObjectReader.describe(node)), not a fetch index")
        }
        let name = try reader.string(uid, "NSIndexName", what) ?? ""
        let indexWhat = "\(what) fetch index '\(name)'"
        try reader.checkKeys(uid, "NSFetchIndexDescription", indexWhat, known: ["NSIndexName", "NSIndexElements", "NSPartialIndexPredicate", "NSEntity"])
        if let predicate = try reader.field(uid, "NSPartialIndexPredicate"), predicate != .null {
            throw Failure(message: "\(indexWhat) has a partial index predicate, which CoreSeed cannot write")
        }
        var elements: [Entity.FetchIndexElement] = []
        for element in try reader.members(try reader.field(uid, "NSIndexElements"), indexWhat) {
            guard case .object("NSFetchIndexElementDescription", let elementUID) = element else {
                throw Failure(message: "\(indexWhat) holds \(ArchiveObjectReader.describe(element)), not an index element")
            }
            try reader.checkKeys(elementUID, "NSFetchIndexElementDescription", indexWhat,
                                 known: ["NSPropertyName", "NSAscending", "NSFetchIndexElementType", "NSFetchIndexDescription"])
            guard let property = try reader.string(elementUID, "NSPropertyName", indexWhat) else {
                throw Failure(message: "\(indexWhat) has an element without a property (an expression element), which CoreSeed does not decode")
            }
            let type: String
            switch try reader.integer(elementUID, "NSFetchIndexElementType", indexWhat) ?? 0 {
            case 0: type = "Binary"
            case 1: type = "R-Tree"
            case let other: throw Failure(message: "\(indexWhat) has element type \(other), which CoreSeed does not know")
            }
            elements.append(Entity.FetchIndexElement(property: property, type: type,
                                                     isAscending: try reader.bool(elementUID, "NSAscending", indexWhat)))
        }
        return Entity.FetchIndex(name: name, elements: elements)
    }
}
