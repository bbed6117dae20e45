/// Fetch indexes as a compiled model holds them: `NSFetchIndexDescriptions` and `NSCompoundIndexes`
/// of `-[NSEntityDescription encodeWithCoder:]` (docs/LAYOUT.md, "Z_MODELCACHE").
///
/// A model file declares indexes three ways (`indexed="YES"`, `compoundIndexes`, `fetchIndex`); the
/// loaded model holds them all as fetch indexes, in the order the corpus caches show (wire-store2-39-0
/// to 2-95-0, ddg-bookmarks-v2 and -v4, coredataplus-2018-samplemodel-v2):
/// 1. one per indexed attribute, named by it, in declaration order;
/// 2. one per attribute that a one-element fetch index covers, named by it, in fetch-index order
///    (such an attribute is archived as indexed, `NSIsIndexed`);
/// 3. one per legacy compound index, named by its properties joined with `_`;
/// 4. the model's fetch indexes, as written.
/// `NSCompoundIndexes` is the legacy view: the property names of each index of two or more elements
/// that are all attributes (Wire's `Message` indexes, with relationship elements, are not in it;
/// decompiled `-[NSFetchIndexDescription _compoundIndexRepresentation]`: nil for one element, another
/// collation, or an element that is not an attribute, else the property names).
extension ModelArchiveWriter {
    /// One fetch index as archived.
    struct ArchivedIndex: Equatable {
        var name: String
        var properties: [String]
        var ascending: [Bool]
    }

    /// The entity's fetch indexes in the loaded model's order (its own declarations only: a
    /// sub-entity's list is empty, wire-store2-39-0's `AssetClientMessage`).
    func archivedIndexes(of entity: Entity) -> [ArchivedIndex] {
        var indexes: [ArchivedIndex] = []
        for attribute in entity.attributes where attribute.isIndexed {
            indexes.append(ArchivedIndex(name: attribute.name, properties: [attribute.name], ascending: [true]))
        }
        for property in Self.singleElementProperties(of: entity) where !indexes.contains(where: { $0.name == property }) {
            indexes.append(ArchivedIndex(name: property, properties: [property], ascending: [true]))
        }
        for properties in entity.compoundIndexes where !properties.isEmpty {
            indexes.append(ArchivedIndex(name: properties.joined(separator: "_"), properties: properties,
                                         ascending: properties.map { _ in true }))
        }
        for fetchIndex in entity.fetchIndexes {
            indexes.append(ArchivedIndex(name: fetchIndex.name, properties: fetchIndex.elements.compactMap(\.property),
                                         ascending: fetchIndex.elements.map(\.isAscending)))
        }
        return indexes
    }

    /// The attributes a one-element fetch index covers, in fetch-index order.
    static func singleElementProperties(of entity: Entity) -> [String] {
        var properties: [String] = []
        for fetchIndex in entity.fetchIndexes where fetchIndex.elements.count == 1 {
            if let property = fetchIndex.elements[0].property, !properties.contains(property),
               entity.attributes.contains(where: { $0.name == property }) {
                properties.append(property)
            }
        }
        return properties
    }

    /// Whether the archive holds the attribute as indexed: `indexed="YES"`, or the one element of a
    /// fetch index of the entity that declares it (ddg-bookmarks-v2: `uuid` by `byUUID`).
    func archivesAsIndexed(_ attribute: Attribute, declaredBy owner: String) -> Bool {
        attribute.isIndexed || entities[owner].map { Self.singleElementProperties(of: $0).contains(attribute.name) } == true
    }

    /// Whether `entity` declares an index of any of the three kinds.
    static func declaresIndexes(_ entity: Entity) -> Bool {
        entity.attributes.contains(where: \.isIndexed) || !entity.compoundIndexes.isEmpty || !entity.fetchIndexes.isEmpty
    }

    /// Whether any entity declares an index: then, in a loaded model, every entity has both keys
    /// (coredataplus-2018-samplemodel-v1 has none and no keys, its v2 one fetch index and the keys
    /// on all four entities); a copied model has them only where there are indexes (xcserver-2.0.0-empty).
    var modelHasIndexes: Bool {
        model.entities.contains { !archivedIndexes(of: $0).isEmpty }
    }

    /// The two keys for `entity`, after `NSUniqueTuples` (coredataplus-2018-samplemodel-v2's object order).
    func encodeIndexes(_ fields: inout ObjectArchiver.Fields, of entity: Entity) {
        let indexes = archivedIndexes(of: entity)
        guard shape == .copied ? !indexes.isEmpty : modelHasIndexes else { return }
        let mutableArray = ["NSMutableArray", "NSArray", "NSObject"]
        fields.add("NSFetchIndexDescriptions", archiver.collection(classes: mutableArray) {
            indexes.enumerated().map { encodeFetchIndex($1, number: $0, of: entity) }
        })
        fields.add("NSCompoundIndexes", archiver.collection(classes: mutableArray) {
            indexes.filter { index in
                index.properties.count > 1 && index.properties.allSatisfy { property in
                    lineage(entity.name).contains { $0.attributes.contains { $0.name == property } }
                }
            }.map { index in
                archiver.collection(classes: mutableArray) {
                    index.properties.map { propertyName($0, declaredBy: declaringEntity(of: $0, in: entity.name)) }
                }
            }
        })
    }

    /// `-[NSFetchIndexDescription encodeWithCoder:]` and its elements'.
    func encodeFetchIndex(_ index: ArchivedIndex, number: Int, of entity: Entity) -> Node {
        let identity = "i:\(entity.name):\(number)"
        return archiver.object(identity, classes: ["NSFetchIndexDescription", "NSObject"], keyOrder: Self.fetchIndexKeys) { fields in
            fields.add("NSIndexName", archiver.string(index.name))
            let elementsClass = shape == .migrated ? ["NSMutableArray", "NSArray", "NSObject"] : ["NSArray", "NSObject"]
            fields.add("NSIndexElements", archiver.collection(classes: elementsClass) {
                zip(index.properties, index.ascending).map { property, ascending in
                    archiver.object("\(identity):\(property)", classes: ["NSFetchIndexElementDescription", "NSObject"],
                                    keyOrder: Self.fetchIndexElementKeys) { element in
                        element.add("NSPropertyName", propertyName(property, declaredBy: declaringEntity(of: property, in: entity.name)))
                        element.add("NSFetchIndexElementType", archiver.integer(0, wide: true))  // encodeInteger:, a 64-bit number
                        element.add("NSFetchIndexDescription", archiver.conditional(identity))
                        element.add("NSAscending", archiver.boolean(ascending))
                    }
                }
            })
            fields.add("NSPartialIndexPredicate", archiver.null)
            fields.add("NSEntity", archiver.conditional("e:\(entity.name)"))
        }
    }

    static let fetchIndexKeys = ["NSIndexName", "NSIndexElements", "NSPartialIndexPredicate", "NSEntity", "$class"]
    static let fetchIndexElementKeys = ["NSPropertyName", "NSFetchIndexElementType", "NSFetchIndexDescription", "NSAscending", "$class"]

    /// Why the entity's indexes cannot be archived as Core Data does (an element that is an
    /// expression or of a type other than Binary), or nil.
    static func unsupportedIndexes(_ entity: Entity) -> String? {
        for fetchIndex in entity.fetchIndexes {
            let name = "fetch index \(fetchIndex.name)"
            if fetchIndex.elements.isEmpty { return "\(name): no elements" }
            for element in fetchIndex.elements {
                if element.property == nil || element.expression != nil { return "\(name): an expression element" }
                if element.type != "Binary" { return "\(name): a \(element.type) element" }
            }
        }
        return nil
    }

    /// Why the entity's indexes, which can be archived, have no form a corpus cache shows, or nil.
    /// Proven, on root entities: indexed attributes with legacy compound indexes (Wire), and fetch
    /// indexes of ascending elements on their own (ddg-bookmarks, coredataplus-2018-samplemodel-v2).
    static func unprovenIndexes(_ entity: Entity) -> String? {
        let legacy = entity.attributes.contains(where: \.isIndexed) || !entity.compoundIndexes.isEmpty
        // Every corpus index is declared on a root entity (a sub-entity's list is empty there).
        if entity.parentName != nil && (legacy || !entity.fetchIndexes.isEmpty) { return "indexes declared on a sub-entity" }
        if legacy && !entity.fetchIndexes.isEmpty { return "fetch indexes beside indexed attributes or compound indexes" }
        for fetchIndex in entity.fetchIndexes {
            if fetchIndex.elements.contains(where: { !$0.isAscending }) { return "fetch index \(fetchIndex.name): a descending element" }
            if fetchIndex.elements.count == 1, let property = fetchIndex.elements[0].property,
               !entity.attributes.contains(where: { $0.name == property }) {
                return "fetch index \(fetchIndex.name): one element that is not an attribute of the entity"
            }
        }
        return nil
    }
}
