#if canImport(CoreData)
import CoreData
import Foundation

/// Migrates copies of the store to the next model version as an app update does
/// (`NSMigratePersistentStoresAutomaticallyOption` and `NSInferMappingModelAutomaticallyOption`, a
/// lightweight migration in place): once with the source version in a bundle, where Core Data looks
/// for it (`Bundle.allBundles`, which holds every bundle the process created, and
/// `Bundle.allFrameworks`: "Migrating your data model automatically"), and once without it, when
/// Core Data can only use the model cached in the store (`Z_MODELCACHE`, which CoreSeed leaves empty).
/// Each migration runs in its own process (`MigrationStep`), since a bundle, once created, stays in
/// `Bundle.allBundles` for the life of the process.
struct MigrationCheck {
    let prepared: PreparedStore
    let options: Options

    /// `NSMigrationMissingSourceModelError`: no model for the store's version hashes.
    static let missingSourceModel = 134130

    func run(report: inout StoreReport) {
        let next = prepared.next
        let modelName = URL(fileURLWithPath: options.model).deletingPathExtension().lastPathComponent
        let compiledFolder = prepared.folder.appendingPathComponent("next/compiled")
        do {
            let without = try CompiledModel.compile(next.withoutSource, into: compiledFolder.appendingPathComponent("without/\(modelName).momd"))
            let bundle = compiledFolder.appendingPathComponent("CoreDataCheckModels.bundle")
            let with = try CompiledModel.compile(next.withSource, into: bundle.appendingPathComponent("Contents/Resources/\(modelName).momd"))
            try writeBundleInfo(bundle)
            guard with.currentVersion == next.name, without.currentVersion == next.name else {
                throw CheckFailure.failed("momc made '\(with.currentVersion)' current, not the next version '\(next.name)'")
            }
            let cached = modelCacheBytes(of: prepared.copy) ?? 0
            let original = URL(fileURLWithPath: prepared.original)

            let withoutCopy = try StoreFiles.copy(original, into: prepared.folder.appendingPathComponent("migrate-without"))
            let blind = try MigrationStep.launch(store: withoutCopy, momd: without.momd, bundle: nil, configuration: options.configuration)
            switch (blind.ok, cached) {
            case (false, 0) where blind.domain == NSCocoaErrorDomain && blind.code == Self.missingSourceModel:
                report.pass("without the source version, Core Data refuses to migrate to '\(next.name)' (\(Self.missingSourceModel), no source model), as expected while Z_MODELCACHE is empty")
            case (true, 0):
                report.note("Core Data migrated to '\(next.name)' without the source version although Z_MODELCACHE is empty")
            case (true, _):
                report.pass("without the source version, Core Data migrated to '\(next.name)' from the model cached in Z_MODELCACHE (\(cached) bytes)")
            case (false, _):
                report.fail("without the source version, migrating to '\(next.name)' failed: \(blind.message ?? "no message") (Z_MODELCACHE: \(cached) bytes)")
            }

            let withCopy = try StoreFiles.copy(original, into: prepared.folder.appendingPathComponent("migrate-with"))
            let migrated = try MigrationStep.launch(store: withCopy, momd: with.momd, bundle: bundle, configuration: options.configuration)
            guard migrated.ok else {
                report.fail("with the source version in a bundle, Core Data cannot migrate to \(next.change): \(migrated.message ?? "no message")")
                return
            }
            for (name, count) in (migrated.counts ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let entity = prepared.inspection.storedEntities[name], let rows = entity.rows, rows != count else { continue }
                report.fail("after migrating to '\(next.name)', \(name) has \(count) objects, the store had \(rows)")
            }
            let verification = try Verification.run(withCopy.path, model: next.withSource.path, configuration: options.configuration, coreseed: options.coreseed)
            guard verification.ok, verification.modelVersion == next.name else {
                report.fail("coreseed verify of the store Core Data migrated to '\(next.name)': version '\(verification.modelVersion ?? "none")', \(verification.summary)")
                return
            }
            report.pass("with the source version in a bundle, Core Data migrated a copy to \(next.change) in place; coreseed verify: model version '\(next.name)', \(verification.notes.count) notes")
        } catch {
            report.fail("migration: \(error)")
        }
    }

    /// The `Info.plist` that makes the folder a bundle (`Bundle(path:)`).
    private func writeBundleInfo(_ bundle: URL) throws {
        let info: [String: Any] = [
            "CFBundleIdentifier": "org.coreseed.core-data-check.models",
            "CFBundleName": "CoreDataCheckModels",
            "CFBundlePackageType": "BNDL",
            "CFBundleInfoDictionaryVersion": "6.0",
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
        try data.write(to: bundle.appendingPathComponent("Contents/Info.plist"))
    }
}

/// One migration in a process of its own: `core-data-check --migration-step STORE MOMD [--bundle B]
/// [--configuration NAME]` adds STORE with the current version of MOMD and automatic lightweight
/// migration on, after creating the bundle B (if given), and prints the outcome as one JSON object.
enum MigrationStep {
    static let flag = "--migration-step"

    struct Outcome: Codable {
        var ok: Bool
        /// Objects per entity after the migration.
        var counts: [String: Int]?
        var domain: String?
        var code: Int?
        var message: String?
    }

    /// Runs this program again as a migration step and reads its outcome.
    static func launch(store: URL, momd: URL, bundle: URL?, configuration: String?) throws(CheckFailure) -> Outcome {
        let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
        let arguments = [flag, store.path, momd.path] + (bundle.map { ["--bundle", $0.path] } ?? [])
            + (configuration.map { ["--configuration", $0] } ?? [])
        let result = try Subprocess.run(executable, arguments)
        guard result.status == 0, let outcome = try? JSONDecoder().decode(Outcome.self, from: result.output) else {
            throw .failed("\(result.command) failed (exit status \(result.status)): \(result.firstErrorLine)")
        }
        return outcome
    }

    /// The child's side; returns its exit status (0 whenever it printed an outcome).
    static func run(_ arguments: [String]) -> Int32 {
        var words = arguments[...]
        guard let store = words.popFirst(), let momd = words.popFirst() else {
            printError("core-data-check: error: \(flag) needs STORE and MOMD")
            return 64
        }
        var bundlePath: String?, configuration: String?
        while let word = words.popFirst() {
            switch word {
            case "--bundle": bundlePath = words.popFirst()
            case "--configuration": configuration = words.popFirst()
            default:
                printError("core-data-check: error: \(flag): unknown argument '\(word)'")
                return 64
            }
        }
        var outcome = Outcome(ok: false)
        do {
            let compiled = try CompiledModel.load(URL(fileURLWithPath: momd))
            guard let model = compiled.versions[compiled.currentVersion] else { throw CheckFailure.failed("no current version in \(momd)") }
            // Created before the store is added, and kept alive until it is: Core Data looks for the
            // source version in Bundle.allBundles.
            let bundle = bundlePath.flatMap { Bundle(path: $0) }
            if let bundlePath, bundle == nil { throw CheckFailure.failed("\(bundlePath) is not a bundle") }
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            let added = try coordinator.addPersistentStore(type: .sqlite, configuration: configuration, at: URL(fileURLWithPath: store), options: [
                NSMigratePersistentStoresAutomaticallyOption: true,
                NSInferMappingModelAutomaticallyOption: true,
            ])
            withExtendedLifetime(bundle) {}
            let context = NSManagedObjectContext(.mainQueue)
            context.persistentStoreCoordinator = coordinator
            var counts: [String: Int] = [:]
            for entity in model.storedEntities(configuration: configuration) {
                guard let name = entity.name else { continue }
                let request = NSFetchRequest<NSManagedObject>(entityName: name)
                request.includesSubentities = false
                counts[name] = try context.count(for: request)
            }
            try coordinator.remove(added)
            outcome = Outcome(ok: true, counts: counts)
        } catch CheckFailure.failed(let message) {
            outcome.message = message
        } catch {
            let error = error as NSError
            outcome = Outcome(ok: false, domain: error.domain, code: error.code, message: describe(error))
        }
        guard let data = try? JSONEncoder().encode(outcome) else { return 70 }
        FileHandle.standardOutput.write(data)
        return 0
    }
}
#endif
