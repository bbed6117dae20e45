// NOT Core Data. The declarations of Apple's Core Data (and of three Foundation types Linux lacks)
// that Tools/CoreDataCheck uses, transcribed from Apple's documentation
// (developer.apple.com/documentation/coredata: each declaration as its page gives it), with bodies
// that trap. `make lint` compiles this into a module named CoreData, only so that the Core Data half
// of the check, which is behind `#if canImport(CoreData)`, is type-checked on Linux as well: a typo,
// a wrong label or a Swift 6 concurrency error shows here, not first on a Mac. It proves nothing
// about Core Data's behaviour, and a declaration copied wrongly here would hide a real error: the
// macOS workflow compiles the check against the real SDK. Never linked into anything.
import Foundation

private func stub() -> Never { fatalError("type-check stub of Core Data: never run") }

// MARK: Foundation types missing from swift-corelibs-foundation

public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

open class ValueTransformer: NSObject {
    public init?(forName name: NSValueTransformerName) { stub() }
}

open class NSSecureUnarchiveFromDataTransformer: ValueTransformer {
    open class var allowedTopLevelClasses: [AnyClass] { stub() }
}

// MARK: Model

public enum NSAttributeType: UInt, Sendable {
    case undefinedAttributeType = 0, integer16AttributeType = 100, integer32AttributeType = 200, integer64AttributeType = 300
    case decimalAttributeType = 400, doubleAttributeType = 500, floatAttributeType = 600, stringAttributeType = 700
    case booleanAttributeType = 800, dateAttributeType = 900, binaryDataAttributeType = 1000, UUIDAttributeType = 1100
    case URIAttributeType = 1200, transformableAttributeType = 1800, objectIDAttributeType = 2000, compositeAttributeType = 2100
}

public enum NSDeleteRule: UInt, Sendable {
    case noActionDeleteRule = 0, nullifyDeleteRule = 1, cascadeDeleteRule = 2, denyDeleteRule = 3
}

open class NSManagedObjectModel: NSObject {
    public init?(contentsOf url: URL) { stub() }
    open var entities: [NSEntityDescription] { stub() }
    open var configurations: [String] { stub() }
    open func entities(forConfigurationName configuration: String?) -> [NSEntityDescription]? { stub() }
    open func isConfiguration(withName configuration: String?, compatibleWithStoreMetadata metadata: [String: Any]) -> Bool { stub() }
}

open class NSEntityDescription: NSObject {
    open var name: String? { stub() }
    open var managedObjectClassName: String! { get { stub() } set { stub() } }
    open var isAbstract: Bool { stub() }
    open var attributesByName: [String: NSAttributeDescription] { stub() }
    open var relationshipsByName: [String: NSRelationshipDescription] { stub() }
    open var subentities: [NSEntityDescription] { stub() }
    open var superentity: NSEntityDescription? { stub() }
    open var uniquenessConstraints: [[Any]] { stub() }
    open func isKindOf(entity: NSEntityDescription) -> Bool { stub() }
}

open class NSPropertyDescription: NSObject {
    open var name: String { stub() }
    open var isOptional: Bool { stub() }
    open var isTransient: Bool { stub() }
}

open class NSAttributeDescription: NSPropertyDescription {
    open var attributeType: NSAttributeType { stub() }
    open var allowsExternalBinaryDataStorage: Bool { stub() }
    open var valueTransformerName: String? { stub() }
    open var attributeValueClassName: String? { stub() }
}

open class NSDerivedAttributeDescription: NSAttributeDescription {}

open class NSRelationshipDescription: NSPropertyDescription {
    open var destinationEntity: NSEntityDescription? { stub() }
    open var inverseRelationship: NSRelationshipDescription? { stub() }
    open var isToMany: Bool { stub() }
    open var isOrdered: Bool { stub() }
    open var minCount: Int { stub() }
    open var deleteRule: NSDeleteRule { stub() }
}

// MARK: Objects and requests

public protocol NSFetchRequestResult: NSObjectProtocol {}
extension NSDictionary: NSFetchRequestResult {}
extension NSNumber: NSFetchRequestResult {}

open class NSManagedObjectID: NSObject, NSFetchRequestResult {
    open var isTemporaryID: Bool { stub() }
    open func uriRepresentation() -> URL { stub() }
}

open class NSManagedObject: NSObject, NSFetchRequestResult {
    public init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) { stub() }
    open var entity: NSEntityDescription { stub() }
    open var objectID: NSManagedObjectID { stub() }
    open var isInserted: Bool { stub() }
    open func value(forKey key: String) -> Any? { stub() }
    open func setValue(_ value: Any?, forKey key: String) { stub() }
    open func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID] { stub() }
    open func mutableSetValue(forKey key: String) -> NSMutableSet { stub() }
    open func mutableOrderedSetValue(forKey key: String) -> NSMutableOrderedSet { stub() }
    open func validateForDelete() throws { stub() }
}

open class NSPersistentStoreRequest: NSObject {}
open class NSPersistentStoreResult: NSObject {}

public struct NSFetchRequestResultType: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let managedObjectResultType = NSFetchRequestResultType([])
    public static let managedObjectIDResultType = NSFetchRequestResultType(rawValue: 1)
    public static let dictionaryResultType = NSFetchRequestResultType(rawValue: 2)
    public static let countResultType = NSFetchRequestResultType(rawValue: 4)
}

open class NSFetchRequest<ResultType: NSFetchRequestResult>: NSPersistentStoreRequest {
    public init(entityName: String) { stub() }
    open var predicate: NSPredicate? { get { stub() } set { stub() } }
    open var sortDescriptors: [NSSortDescriptor]? { get { stub() } set { stub() } }
    open var fetchLimit: Int { get { stub() } set { stub() } }
    open var fetchBatchSize: Int { get { stub() } set { stub() } }
    open var includesSubentities: Bool { get { stub() } set { stub() } }
    open var includesPendingChanges: Bool { get { stub() } set { stub() } }
    open var returnsObjectsAsFaults: Bool { get { stub() } set { stub() } }
    open var resultType: NSFetchRequestResultType { get { stub() } set { stub() } }
    open var propertiesToFetch: [Any]? { get { stub() } set { stub() } }
    open var relationshipKeyPathsForPrefetching: [String]? { get { stub() } set { stub() } }
}

// MARK: Contexts, coordinators, stores

open class NSManagedObjectContext: NSObject {
    public struct ConcurrencyType: RawRepresentable, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let mainQueue = ConcurrencyType(rawValue: 2)
        public static let privateQueue = ConcurrencyType(rawValue: 1)
    }
    public convenience init(_ type: NSManagedObjectContext.ConcurrencyType) { stub() }
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator? { get { stub() } set { stub() } }
    open var deletedObjects: Set<NSManagedObject> { stub() }
    open func fetch<T>(_ request: NSFetchRequest<T>) throws -> [T] where T: NSFetchRequestResult { stub() }
    open func count<T>(for request: NSFetchRequest<T>) throws -> Int where T: NSFetchRequestResult { stub() }
    open func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult { stub() }
    open func object(with objectID: NSManagedObjectID) -> NSManagedObject { stub() }
    open func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject { stub() }
    open func delete(_ object: NSManagedObject) { stub() }
    open func processPendingChanges() { stub() }
    open func obtainPermanentIDs(for objects: [NSManagedObject]) throws { stub() }
    open func save() throws { stub() }
    open func reset() { stub() }
}

open class NSPersistentStore: NSObject {
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let sqlite = StoreType(rawValue: "SQLite")
    }
}

open class NSPersistentStoreCoordinator: NSObject {
    public init(managedObjectModel model: NSManagedObjectModel) { stub() }
    open func addPersistentStore(type: NSPersistentStore.StoreType, configuration: String? = nil, at storeURL: URL,
                                 options: [AnyHashable: Any]? = nil) throws -> NSPersistentStore { stub() }
    open func remove(_ store: NSPersistentStore) throws { stub() }
    open func replacePersistentStore(at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
                                     withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
                                     type sourceType: NSPersistentStore.StoreType) throws { stub() }
    open func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? { stub() }
    open class func metadataForPersistentStore(type storeType: NSPersistentStore.StoreType, at storeURL: URL,
                                               options: [AnyHashable: Any]? = nil) throws -> [String: Any] { stub() }
}

// MARK: Persistent history

public enum NSPersistentHistoryChangeType: Int, Sendable {
    case insert = 0, update = 1, delete = 2
}

open class NSPersistentHistoryChange: NSObject {
    open var changedObjectID: NSManagedObjectID { stub() }
    open var changeType: NSPersistentHistoryChangeType { stub() }
}

open class NSPersistentHistoryTransaction: NSObject {
    open var changes: [NSPersistentHistoryChange]? { stub() }
}

open class NSPersistentHistoryChangeRequest: NSPersistentStoreRequest {
    open class func fetchHistory(after date: Date) -> Self { stub() }
}

open class NSPersistentHistoryResult: NSPersistentStoreResult {
    open var result: Any? { stub() }
}

// MARK: Constants (store options, metadata and error keys)

public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
public let NSStoreUUIDKey = "NSStoreUUID"
public let NSDetailedErrorsKey = "NSDetailedErrors"
public let NSValidationKeyErrorKey = "NSValidationErrorKey"
public let NSValidationObjectErrorKey = "NSValidationErrorObject"
