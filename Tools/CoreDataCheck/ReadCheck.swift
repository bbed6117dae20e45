#if canImport(CoreData)
import CoreData
import Foundation

/// Opens the read-only copy with the model version the app ships, fetches every entity in batches
/// and compares every attribute of every object, and every relationship the export writes, with
/// the store's `coreseed export`; walks the relationships of a sample of objects to their inverses.
struct ReadCheck {
    let prepared: PreparedStore
    let model: NSManagedObjectModel
    let options: Options

    /// What the comparison went through, for its summary line.
    struct Tally {
        var objects = 0, values = 0, transformable = 0, binary = 0, binaryBytes = 0, links = 0, walked = 0, walkedLinks = 0
    }

    /// Differences reported per entity before the rest are only counted.
    static let reportedDifferences = 10

    func run(report: inout StoreReport) {
        let open: OpenStore
        do {
            open = try OpenStore(prepared.copy, model: model, configuration: options.configuration, options: [
                NSReadOnlyPersistentStoreOption: true,
                NSMigratePersistentStoresAutomaticallyOption: false,
                NSInferMappingModelAutomaticallyOption: false,
            ], what: "the copy read-only without migration")
        } catch {
            report.fail("\(error)")
            return
        }
        defer { open.close() }
        let context = open.context
        var tally = Tally()
        let entities = model.storedEntities(configuration: options.configuration)
        for entity in entities {
            do {
                try compare(entity, in: context, tally: &tally, report: &report)
            } catch {
                report.fail("\(entity.name ?? "?"): \(error)")
            }
            context.reset()
        }
        report.pass("Core Data read \(tally.objects) objects of \(entities.count) entities in batches of \(options.batch): "
                    + "\(tally.values) values equal the export's (\(tally.transformable) Transformable, \(tally.binary) Binary of "
                    + "\(tally.binaryBytes) bytes), \(tally.links) relationship links; relationships of \(tally.walked) objects "
                    + "walked to their inverses (\(tally.walkedLinks) links)")
    }

    private func compare(_ entity: NSEntityDescription, in context: NSManagedObjectContext, tally: inout Tally,
                         report: inout StoreReport) throws(CheckFailure) {
        guard let name = entity.name else { return }
        let idRequest = NSFetchRequest<NSManagedObjectID>(entityName: name)
        idRequest.resultType = .managedObjectIDResultType
        idRequest.includesSubentities = false
        let ids: [NSManagedObjectID]
        do { ids = try context.fetch(idRequest) } catch { throw .failed("Core Data cannot fetch its objects: \(describe(error))") }
        let rows = prepared.inspection.storedEntities[name]?.rows ?? 0
        if ids.count != rows { report.fail("\(name): Core Data fetches \(ids.count) objects, coreseed inspect counts \(rows) rows") }
        guard let exportPath = prepared.exports[name] else {
            if !ids.isEmpty { report.fail("\(name): \(ids.count) objects and no export to compare them with") }
            return
        }
        var keyed: [(pk: Int64, id: NSManagedObjectID)] = []
        for id in ids {
            guard let pk = primaryKey(of: id) else { throw .failed("object ID \(id.uriRepresentation()) does not end in p<Z_PK>") }
            keyed.append((pk, id))
        }
        keyed.sort { $0.pk < $1.pk }

        var attributes: [NSAttributeDescription] = []
        for attribute in entity.storedAttributes where ValueComparison.isCompared(attribute) {
            if attribute.attributeType == .transformableAttributeType, let transformer = attribute.valueTransformerName,
               ValueTransformer(forName: NSValueTransformerName(rawValue: transformer)) == nil {
                report.note("\(name).\(attribute.name): its value transformer \(transformer) is the app's, not registered here: not read")
                continue
            }
            attributes.append(attribute)
        }
        let relationships = entity.relationshipsByName.values.filter { !$0.isTransient }.sorted { $0.name < $1.name }
        let file = try ExportFile(path: exportPath)
        var differences = 0
        var walkedHere = 0
        func differ(_ text: String, _ report: inout StoreReport) {
            differences += 1
            if differences <= Self.reportedDifferences { report.fail(text) }
        }
        var position = 0
        while position < keyed.count {
            let chunk = keyed[position..<min(position + options.batch, keyed.count)]
            var exported: [ExportFile.Row] = []
            for _ in chunk {
                guard let row = try file.next() else { throw .failed("the export has \(position + exported.count) rows, Core Data \(keyed.count) objects") }
                exported.append(row)
            }
            let request = NSFetchRequest<NSManagedObject>(entityName: name)
            request.predicate = objectsPredicate(chunk.map(\.id))
            request.includesSubentities = false
            request.returnsObjectsAsFaults = false
            request.fetchBatchSize = options.batch
            request.relationshipKeyPathsForPrefetching = relationships.map(\.name)
            let objects: [NSManagedObject]
            do { objects = try context.fetch(request) } catch { throw .failed("Core Data cannot fetch a batch: \(describe(error))") }
            let byID = Dictionary(objects.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
            for (entry, row) in zip(chunk, exported) {
                guard entry.pk == row.pk else {
                    throw .failed("Core Data's objects and the export's rows differ from pk \(min(entry.pk, row.pk)) on (\(exportPath):\(row.line))")
                }
                guard let object = byID[entry.id] else { differ("\(name) pk \(entry.pk): Core Data fetches no object for it", &report); continue }
                tally.objects += 1
                for attribute in attributes {
                    guard let value = row[attribute.name] else { continue }  // not exported (export warns)
                    tally.values += 1
                    let read = object.value(forKey: attribute.name)
                    if attribute.attributeType == .transformableAttributeType, read != nil { tally.transformable += 1 }
                    if attribute.attributeType == .binaryDataAttributeType, let data = read as? Data {
                        tally.binary += 1
                        tally.binaryBytes += data.count
                    }
                    if let difference = ValueComparison.difference(read, value, attribute: attribute) {
                        differ("\(name) pk \(row.pk).\(attribute.name): \(difference)", &report)
                    }
                }
                for relationship in relationships {
                    guard let value = row[relationship.name] else { continue }  // the other side's column carries it
                    tally.links += 1
                    if let difference = Self.relationshipDifference(object, relationship, value) {
                        differ("\(name) pk \(row.pk).\(relationship.name): \(difference)", &report)
                    }
                }
                if walkedHere < options.sample {
                    walkedHere += 1
                    tally.walked += 1
                    for problem in RelationshipWalk.problems(of: object, relationships, in: context, links: &tally.walkedLinks) {
                        differ(problem, &report)
                    }
                }
            }
            position += chunk.count
            context.reset()
        }
        if try file.next() != nil { report.fail("\(name): the export has more rows than the \(keyed.count) objects Core Data fetches") }
        if differences > Self.reportedDifferences { report.fail("\(name): and \(differences - Self.reportedDifferences) more differences") }
    }

    /// A relationship as the export writes it (a to-one as the destination's pk or null; an ordered
    /// one-to-many, a many-to-many or a to-many without inverse as the destinations' pks, in order
    /// for an ordered one, by pk otherwise; null for none) against Core Data's object IDs.
    static func relationshipDifference(_ object: NSManagedObject, _ relationship: NSRelationshipDescription, _ exported: JSONValue) -> String? {
        var expected: [Int64] = []
        switch exported {
        case .null: break
        case .number(let digits): if let pk = Int64(digits) { expected = [pk] }
        case .array(let items):
            for item in items {
                guard case .number(let digits) = item, let pk = Int64(digits) else { return "the export holds \(ValueComparison.text(exported))" }
                expected.append(pk)
            }
        default: return "the export holds \(ValueComparison.text(exported))"
        }
        let ids: [NSManagedObjectID]
        if relationship.isToMany, relationship.isOrdered {
            // The ordered set keeps Core Data's order (Z_FOK_ or the join table's order column).
            let set = object.value(forKey: relationship.name) as? NSOrderedSet
            ids = (set?.array ?? []).compactMap { ($0 as? NSManagedObject)?.objectID }
        } else {
            ids = object.objectIDs(forRelationshipNamed: relationship.name)
        }
        var read = ids.compactMap(primaryKey(of:))
        if !relationship.isOrdered {
            read.sort()
            expected.sort()
        }
        return read == expected ? nil : "Core Data leads to pk \(read.prefix(8)), the export to \(expected.prefix(8))"
    }
}
#endif
