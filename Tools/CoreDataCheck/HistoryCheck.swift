#if canImport(CoreData)
import CoreData
import Foundation

/// Opens a copy with persistent history tracking on (as apps that sync or share a store with
/// extensions do), edits one object, saves, and reads the change back from the history.
struct HistoryCheck {
    let prepared: PreparedStore
    let model: NSManagedObjectModel
    let options: Options

    func run(report: inout StoreReport) {
        do {
            let copy = try StoreFiles.copy(URL(fileURLWithPath: prepared.original), into: prepared.folder.appendingPathComponent("history"))
            let (entity, key) = try editAndSave(copy)
            report.pass("Core Data opened a copy with NSPersistentHistoryTrackingKey, saved an edit of \(entity).\(key) and read it back from the history")
            // Core Data adds its history tables (ATRANSACTION, ACHANGE, …) to the store: said, not failed.
            let verification = try Verification.run(copy.path, model: options.model, configuration: options.configuration, coreseed: options.coreseed)
            report.note("coreseed verify of the store with persistent history: \(verification.ok ? "OK" : verification.summary)")
        } catch {
            report.fail("persistent history: \(error)")
        }
    }

    private func editAndSave(_ copy: URL) throws(CheckFailure) -> (entity: String, key: String) {
        let open = try OpenStore(copy, model: model, configuration: options.configuration, options: [
            NSPersistentHistoryTrackingKey: true,
            NSMigratePersistentStoresAutomaticallyOption: false,
            NSInferMappingModelAutomaticallyOption: false,
        ], what: "the copy with history tracking")
        defer { open.close() }
        let context = open.context
        for entity in model.storedEntities(configuration: options.configuration) where !entity.isAbstract {
            guard let name = entity.name else { continue }
            let request = NSFetchRequest<NSManagedObject>(entityName: name)
            request.includesSubentities = false
            request.fetchLimit = 1
            guard let object = (try? context.fetch(request))?.first, let edit = SampleValues.edit(object) else { continue }
            do {
                try context.save()
                let history = NSPersistentHistoryChangeRequest.fetchHistory(after: Date.distantPast)
                let result = try context.execute(history) as? NSPersistentHistoryResult
                let transactions = result?.result as? [NSPersistentHistoryTransaction] ?? []
                let recorded = transactions.contains { transaction in
                    transaction.changes?.contains { $0.changedObjectID == object.objectID && $0.changeType == .update } ?? false
                }
                guard recorded else {
                    throw CheckFailure.failed("the history (\(transactions.count) transactions) has no update of \(name) \(object.objectID.uriRepresentation())")
                }
            } catch let failure as CheckFailure {
                throw failure
            } catch {
                throw .failed("Core Data cannot save or read the history: \(describe(error))")
            }
            return (name, edit.key)
        }
        throw .failed("no entity has an object with an attribute to edit")
    }
}
#endif
