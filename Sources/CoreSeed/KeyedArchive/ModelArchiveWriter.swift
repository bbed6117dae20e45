/// The state of one ``ModelArchiver`` run: the model's lookups and the object archiver.
///
/// Object identities (``ObjectArchiver``'s slots): `model`, `e:<entity>`, `p:<entity>:<property>` (a
/// sub-entity holds its own copy of every inherited property).
struct ModelArchiveWriter {
    typealias Node = ObjectArchiver.Node

    let model: Model
    let shape: ModelArchiver.Shape
    let archiver = ObjectArchiver()
    let entities: [String: Entity]
    let children: [String: [String]]

    init(model: Model, shape: ModelArchiver.Shape) {
        self.model = model
        self.shape = shape
        entities = Dictionary(model.entities.map { ($0.name, $0) }) { first, _ in first }
        var children: [String: [String]] = [:]
        for entity in model.entities {
            if let parent = entity.parentName { children[parent, default: []].append(entity.name) }
        }
        self.children = children
    }

    /// Entity names in the order of Core Data's known-keys mapping (plain byte order).
    var sortedEntityNames: [String] { model.entities.map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// The entity's ancestors, root first, then the entity.
    func lineage(_ name: String) -> [Entity] {
        var chain: [Entity] = []
        var current = entities[name]
        while let entity = current {
            chain.insert(entity, at: 0)
            current = entity.parentName.flatMap { entities[$0] }
        }
        return chain
    }

    /// A string of the model: one object per value, or (a copied model) one per `identity`.
    func text(_ value: String?, identity: String) -> Node {
        shape == .copied ? archiver.string(value, identity: identity) : archiver.string(value)
    }

    func entityName(_ name: String) -> Node { archiver.string(name) }

    func propertyName(_ name: String, declaredBy entity: String) -> Node { text(name, identity: "n:\(entity):\(name)") }

    // MARK: The model

    func encodeModel() -> Node {
        archiver.object("model", classes: ["NSManagedObjectModel", "NSObject"],
                        keyOrder: ["NSEntities", "NSFetchRequestTemplates", "NSVersionIdentifiers"]) { fields in
            fields.add("NSEntities", knownKeysDictionary())
            fields.add("NSFetchRequestTemplates", archiver.null)
            let setClass = shape == .copied ? ["NSMutableSet", "NSSet", "NSObject"] : ["NSSet", "NSObject"]
            fields.add("NSVersionIdentifiers", archiver.collection(classes: setClass) { [archiver.string(model.versionIdentifier)] })
        }
    }

    /// `NSKnownKeysDictionary1` of the entities by name, with its `NSKnownKeysMappingStrategy1`.
    func knownKeysDictionary() -> Node {
        let names = sortedEntityNames
        return archiver.object("entities", classes: ["NSKnownKeysDictionary1", "NSKnownKeysDictionary", "NSMutableDictionary", "NSDictionary", "NSObject"],
                               keyOrder: ["version", "searchMapping", "emptyToken", "values"]) { fields in
            fields.add("version", archiver.integer(1))
            let mapping = archiver.object("mapping", classes: ["NSKnownKeysMappingStrategy1", "NSKnownKeysMappingStrategy", "NSObject"],
                                          keyOrder: ["version", "length", "keys"]) { strategy in
                strategy.add("version", archiver.integer(1))
                strategy.add("length", archiver.integer(Int64(names.count), wide: true))
                strategy.add("keys", archiver.collection(classes: ["NSArray", "NSObject"]) { names.map { entityName($0) } })
            }
            fields.add("searchMapping", mapping)
            fields.add("emptyToken", archiver.string("__empty_slot_token_4c24_98dc_ac1e_b773__"))
            fields.add("values", archiver.collection(classes: ["NSArray", "NSObject"]) { names.map { encodeEntity($0) } })
        }
    }

    /// An `NSMutableDictionary` copy (`initWithDictionary:`) whose keys come in hash-table order.
    func mutableDictionary(keys: [String], key: (String) -> Node, value: (String) -> Node) -> Node {
        let ordered = CFBasicHashOrder.ordered(sizedFor: keys)
        return archiver.object("c:\(archiver.nextSlot)", classes: ["NSMutableDictionary", "NSDictionary", "NSObject"]) { fields in
            let keyNodes = ordered.map(key)
            let valueNodes = ordered.map(value)
            fields.add("NS.keys", Node(.array(keyNodes)))
            fields.add("NS.objects", Node(.array(valueNodes)))
        }
    }

    // MARK: Entities

    func encodeEntity(_ name: String) -> Node {
        let entity = entities[name]!
        return archiver.object("e:\(name)", classes: ["NSEntityDescription", "NSObject"], keyOrder: Self.entityKeys) { fields in
            fields.add("NSEntityName", entityName(name))
            fields.add("NSClassNameForEntity", className(entity))
            if entity.isAbstract { fields.add("NSIsAbstract", archiver.boolean(true)) }
            fields.add("NSManagedObjectModel", archiver.conditional("model"))
            fields.add("NSSuperentity", archiver.conditional(entity.parentName.map { "e:\($0)" }))
            let subentities = (children[name] ?? []).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            if subentities.isEmpty && shape == .copied {
                fields.add("NSSubentities", archiver.null)
            } else {
                fields.add("NSSubentities", mutableDictionary(keys: subentities, key: { entityName($0) }, value: { encodeEntity($0) }))
            }
            fields.add("NSProperties", encodeProperties(of: name))
            fields.add("NSUserInfo", archiver.object("userInfo", classes: ["NSDictionary", "NSObject"]) { info in
                info.add("NS.keys", Node(.array([])))
                info.add("NS.objects", Node(.array([])))
            })
            fields.add("NSVersionHashModifier", archiver.null)
            if let renaming = entity.renamingIdentifier {
                fields.add("NSRenamingIdentifier", archiver.string(renaming))
            } else if shape == .copied {
                fields.add("NSRenamingIdentifier", archiver.object("r:\(name)", classes: ["NSMutableString", "NSString", "NSObject"]) { string in
                    string.add("NS.string", Node(.string(name)))
                })
            } else {
                fields.add("NSRenamingIdentifier", entityName(name))
            }
            let constraints = entity.uniquenessConstraints
            if !constraints.isEmpty {
                fields.add("NSUniqueTuples", archiver.collection(classes: ["NSMutableArray", "NSArray", "NSObject"]) {
                    constraints.map { tuple in
                        archiver.collection(classes: ["NSMutableArray", "NSArray", "NSObject"]) {
                            tuple.map { propertyName($0, declaredBy: declaringEntity(of: $0, in: name)) }
                        }
                    }
                })
            }
            encodeIndexes(&fields, of: entity)
        }
    }

    /// The order an entity's keys enter its dictionary: not the encoding order (`NSUserInfo` before
    /// `NSProperties`, `NSIsAbstract` first); the only order that gives the key order of all 119 entities
    /// of the corpus caches without fetch indexes (docs/LAYOUT.md, "Z_MODELCACHE").
    static let entityKeys = [
        "NSIsAbstract", "NSEntityName", "NSClassNameForEntity", "NSManagedObjectModel", "NSSuperentity", "NSSubentities",
        "NSUserInfo", "NSProperties", "NSUniqueTuples", "NSFetchIndexDescriptions", "NSCompoundIndexes", "NSVersionHashModifier", "NSRenamingIdentifier", "$class",
    ]

    /// `managedObjectClassName`: the model's class name; a Swift class named `.Name` (current module)
    /// is resolved at run time to a new string.
    func className(_ entity: Entity) -> Node {
        guard let name = entity.representedClassName else { return archiver.null }
        if name.hasPrefix(".") { return archiver.string(String(name.dropFirst()), identity: "class:\(entity.name)") }
        return name == entity.name ? entityName(name) : archiver.string(name)
    }

    /// The entity in `name`'s lineage that declares `property`.
    func declaringEntity(of property: String, in name: String) -> String {
        for entity in lineage(name) where entity.attributes.contains(where: { $0.name == property })
            || entity.relationships.contains(where: { $0.name == property }) {
            return entity.name
        }
        return name
    }
}
