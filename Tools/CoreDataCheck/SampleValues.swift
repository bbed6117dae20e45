#if canImport(CoreData)
import CoreData
import Foundation

/// The values and links the write check gives the objects it inserts and edits.
enum SampleValues {
    static let text = "core-data-check"
    /// An external-storage Binary value this large is stored in the support folder (Core Data's
    /// threshold is not documented; reports put it between 100 KB and 1 MB: DESIGN §4b.10).
    static let externalSize = 2 << 20

    /// Sets every attribute of a new object that Core Data stores and does not derive; returns what was set.
    static func fill(_ object: NSManagedObject, in context: NSManagedObjectContext) -> [String: Any] {
        let constrained = object.entity.constrainedAttributeNames
        var values: [String: Any] = [:]
        for attribute in object.entity.storedAttributes where !attribute.isDerived && hasTransformer(attribute) {
            guard let value = value(for: attribute, unique: constrained.contains(attribute.name), of: object.entity, in: context) else { continue }
            object.setValue(value, forKey: attribute.name)
            values[attribute.name] = value
        }
        return values
    }

    /// False for a Transformable whose named value transformer is not registered in this process
    /// (the app's own): saving a value Core Data cannot transform would fail for a reason of the check.
    static func hasTransformer(_ attribute: NSAttributeDescription) -> Bool {
        guard attribute.attributeType == .transformableAttributeType, let name = attribute.valueTransformerName, !name.isEmpty else { return true }
        return ValueTransformer(forName: NSValueTransformerName(rawValue: name)) != nil
    }

    /// A value of the attribute's type, as the Foundation object Core Data gives back; a value no
    /// object has yet when the attribute is in a uniqueness constraint. nil for types without a sample (ObjectID, Composite, a Transformable of an app's class).
    static func value(for attribute: NSAttributeDescription, unique: Bool, of entity: NSEntityDescription,
                      in context: NSManagedObjectContext) -> Any? {
        switch attribute.attributeType {
        case .integer16AttributeType:
            return NSNumber(value: Int16(clamping: unique ? nextInteger(attribute, of: entity, in: context) : 7))
        case .integer32AttributeType:
            return NSNumber(value: Int32(clamping: unique ? nextInteger(attribute, of: entity, in: context) : 7))
        case .integer64AttributeType:
            return NSNumber(value: unique ? nextInteger(attribute, of: entity, in: context) : 7)
        case .decimalAttributeType: return NSDecimalNumber(string: "12.75")
        case .doubleAttributeType: return NSNumber(value: unique ? Double(nextInteger(attribute, of: entity, in: context)) : 2.5)
        case .floatAttributeType: return NSNumber(value: Float(0.25))
        case .stringAttributeType: return (unique ? "\(text) \(UUID().uuidString)" : text) as NSString
        case .booleanAttributeType: return NSNumber(value: true)
        case .dateAttributeType: return NSDate(timeIntervalSinceReferenceDate: 789_012_345.5)
        case .binaryDataAttributeType:
            let size = attribute.allowsExternalBinaryDataStorage ? externalSize : 3
            return Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }) as NSData
        case .UUIDAttributeType: return NSUUID()
        case .URIAttributeType: return NSURL(string: "https://example.com/\(text)")
        case .transformableAttributeType: return transformable(for: attribute)
        default: return nil
        }
    }

    /// One above the largest value the entity's objects hold.
    static func nextInteger(_ attribute: NSAttributeDescription, of entity: NSEntityDescription, in context: NSManagedObjectContext) -> Int64 {
        let request = NSFetchRequest<NSDictionary>(entityName: entity.name ?? "")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [attribute.name]
        request.sortDescriptors = [sortDescriptor(key: attribute.name, ascending: false)]
        request.fetchLimit = 1
        // "A value of true is not supported in conjunction with the result type dictionaryResultType"
        // (NSFetchRequest.includesPendingChanges): the store's largest value is what is asked for.
        request.includesPendingChanges = false
        let largest = ((try? context.fetch(request))?.first?[attribute.name] as? NSNumber)?.int64Value ?? 0
        return largest == .max ? largest : largest + 1
    }

    /// An object of the Transformable's declared class (Foundation's collections and values only).
    static func transformable(for attribute: NSAttributeDescription) -> NSObject? {
        let declared: AnyClass = TransformableComparison.declaredClass(of: attribute) ?? NSDictionary.self
        if declared == NSArray.self { return [text] as NSArray }
        if declared == NSDictionary.self { return [text: 1] as NSDictionary }
        if declared == NSSet.self { return NSSet(object: text) }
        if declared == NSString.self { return text as NSString }
        if declared == NSNumber.self { return NSNumber(value: 1) }
        if declared == NSDate.self { return NSDate(timeIntervalSinceReferenceDate: 789_012_345) }
        if declared == NSData.self { return Data([1, 2, 3]) as NSData }
        if declared == NSUUID.self { return NSUUID() }
        if declared == NSURL.self { return NSURL(string: "https://example.com/\(text)") }
        return nil
    }

    /// Links the inserted objects so that every relationship Core Data requires is set, and more:
    /// every to-one to the lowest-pk existing destination (a one-to-one to the inserted destination,
    /// so that no existing object loses its partner), each many-to-many to one existing destination,
    /// and a to-many with a minimum count to the inserted destination. Returns the existing objects linked to.
    static func link(_ inserted: [NSManagedObject], existing: [String: NSManagedObject]) -> [NSManagedObject] {
        func insertedOne(_ entity: NSEntityDescription) -> NSManagedObject? { inserted.first { $0.entity.isKindOf(entity: entity) } }
        func existingOne(_ entity: NSEntityDescription) -> NSManagedObject? {
            if let name = entity.name, let object = existing[name] { return object }
            return entity.subentities.lazy.compactMap { existingOne($0) }.first
        }
        var linked: [NSManagedObject] = []
        for object in inserted {
            for relationship in object.entity.relationshipsByName.values.sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
                guard let destination = relationship.destinationEntity else { continue }
                let inverseIsToMany = relationship.inverseRelationship?.isToMany
                if !relationship.isToMany {
                    let target = inverseIsToMany == false ? insertedOne(destination) : (existingOne(destination) ?? insertedOne(destination))
                    guard let target, target != object else { continue }
                    object.setValue(target, forKey: relationship.name)
                    if !target.isInserted { linked.append(target) }
                } else if inverseIsToMany == true, let target = existingOne(destination) {
                    add(target, to: object, relationship)
                    linked.append(target)
                }
            }
        }
        for object in inserted {
            for relationship in object.entity.relationshipsByName.values where relationship.isToMany && relationship.minCount > 0 {
                guard let destination = relationship.destinationEntity, let target = insertedOne(destination), target != object else { continue }
                add(target, to: object, relationship)
            }
        }
        return linked
    }

    private static func add(_ target: NSManagedObject, to object: NSManagedObject, _ relationship: NSRelationshipDescription) {
        if relationship.isOrdered {
            object.mutableOrderedSetValue(forKey: relationship.name).add(target)
        } else {
            object.mutableSetValue(forKey: relationship.name).add(target)
        }
    }

    /// Changes one attribute of an existing object (the first by name that is stored, not derived,
    /// not in a uniqueness constraint, and a string, number, Boolean or date); returns it and its new value.
    static func edit(_ object: NSManagedObject) -> (key: String, value: Any)? {
        let constrained = object.entity.constrainedAttributeNames
        for attribute in object.entity.storedAttributes where !attribute.isDerived && !constrained.contains(attribute.name) {
            let old = object.value(forKey: attribute.name)
            let new: Any
            switch attribute.attributeType {
            case .stringAttributeType: new = (((old as? String) ?? "") + " (edited by \(text))") as NSString
            case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
                let value = (old as? NSNumber)?.int64Value ?? 0
                new = NSNumber(value: value > 0 ? value - 1 : value + 1)
            case .doubleAttributeType: new = NSNumber(value: ((old as? NSNumber)?.doubleValue ?? 0) + 1.5)
            case .booleanAttributeType: new = NSNumber(value: !((old as? NSNumber)?.boolValue ?? false))
            case .dateAttributeType: new = ((old as? Date) ?? Date(timeIntervalSinceReferenceDate: 0)).addingTimeInterval(3600) as NSDate
            default: continue
            }
            object.setValue(new, forKey: attribute.name)
            return (attribute.name, new)
        }
        return nil
    }

    /// Whether deleting `object` leaves every other object valid: no deny rule holds it
    /// (`validateForDelete()`), the cascade it starts reaches none of `protected` (the objects the
    /// inserted ones link to and the edited ones: an inserted object's required to-one must not be
    /// nullified by a cascade), and no object the cascade deletes leaves a required to-one of a
    /// surviving object empty (a nullified inverse).
    static func canDelete(_ object: NSManagedObject, protected: Set<NSManagedObjectID>) -> Bool {
        var closure: [NSManagedObjectID: NSManagedObject] = [:]
        var pending = [object]
        while let next = pending.popLast() {
            guard closure[next.objectID] == nil else { continue }
            if protected.contains(next.objectID) || closure.count >= 10_000 { return false }
            do { try next.validateForDelete() } catch { return false }
            closure[next.objectID] = next
            for relationship in next.entity.relationshipsByName.values where relationship.deleteRule == .cascadeDeleteRule {
                pending += destinations(of: next, relationship)
            }
        }
        for member in closure.values {
            for relationship in member.entity.relationshipsByName.values where relationship.deleteRule == .nullifyDeleteRule {
                guard let inverse = relationship.inverseRelationship, !inverse.isToMany, !inverse.isOptional else { continue }
                if member.objectIDs(forRelationshipNamed: relationship.name).contains(where: { closure[$0] == nil }) { return false }
            }
        }
        return true
    }

    /// The objects a relationship of `object` leads to.
    private static func destinations(of object: NSManagedObject, _ relationship: NSRelationshipDescription) -> [NSManagedObject] {
        let value = object.value(forKey: relationship.name)
        if let one = value as? NSManagedObject { return [one] }
        if let set = value as? NSOrderedSet { return set.array.compactMap { $0 as? NSManagedObject } }
        if let set = value as? NSSet { return set.allObjects.compactMap { $0 as? NSManagedObject } }
        return []
    }
}
#endif
