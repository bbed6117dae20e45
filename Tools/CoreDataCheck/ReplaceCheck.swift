#if canImport(CoreData)
import CoreData
import Foundation

/// The copy-on-first-launch way of docs/APP.md: `replacePersistentStore(at:…withPersistentStoreFrom:…)`
/// copies the store (as the app copies its bundled seed) into an empty folder; the copy must open
/// and hold the same objects. Whether Core Data copies the support folder too is reported (APP.md
/// tells apps to copy it themselves when it does not).
struct ReplaceCheck {
    let prepared: PreparedStore
    let model: NSManagedObjectModel
    let options: Options

    func run(report: inout StoreReport) {
        let destination = prepared.folder.appendingPathComponent("replaced").appendingPathComponent(prepared.copy.lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.replacePersistentStore(at: destination, destinationOptions: nil, withPersistentStoreFrom: prepared.copy,
                                                   sourceOptions: [NSReadOnlyPersistentStoreOption: true], type: .sqlite)
        } catch {
            report.fail("Core Data cannot copy the store with replacePersistentStore(at:…): \(describe(error))")
            return
        }
        let source = StoreFiles.contents(of: StoreFiles.supportFolder(ofStoreAt: prepared.copy))
        let copied = StoreFiles.contents(of: StoreFiles.supportFolder(ofStoreAt: destination))
        if !source.isEmpty {
            report.note(copied == source
                        ? "replacePersistentStore(at:…) copied the support folder too (\(source.count) files)"
                        : "replacePersistentStore(at:…) copied \(copied.count) of the support folder's \(source.count) files: apps must copy .NAME_SUPPORT themselves (docs/APP.md)")
        }
        do {
            let open = try OpenStore(destination, model: model, configuration: options.configuration, options: [
                NSReadOnlyPersistentStoreOption: true,
                NSMigratePersistentStoresAutomaticallyOption: false,
                NSInferMappingModelAutomaticallyOption: false,
            ], what: "the store replacePersistentStore(at:…) wrote")
            defer { open.close() }
            var objects = 0
            for entity in model.storedEntities(configuration: options.configuration) {
                guard let name = entity.name else { continue }
                let request = NSFetchRequest<NSManagedObject>(entityName: name)
                request.includesSubentities = false
                let count = try open.context.count(for: request)
                objects += count
                let rows = prepared.inspection.storedEntities[name]?.rows ?? 0
                if count != rows { report.fail("after replacePersistentStore(at:…), \(name) has \(count) objects, the store \(rows)") }
            }
            report.pass("replacePersistentStore(at:…) made a copy Core Data opens, with all \(objects) objects")
        } catch let failure as CheckFailure {
            report.fail("\(failure)")
        } catch {
            report.fail("the store replacePersistentStore(at:…) wrote: \(describe(error))")
        }
    }
}
#endif
