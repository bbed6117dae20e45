import Foundation

/// A store copied into the private folder and checked with coreseed: what the Core Data checks start
/// from. Both platforms prepare stores the same way; only macOS goes on to open them.
struct PreparedStore {
    /// The store as given on the command line.
    let original: String
    /// `WORK/<n>-<name>/`: every copy of this store lives below it.
    let folder: URL
    /// The read-only copy, `folder/read/<store file name>`, with its sidecars and support folder.
    let copy: URL
    let inspection: Inspection
    /// The model version whose hashes the store carries (coreseed verify), as the app ships it.
    let modelVersion: String
    /// Entity name → its `ENTITY.json` from `coreseed export --format json`.
    let exports: [String: String]
    /// The model version the migration check migrates copies to.
    let next: NextVersion
}

enum Preparation {
    /// Copies `store` with its support folder into its own folder below `work`, checks the copy with
    /// `coreseed inspect` and `coreseed verify`, and exports it as JSON; nil when a check failed (in `report`).
    static func prepare(_ store: String, index: Int, options: Options, work: URL, report: inout StoreReport) -> PreparedStore? {
        do {
            return try prepareOrThrow(store, index: index, options: options, work: work, report: &report)
        } catch CheckFailure.failed(let message) {
            report.fail(message)
        } catch {
            report.fail("\(error)")
        }
        return nil
    }

    private static func prepareOrThrow(_ store: String, index: Int, options: Options, work: URL,
                                       report: inout StoreReport) throws(CheckFailure) -> PreparedStore? {
        let original = URL(fileURLWithPath: store)
        let name = original.deletingPathExtension().lastPathComponent
        let folder = work.appendingPathComponent("\(index + 1)-\(name)")
        let copy = try StoreFiles.copy(original, into: folder.appendingPathComponent("read"))

        // The support folder must arrive whole and under the name Core Data derives from the copy's.
        let support = StoreFiles.contents(of: StoreFiles.supportFolder(ofStoreAt: original))
        let copiedSupport = StoreFiles.contents(of: StoreFiles.supportFolder(ofStoreAt: copy))
        guard support == copiedSupport else {
            report.fail("the copy's support folder \(StoreFiles.supportFolder(ofStoreAt: copy).path) holds \(copiedSupport.count) files, the store's \(support.count), or their bytes differ")
            return nil
        }

        let inspection = try Inspection.read(copy.path, coreseed: options.coreseed)
        let missing = inspection.entities.filter { $0.rows == nil }.map(\.name)
        if !missing.isEmpty, options.configuration == nil {
            report.fail("the store has no tables for entities \(missing.joined(separator: ", ")): it was built for one configuration; give it with --configuration")
            return nil
        }

        let verification = try Verification.run(copy.path, model: options.model, configuration: options.configuration, coreseed: options.coreseed)
        guard verification.ok, let version = verification.modelVersion else {
            report.fail("coreseed verify of the copy: \(verification.summary)")
            return nil
        }
        let shipped = options.modelVersion ?? currentVersionName(ofModelAt: options.model)
        if let shipped, shipped != version {
            report.fail("the store was written by model version '\(version)', but the app ships '\(shipped)' (\(options.modelVersion == nil ? "the model's current version" : "--model-version")): Core Data would migrate it or refuse it")
            return nil
        }

        let exports = try export(copy, version: version, inspection: inspection, folder: folder.appendingPathComponent("export"),
                                 options: options, report: &report)
        let rows = inspection.entities.compactMap(\.rows).reduce(0, +)
        let external = inspection.externalData.map { ", its support folder with \($0.files) external files (\($0.bytes) bytes)" } ?? ""
        report.pass("copied\(external) into \(copy.deletingLastPathComponent().path); coreseed verify: model version '\(version)'"
                    + (options.configuration.map { ", configuration '\($0)'" } ?? "")
                    + "; coreseed export: \(rows) rows in \(exports.count) entities, as coreseed inspect counts them")
        guard let next = try nextVersion(of: copy, version: version, folder: folder.appendingPathComponent("next"), options: options, report: &report) else {
            return nil
        }
        return PreparedStore(original: store, folder: folder, copy: copy, inspection: inspection, modelVersion: version, exports: exports, next: next)
    }

    /// Writes the next model version (`NextVersion`) and checks it with coreseed: its hashes must
    /// differ from the store's version (else there is nothing to migrate), and the model folder that
    /// holds both versions must still name the store's version as the one that wrote it.
    private static func nextVersion(of copy: URL, version: String, folder: URL, options: Options,
                                    report: inout StoreReport) throws(CheckFailure) -> NextVersion? {
        let model = URL(fileURLWithPath: options.model)
        let next = try NextVersion.write(model: model, shipped: version, next: options.nextVersion.map { URL(fileURLWithPath: $0) }, into: folder)
        let before = try hashes(options.model, version: version, coreseed: options.coreseed)
        let after = try hashes(next.withoutSource.path, version: nil, coreseed: options.coreseed)
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        guard !changed.isEmpty else {
            report.fail("the next model version (\(next.change)) has the store's version hashes: there is no migration to try")
            return nil
        }
        let verification = try Verification.run(copy.path, model: next.withSource.path, configuration: options.configuration, coreseed: options.coreseed)
        guard verification.ok, verification.modelVersion == version else {
            report.fail("coreseed verify against \(next.withSource.path): version '\(verification.modelVersion ?? "none")', \(verification.summary)")
            return nil
        }
        report.pass("next model version '\(next.name)' (\(next.change)) changes the version hashes of \(changed.joined(separator: ", "))")
        return next
    }

    /// `coreseed hashes MODEL --json`: entity name → version hash.
    private static func hashes(_ model: String, version: String?, coreseed: String) throws(CheckFailure) -> [String: String] {
        let result = try Subprocess.succeed(coreseed, ["hashes", model, "--json"] + (version.map { ["--model-version", $0] } ?? []))
        guard case .object(let members)? = JSONValue.parse(result.text), case .object(let entities)? = members.first(where: { $0.key == "entities" })?.value else {
            throw .failed("\(result.command) printed JSON this check cannot read")
        }
        var hashes: [String: String] = [:]
        for entity in entities { if case .string(let hash) = entity.value { hashes[entity.key] = hash } }
        return hashes
    }

    /// `coreseed export --format json` of the copy: once for the whole store, or once per entity it
    /// holds when it was built for a configuration (export reads every entity's table otherwise).
    /// Every file is read through once, its rows counted against `coreseed inspect`.
    private static func export(_ copy: URL, version: String, inspection: Inspection, folder: URL, options: Options,
                               report: inout StoreReport) throws(CheckFailure) -> [String: String] {
        let stored = inspection.entities.filter { $0.rows != nil }
        let base = ["export", copy.path, "--model", options.model, "--model-version", version, "--format", "json"]
        var exports: [String: String] = [:]
        if stored.count == inspection.entities.count {
            _ = try Subprocess.succeed(options.coreseed, base + ["--output", folder.path])
            for entity in stored { exports[entity.name] = folder.appendingPathComponent("\(entity.name).json").path }
        } else {
            for entity in stored {
                let entityFolder = folder.appendingPathComponent(entity.name)
                _ = try Subprocess.succeed(options.coreseed, base + ["--entity", entity.name, "--output", entityFolder.path])
                exports[entity.name] = entityFolder.appendingPathComponent("\(entity.name).json").path
            }
        }
        for entity in stored {
            guard let path = exports[entity.name], FileManager.default.fileExists(atPath: path) else {
                // An abstract entity has no rows of its own and no file.
                exports[entity.name] = nil
                if entity.rows ?? 0 > 0 { report.fail("coreseed export wrote no \(entity.name).json for its \(entity.rows ?? 0) rows") }
                continue
            }
            let count = try ExportFile(path: path).countRows()
            if count != entity.rows { report.fail("\(path): \(count) rows, coreseed inspect counts \(entity.rows ?? 0) of \(entity.name)") }
        }
        return exports
    }
}

/// The private folder the copies go to: `--work DIR` (kept), or a temporary folder (removed).
struct Workspace {
    let url: URL
    let keep: Bool

    init(_ options: Options) throws(CheckFailure) {
        keep = options.work != nil
        url = options.work.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("core-data-check-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .failed("cannot create the folder \(url.path) for the copies: \(error.localizedDescription)")
        }
    }

    func cleanUp() {
        if !keep { try? FileManager.default.removeItem(at: url) }
    }
}
