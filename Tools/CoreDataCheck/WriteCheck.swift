#if canImport(CoreData)
import CoreData
import Foundation

/// Opens a copy read-write as an app does (WAL journal, Core Data's own SQL functions and
/// triggers), inserts one object per entity, edits and deletes one existing object per entity,
/// saves, reopens, reads every change back, and runs `coreseed verify` on what Core Data wrote. This
/// is where `Z_MAX`, the unique indexes, the join and `Z_FOK_` columns and the derived-count
/// triggers are exercised.
struct WriteCheck {
    let prepared: PreparedStore
    let model: NSManagedObjectModel
    let options: Options

    /// The changes, by object URI (object IDs belong to one coordinator; URIs outlive it).
    struct Changes {
        var counts: [String: Int] = [:]
        var inserted: [(uri: URL, entity: String, values: [String: Any])] = []
        var edited: [(uri: URL, key: String, value: Any)] = []
        var deleted: [URL] = []
        /// Root entity → its largest `Z_PK` before the save: new objects must get larger ones.
        var largestKey: [String: Int64] = [:]
        var externalFilesBefore = 0
    }

    /// Read-write, as an app opens it, but never migrated.
    static var storeOptions: [AnyHashable: Any] {
        [NSMigratePersistentStoresAutomaticallyOption: false, NSInferMappingModelAutomaticallyOption: false]
    }

    func run(report: inout StoreReport) {
        do {
            let copy = try StoreFiles.copy(URL(fileURLWithPath: prepared.original), into: prepared.folder.appendingPathComponent("write"))
            let changes = try change(copy)
            try reread(copy, changes, report: &report)
            let external = StoreFiles.contents(of: StoreFiles.supportFolder(ofStoreAt: copy)).count
            report.pass("Core Data saved \(changes.inserted.count) inserted, \(changes.edited.count) edited and \(changes.deleted.count) deleted "
                        + "objects (cascades included) into a read-write copy and read them back after reopening; support folder "
                        + "\(changes.externalFilesBefore) → \(external) files")
            let verification = try Verification.run(copy.path, model: options.model, configuration: options.configuration, coreseed: options.coreseed)
            if verification.ok {
                report.pass("coreseed verify of the store Core Data saved: OK (\(verification.warnings.count) warnings, \(verification.notes.count) notes)")
            } else {
                report.fail("coreseed verify of the store Core Data saved: \(verification.summary)")
            }
            if let bytes = modelCacheBytes(of: copy) { report.note("after Core Data saved, Z_MODELCACHE holds \(bytes) bytes (CoreSeed writes it empty)") }
        } catch {
            report.fail("read-write: \(error)")
        }
    }

    /// Opens the copy, makes the changes, saves and closes it (removing the store from its
    /// coordinator closes Core Data's connection); returns what to read back.
    private func change(_ copy: URL) throws(CheckFailure) -> Changes {
        let open = try OpenStore(copy, model: model, configuration: options.configuration, options: Self.storeOptions, what: "the copy read-write")
        defer { open.close() }
        let context = open.context
        var changes = Changes()
        changes.externalFilesBefore = StoreFiles.contents(of: StoreFiles.supportFolder(ofStoreAt: copy)).count
        let entities = model.storedEntities(configuration: options.configuration)
        do {
            // The lowest- and highest-pk object of each entity (its own rows), and each root's largest pk.
            var first: [String: NSManagedObject] = [:], last: [String: NSManagedObject] = [:]
            for entity in entities {
                guard let name = entity.name else { continue }
                let request = NSFetchRequest<NSManagedObjectID>(entityName: name)
                request.resultType = .managedObjectIDResultType
                request.includesSubentities = false
                let ids = try context.fetch(request).compactMap { id in primaryKey(of: id).map { (pk: $0, id: id) } }.sorted { $0.pk < $1.pk }
                if let lowest = ids.first { first[name] = context.object(with: lowest.id) }
                if let highest = ids.last, ids.count > 1 { last[name] = context.object(with: highest.id) }
                if let root = entity.root.name, let highest = ids.last?.pk { changes.largestKey[root] = max(changes.largestKey[root] ?? 0, highest) }
            }
            var inserted: [(object: NSManagedObject, values: [String: Any])] = []
            for entity in entities where !entity.isAbstract {
                let object = NSManagedObject(entity: entity, insertInto: context)
                inserted.append((object, SampleValues.fill(object, in: context)))
            }
            let linked = SampleValues.link(inserted.map(\.object), existing: first)
            var protected = Set(linked.map(\.objectID) + inserted.map(\.object.objectID))
            var edited: [(object: NSManagedObject, key: String, value: Any)] = []
            for entity in entities {
                guard let name = entity.name, let object = first[name], let edit = SampleValues.edit(object) else { continue }
                edited.append((object, edit.key, edit.value))
                protected.insert(object.objectID)
            }
            for entity in entities {
                guard let name = entity.name, let object = last[name], SampleValues.canDelete(object, protected: protected) else { continue }
                context.delete(object)
            }
            context.processPendingChanges()
            let deleted = Set(context.deletedObjects.map(\.objectID))
            for entity in entities {
                guard let name = entity.name else { continue }
                let request = NSFetchRequest<NSManagedObject>(entityName: name)
                request.includesSubentities = false
                changes.counts[name] = try context.count(for: request)
            }
            try context.obtainPermanentIDs(for: inserted.map(\.object))
            try context.save()
            changes.inserted = inserted.map { ($0.object.objectID.uriRepresentation(), $0.object.entity.name ?? "?", $0.values) }
            changes.edited = edited.filter { !deleted.contains($0.object.objectID) }.map { ($0.object.objectID.uriRepresentation(), $0.key, $0.value) }
            changes.deleted = deleted.map { $0.uriRepresentation() }
        } catch {
            throw .failed("Core Data cannot save the changes: \(describe(error))")
        }
        return changes
    }

    /// Reopens the saved copy and reads each change back.
    private func reread(_ copy: URL, _ changes: Changes, report: inout StoreReport) throws(CheckFailure) {
        let open = try OpenStore(copy, model: model, configuration: options.configuration, options: Self.storeOptions,
                                 what: "the store it saved, to reopen it")
        defer { open.close() }
        let context = open.context
        func object(_ uri: URL) -> NSManagedObject? {
            guard let id = open.coordinator.managedObjectID(forURIRepresentation: uri) else { return nil }
            return try? context.existingObject(with: id)
        }
        for (name, expected) in changes.counts.sorted(by: { $0.key < $1.key }) {
            let request = NSFetchRequest<NSManagedObject>(entityName: name)
            request.includesSubentities = false
            let count = (try? context.count(for: request)) ?? -1
            if count != expected { report.fail("after reopening, \(name) has \(count) objects; \(expected) were saved") }
        }
        for insert in changes.inserted {
            guard let saved = object(insert.uri) else { report.fail("the inserted \(insert.entity) \(insert.uri) is gone after reopening"); continue }
            if let pk = primaryKey(of: saved.objectID), let root = saved.entity.root.name, let largest = changes.largestKey[root], pk <= largest {
                report.fail("the inserted \(insert.entity) got Z_PK \(pk), not above the \(largest) already in \(root)'s table (Z_PRIMARYKEY.Z_MAX)")
            }
            for (key, value) in insert.values.sorted(by: { $0.key < $1.key }) where !Self.equal(saved.value(forKey: key), value) {
                report.fail("the inserted \(insert.entity).\(key) reads \(ValueComparison.text(saved.value(forKey: key) ?? "nil")) after reopening, not \(ValueComparison.text(value))")
            }
        }
        for edit in changes.edited {
            guard let saved = object(edit.uri) else { report.fail("the edited object \(edit.uri) is gone after reopening"); continue }
            if !Self.equal(saved.value(forKey: edit.key), edit.value) {
                report.fail("the edited \(saved.entity.name ?? "?").\(edit.key) reads \(ValueComparison.text(saved.value(forKey: edit.key) ?? "nil")) after reopening, not \(ValueComparison.text(edit.value))")
            }
        }
        for uri in changes.deleted where object(uri) != nil {
            report.fail("the deleted object \(uri) still exists after reopening")
        }
    }

    static func equal(_ read: Any?, _ expected: Any) -> Bool {
        guard let read = read as? NSObject, let expected = expected as? NSObject else { return false }
        return read.isEqual(expected)
    }
}
#endif
