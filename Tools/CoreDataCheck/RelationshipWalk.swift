#if canImport(CoreData)
import CoreData
import Foundation

/// Follows every relationship of an object: each destination must exist (`existingObject(with:)`
/// throws for a dangling key), be of the destination entity, and lead back through the inverse.
enum RelationshipWalk {
    static func problems(of object: NSManagedObject, _ relationships: [NSRelationshipDescription], in context: NSManagedObjectContext,
                         links: inout Int) -> [String] {
        let label = "\(object.entity.name ?? "?") pk \(primaryKey(of: object.objectID).map(String.init) ?? "?")"
        var problems: [String] = []
        for relationship in relationships {
            let value = object.value(forKey: relationship.name)
            let destinations: [NSManagedObject]
            if !relationship.isToMany {
                destinations = (value as? NSManagedObject).map { [$0] } ?? []
            } else if let set = value as? NSOrderedSet {
                destinations = set.array.compactMap { $0 as? NSManagedObject }
            } else if let set = value as? NSSet {
                destinations = set.allObjects.compactMap { $0 as? NSManagedObject }
            } else {
                problems.append("\(label).\(relationship.name): a to-many value reads as \(value.map { "\(type(of: $0))" } ?? "nil")")
                continue
            }
            for destination in destinations {
                links += 1
                let target: NSManagedObject
                do {
                    target = try context.existingObject(with: destination.objectID)
                } catch {
                    problems.append("\(label).\(relationship.name): destination \(destination.objectID.uriRepresentation()) does not exist: \(describe(error))")
                    continue
                }
                if let expected = relationship.destinationEntity, !target.entity.isKindOf(entity: expected) {
                    problems.append("\(label).\(relationship.name): the destination is a \(target.entity.name ?? "?"), not a \(expected.name ?? "?")")
                }
                guard let inverse = relationship.inverseRelationship else { continue }
                let back = target.value(forKey: inverse.name)
                let pointsBack: Bool
                if inverse.isToMany {
                    pointsBack = (back as? NSSet)?.contains(object) ?? (back as? NSOrderedSet)?.contains(object) ?? false
                } else {
                    pointsBack = (back as? NSManagedObject) == object
                }
                if !pointsBack { problems.append("\(label).\(relationship.name): the inverse \(inverse.name) does not lead back") }
            }
        }
        return problems
    }
}
#endif
