#if canImport(CoreData)
import CoreData
import Foundation

/// The Core Data half: compiles the model, requires the version the app ships to be compatible with
/// the store, then runs the read, write, history and migration checks on copies of it.
enum CoreDataChecks {
    static func run(_ prepared: PreparedStore, options: Options, report: inout StoreReport) {
        let source = URL(fileURLWithPath: options.model)
        let compiled: CompiledModel
        do {
            compiled = try CompiledModel.compile(source, into: prepared.folder.appendingPathComponent("model")
                .appendingPathComponent(source.deletingPathExtension().lastPathComponent + ".momd"))
        } catch {
            report.fail("\(error)")
            return
        }
        let shipped = options.modelVersion ?? compiled.currentVersion
        guard let model = compiled.versions[shipped] else {
            report.fail("the compiled model has no version '\(shipped)' (it has \(compiled.versions.keys.sorted().joined(separator: ", ")))")
            return
        }
        if let configuration = options.configuration, !model.configurations.contains(configuration) {
            report.fail("model version '\(shipped)' has no configuration '\(configuration)' (it has \(model.configurations.sorted().joined(separator: ", ")))")
            return
        }
        let metadata: [String: Any]
        do {
            metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: prepared.copy, options: nil)
        } catch {
            report.fail("Core Data cannot read the store's metadata: \(describe(error))")
            return
        }
        guard model.isConfiguration(withName: options.configuration, compatibleWithStoreMetadata: metadata) else {
            let matching = compiled.versions(compatibleWith: metadata, configuration: options.configuration)
            report.fail("Core Data finds model version '\(shipped)', the one the app ships"
                        + (options.modelVersion == nil ? " (current in VersionInfo.plist)" : "")
                        + ", incompatible with the store's metadata: the app would migrate or refuse it; compatible: "
                        + (matching.isEmpty ? "none" : matching.joined(separator: ", ")))
            return
        }
        if let uuid = metadata[NSStoreUUIDKey] as? String, uuid != prepared.inspection.uuid {
            report.fail("Core Data reads store UUID \(uuid), coreseed inspect \(prepared.inspection.uuid)")
        }
        let entities = Set(model.storedEntities(configuration: options.configuration).compactMap(\.name))
        let stored = Set(prepared.inspection.storedEntities.keys)
        if entities != stored {
            report.fail("Core Data's entities \(entities.sorted()) are not the store's tables' \(stored.sorted())")
        }
        report.pass("Core Data finds model version '\(shipped)'"
                    + (options.modelVersion == nil ? " (current in the compiled VersionInfo.plist)" : "")
                    + (options.configuration.map { ", configuration '\($0)'," } ?? "")
                    + " compatible with the store's metadata")
        ReadCheck(prepared: prepared, model: model, options: options).run(report: &report)
        WriteCheck(prepared: prepared, model: model, options: options).run(report: &report)
        HistoryCheck(prepared: prepared, model: model, options: options).run(report: &report)
        ReplaceCheck(prepared: prepared, model: model, options: options).run(report: &report)
        MigrationCheck(prepared: prepared, options: options).run(report: &report)
    }
}
#endif
