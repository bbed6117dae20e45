#if canImport(CoreData)
import CoreData
import Foundation

// Foundation API that exists on Apple platforms only (predicate strings, key-value coding), in one
// place. Only the Linux type-check against TypeCheck/CoreData.swift takes the #else branches: they
// are never run.

/// `self IN ids`: the objects with these IDs, fetched in one query.
func objectsPredicate(_ ids: [NSManagedObjectID]) -> NSPredicate {
    #if canImport(Darwin)
    return NSPredicate(format: "self IN %@", argumentArray: [ids])
    #else
    return NSPredicate(value: false)
    #endif
}

/// A sort by the attribute named `key`.
func sortDescriptor(key: String, ascending: Bool) -> NSSortDescriptor {
    #if canImport(Darwin)
    return NSSortDescriptor(key: key, ascending: ascending)
    #else
    return NSSortDescriptor(keyPath: \NSObject.hash, ascending: ascending)
    #endif
}
#endif
