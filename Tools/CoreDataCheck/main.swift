// CoreDataCheck: opens stores that `coreseed build` wrote with Apple's own Core Data and reads all of
// them back, so that a store's fidelity is proven on the framework the app runs, not on our reading
// of its rules. `.github/workflows/macos.yml` runs it after `make seed`; on Linux (no Core Data) it
// compiles and says it has nothing to check.
//
// For each model folder `*.xcdatamodeld` in --models it runs `xcrun momc` and loads every compiled
// version. For each STORE it then:
//   1. picks the model version whose hashes Core Data finds compatible with the store's metadata
//      (`isConfiguration(withName:compatibleWithStoreMetadata:)`: no migration needed), or fails;
//   2. adds a private copy of the store read-only, with NSMigratePersistentStoresAutomaticallyOption
//      and NSInferMappingModelAutomaticallyOption false (Core Data may not change or migrate it);
//   3. fetches every entity (its own rows, sub-entities apart) and compares each count with
//      `coreseed inspect --json` (rows per Z_ENT, read by SQLite), and the store UUIDs;
//   4. reads every attribute of every object: Transformable values through their transformer, Binary
//      values as bytes; an attribute whose column is not NULL (a `%K != nil` fetch, run in SQL) must
//      give a value, so a value Core Data cannot decode fails the check;
//   5. walks every relationship of a sample of objects per entity: each destination must exist
//      (`existingObject(with:)`, so a dangling key fails), be of the destination entity, and point
//      back through the inverse.
// Any error fails the run (exit status 1).
//
// Build and run (macOS): swiftc -O -swift-version 6 Tools/CoreDataCheck/main.swift -o .build/core-data-check
//                        .build/core-data-check --coreseed .build/release/coreseed --models Inputs Outputs/*.sqlite
// Exit status: 0 all stores pass, 1 a check failed, 64 usage error, 77 no Core Data on this platform.

import Foundation
#if canImport(CoreData)
import CoreData
#endif

/// What the command line asked for.
struct Options {
    var coreseed = ".build/release/coreseed"
    var models = "Inputs"
    var sample = 100
    var stores: [String] = []

    static let usage = """
        Usage: core-data-check [--coreseed PATH] [--models DIR] [--sample N] STORE...

        Opens each STORE with Core Data (read-only, no migration), fetches every entity, compares the
        counts with `coreseed inspect --json`, reads every attribute value and walks every relationship
        of up to N objects per entity (default 100). The models are the *.xcdatamodeld folders in DIR
        (default Inputs), compiled with `xcrun momc`; PATH is the coreseed binary (default
        .build/release/coreseed).

        Example: core-data-check --models Inputs Outputs/Carriers.sqlite Outputs/FailedBanksCD.sqlite
        """

    init(_ words: [String]) throws {
        var words = words[...]
        while let word = words.popFirst() {
            switch word {
            case "--coreseed": coreseed = try Self.value(of: word, from: &words)
            case "--models": models = try Self.value(of: word, from: &words)
            case "--sample":
                let text = try Self.value(of: word, from: &words)
                guard let number = Int(text), number >= 0 else { throw CheckFailure.usage("--sample takes a count, not '\(text)'") }
                sample = number
            case "-h", "--help": throw CheckFailure.help
            default:
                guard !word.hasPrefix("-") else { throw CheckFailure.usage("unknown option \(word)") }
                stores.append(word)
            }
        }
        guard !stores.isEmpty else { throw CheckFailure.usage("no STORE given") }
    }

    private static func value(of option: String, from words: inout ArraySlice<String>) throws -> String {
        guard let value = words.popFirst() else { throw CheckFailure.usage("\(option) needs a value") }
        return value
    }
}

/// Why the run stops early.
enum CheckFailure: Error {
    case help
    case usage(String)
    case failed(String)
}

/// `coreseed inspect STORE --json`, the parts compared with Core Data.
struct Inspection: Decodable {
    struct Entity: Decodable {
        let number: Int
        let name: String
        let rows: Int
    }

    struct Sidecar: Decodable {
        let name: String
    }

    let uuid: String
    let journalMode: String
    let sidecars: [Sidecar]
    let entities: [Entity]
}

/// Runs `executable` with `arguments`; returns its standard output, or fails naming it and its stderr.
func run(_ executable: String, _ arguments: [String]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    do {
        try process.run()
    } catch {
        throw CheckFailure.failed("cannot run \(executable): \(error.localizedDescription)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        throw CheckFailure.failed("\(([executable] + arguments).joined(separator: " ")) failed (status \(process.terminationStatus)): \(message)")
    }
    return data
}

/// The store as `coreseed inspect --json` reads it (through SQLite, not Core Data).
func inspect(_ store: String, with coreseed: String) throws -> Inspection {
    let data = try run(coreseed, ["inspect", store, "--json"])
    do {
        return try JSONDecoder().decode(Inspection.self, from: data)
    } catch {
        throw CheckFailure.failed("\(store): coreseed inspect --json gave unexpected JSON: \(error)")
    }
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// The command line's options, or the exit status when there is nothing to check: 0 after `--help`,
/// 64 after a usage error (printed with the usage).
func parseCommandLine() -> Result<Options, ExitStatus> {
    do {
        return .success(try Options(Array(CommandLine.arguments.dropFirst())))
    } catch CheckFailure.help {
        print(Options.usage)
        return .failure(ExitStatus(code: 0))
    } catch {
        if case CheckFailure.usage(let message) = error { printError("error: \(message)") }
        printError(Options.usage)
        return .failure(ExitStatus(code: 64))
    }
}

/// An exit status as an error, so that parsing can end the run early.
struct ExitStatus: Error {
    let code: Int32
}

#if canImport(CoreData)

/// One compiled version of a model folder.
struct CompiledModel {
    let source: String
    let version: String
    let model: NSManagedObjectModel
}

/// Compiles every `*.xcdatamodeld` in `folder` with `xcrun momc` into `output`; returns every version.
func compileModels(in folder: String, into output: URL) throws -> [CompiledModel] {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".xcdatamodeld") }.sorted()
    guard !names.isEmpty else { throw CheckFailure.failed("\(folder): no *.xcdatamodeld folder") }
    var compiled: [CompiledModel] = []
    for name in names {
        let source = (folder as NSString).appendingPathComponent(name)
        let momd = output.appendingPathComponent((name as NSString).deletingPathExtension + ".momd")
        _ = try run("/usr/bin/xcrun", ["momc", source, momd.path])
        let versions = try FileManager.default.contentsOfDirectory(atPath: momd.path).filter { $0.hasSuffix(".mom") }.sorted()
        guard !versions.isEmpty else { throw CheckFailure.failed("\(source): momc wrote no .mom into \(momd.path)") }
        for version in versions {
            guard let model = NSManagedObjectModel(contentsOf: momd.appendingPathComponent(version)) else {
                throw CheckFailure.failed("\(source): Core Data cannot load the compiled version \(version)")
            }
            compiled.append(CompiledModel(source: source, version: (version as NSString).deletingPathExtension, model: model))
        }
        print("\(source): compiled with momc, \(versions.count) version(s)")
    }
    return compiled
}

/// What the checks of one store went through, for its summary line.
struct Tally {
    var objects = 0, transformable = 0, binary = 0, binaryBytes = 0, walked = 0, links = 0
}

/// Checks one store; returns the problems found (empty: it passes) and prints a summary line.
func check(store: String, models: [CompiledModel], options: Options, scratch: URL) throws -> [String] {
    var problems: [String] = []
    // A private copy, so that nothing Core Data does on open can touch the seeded file.
    let storeURL = URL(fileURLWithPath: store)
    let copy = scratch.appendingPathComponent(UUID().uuidString + "-" + storeURL.lastPathComponent)
    try FileManager.default.copyItem(at: storeURL, to: copy)
    let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: copy, options: nil)
    let matching = models.filter { $0.model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) }
    guard let compiled = matching.first else {
        let tried = models.map { "\($0.source) (\($0.version))" }.joined(separator: ", ")
        return ["no model version is compatible with the store's version hashes (Core Data would migrate or refuse it); tried \(tried)"]
    }
    let inspection = try inspect(store, with: options.coreseed)
    if inspection.journalMode != "rollback" { problems.append("journal mode \(inspection.journalMode), expected rollback (DELETE)") }
    if !inspection.sidecars.isEmpty { problems.append("sidecar files beside the store: \(inspection.sidecars.map(\.name))") }
    if let uuid = metadata[NSStoreUUIDKey] as? String, uuid != inspection.uuid {
        problems.append("Core Data reads store UUID \(uuid), coreseed inspect \(inspection.uuid)")
    }

    let coordinator = NSPersistentStoreCoordinator(managedObjectModel: compiled.model)
    _ = try coordinator.addPersistentStore(type: .sqlite, configuration: nil, at: copy, options: [
        NSReadOnlyPersistentStoreOption: true,
        NSMigratePersistentStoresAutomaticallyOption: false,
        NSInferMappingModelAutomaticallyOption: false,
    ])
    let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
    context.persistentStoreCoordinator = coordinator

    let rowsByName = Dictionary(inspection.entities.map { ($0.name, $0.rows) }, uniquingKeysWith: { first, _ in first })
    let modelNames = Set(compiled.model.entities.compactMap(\.name))
    if modelNames != Set(rowsByName.keys) {
        problems.append("entities: the model has \(modelNames.sorted()), the store's Z_PRIMARYKEY \(rowsByName.keys.sorted())")
    }
    var tally = Tally()
    for entity in compiled.model.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
        guard let name = entity.name else { continue }
        let request = NSFetchRequest<NSManagedObject>(entityName: name)
        request.includesSubentities = false
        request.returnsObjectsAsFaults = false
        let objects = try context.fetch(request)
        tally.objects += objects.count
        if let rows = rowsByName[name], rows != objects.count {
            problems.append("\(name): Core Data fetches \(objects.count) objects, coreseed inspect counts \(rows) rows")
        }
        problems += try readAttributes(of: entity, objects, in: context, tally: &tally)
        // A sample evenly spread over the entity's objects, from the first.
        let step = max(1, objects.count / max(1, options.sample))
        let sample = stride(from: 0, to: objects.count, by: step).prefix(options.sample).map { objects[$0] }
        problems += walkRelationships(of: entity, sample, in: context, tally: &tally)
    }
    print("\(store): model \(compiled.source) (version \(compiled.version)); \(tally.objects) objects in "
          + "\(compiled.model.entities.count) entities, counts as coreseed inspect's; \(tally.transformable) Transformable "
          + "and \(tally.binary) Binary values (\(tally.binaryBytes) bytes) read; relationships of \(tally.walked) objects "
          + "walked (\(tally.links) links)")
    return problems
}

/// Reads every stored attribute of `objects`. A column that is not NULL must read as a value: a
/// `%K != nil` count (run in SQL, no decoding) is compared with the values Core Data gives, so a
/// Transformable value its transformer cannot decode (read as nil) is found.
func readAttributes(of entity: NSEntityDescription, _ objects: [NSManagedObject], in context: NSManagedObjectContext,
                    tally: inout Tally) throws -> [String] {
    let name = entity.name ?? "?"
    var problems: [String] = []
    for (attributeName, attribute) in entity.attributesByName.sorted(by: { $0.key < $1.key }) where !attribute.isTransient {
        if attribute.attributeType == .transformableAttributeType, let transformer = attribute.valueTransformerName,
           ValueTransformer(forName: NSValueTransformerName(rawValue: transformer)) == nil {
            problems.append("\(name).\(attributeName): value transformer \(transformer) is not registered in this process")
            continue
        }
        let notNull = NSFetchRequest<NSManagedObject>(entityName: name)
        notNull.includesSubentities = false
        notNull.predicate = NSPredicate(format: "%K != nil", attributeName)
        let stored = try context.count(for: notNull)
        var read = 0
        for object in objects {
            guard let value = object.value(forKey: attributeName) else { continue }
            read += 1
            switch attribute.attributeType {
            case .transformableAttributeType:
                tally.transformable += 1
            case .binaryDataAttributeType:
                guard let data = value as? Data else {
                    problems.append("\(name).\(attributeName): a Binary value reads as \(type(of: value)), not Data")
                    continue
                }
                tally.binary += 1
                tally.binaryBytes += data.count
            default:
                break
            }
        }
        if read != stored {
            problems.append("\(name).\(attributeName): \(stored) rows hold a value, Core Data reads \(read) (a value it cannot decode reads as nil)")
        }
    }
    return problems
}

/// Follows every relationship of each object of `sample`: each destination must exist
/// (`existingObject(with:)` throws for a dangling key), be of the destination entity, and lead back
/// through the inverse.
func walkRelationships(of entity: NSEntityDescription, _ sample: [NSManagedObject], in context: NSManagedObjectContext,
                       tally: inout Tally) -> [String] {
    let name = entity.name ?? "?"
    var problems: [String] = []
    for object in sample {
        tally.walked += 1
        for (relationshipName, relationship) in entity.relationshipsByName.sorted(by: { $0.key < $1.key }) {
            let label = "\(name) \(object.objectID.uriRepresentation().lastPathComponent).\(relationshipName)"
            let value = object.value(forKey: relationshipName)
            let destinations: [NSManagedObject]
            if !relationship.isToMany {
                destinations = (value as? NSManagedObject).map { [$0] } ?? []
            } else if relationship.isOrdered, let set = value as? NSOrderedSet {
                destinations = set.array.compactMap { $0 as? NSManagedObject }
            } else if let set = value as? NSSet {
                destinations = set.allObjects.compactMap { $0 as? NSManagedObject }
            } else {
                problems.append("\(label): a to-many value reads as \(value.map { "\(type(of: $0))" } ?? "nil")")
                continue
            }
            for destination in destinations {
                tally.links += 1
                let target: NSManagedObject
                do {
                    target = try context.existingObject(with: destination.objectID)
                } catch {
                    problems.append("\(label): destination \(destination.objectID.uriRepresentation()) does not exist: \(error.localizedDescription)")
                    continue
                }
                if let expected = relationship.destinationEntity, !target.entity.isKindOf(entity: expected) {
                    problems.append("\(label): destination is a \(target.entity.name ?? "?"), not a \(expected.name ?? "?")")
                }
                guard let inverse = relationship.inverseRelationship else { continue }
                let back = target.value(forKey: inverse.name)
                let pointsBack: Bool
                if inverse.isToMany {
                    pointsBack = (back as? NSSet)?.contains(object) ?? (back as? NSOrderedSet)?.contains(object) ?? false
                } else {
                    pointsBack = (back as? NSManagedObject) == object
                }
                if !pointsBack { problems.append("\(label): the inverse \(inverse.name) does not lead back") }
            }
        }
    }
    return problems
}

func checkStores() -> Int32 {
    let options: Options
    switch parseCommandLine() {
    case .success(let parsed): options = parsed
    case .failure(let status): return status.code
    }
    do {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("core-data-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let models = try compileModels(in: options.models, into: scratch)
        var failed = false
        for store in options.stores {
            let problems: [String]
            do {
                problems = try check(store: store, models: models, options: options, scratch: scratch)
            } catch CheckFailure.failed(let message) {
                problems = [message]
            } catch {
                problems = ["Core Data: \(error)"]
            }
            for problem in problems { printError("\(store): error: \(problem)") }
            if problems.isEmpty { print("\(store): OK") } else { failed = true }
        }
        return failed ? 1 : 0
    } catch CheckFailure.failed(let message) {
        printError("error: \(message)")
        return 1
    } catch {
        printError("error: \(error)")
        return 1
    }
}

#else

func checkStores() -> Int32 {
    if case .failure(let status) = parseCommandLine() { return status.code }
    printError("core-data-check: Core Data is not available on this platform; nothing checked (run it on macOS)")
    return 77
}

#endif

exit(checkStores())
