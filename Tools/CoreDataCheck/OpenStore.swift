#if canImport(CoreData)
import CoreData
import Foundation

/// A store added to its own coordinator, with a main-queue context on it (the checks run on the
/// main thread, top-level code).
struct OpenStore {
    let coordinator: NSPersistentStoreCoordinator
    let store: NSPersistentStore
    let context: NSManagedObjectContext

    /// Adds the SQLite store at `url` with `model` in `configuration`; `what` says for which check,
    /// in the error ("Core Data cannot open the copy read-only: …").
    init(_ url: URL, model: NSManagedObjectModel, configuration: String?, options: [AnyHashable: Any], what: String) throws(CheckFailure) {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        do {
            store = try coordinator.addPersistentStore(type: .sqlite, configuration: configuration, at: url, options: options)
        } catch {
            throw .failed("Core Data cannot open \(what): \(describe(error))")
        }
        context = NSManagedObjectContext(.mainQueue)
        context.persistentStoreCoordinator = coordinator
    }

    /// Removes the store from its coordinator (Core Data closes its connection).
    func close() {
        try? coordinator.remove(store)
    }
}
#endif
