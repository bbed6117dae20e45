import CoreSeed
import Foundation

/// `coreseed export STORE [--model MODEL]`: rows back out as CSV or JSON, and a spec that rebuilds them.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "write a store's rows as CSV or JSON files, and a spec that rebuilds it"
    static let arguments: [CommandArgument] = [.required("STORE", "the store to read (never written)")]
    static let options: [CommandOption] = [
        .value("model", "MODEL", "the store's model: .xcdatamodeld, .xcdatamodel, 'contents', .momd, .mom or a store (default: the store's own, Z_MODELCACHE)"),
        .value("model-version", "NAME", "read with this version (default: the one whose hashes match)"),
        .value("entity", "NAME", "export only this entity (and its sub-entities)"),
        .choice("format", ["csv", "json"], "csv (default): RFC 4180 with a header line; json: an array of objects"),
        .value("output", "DIR", "write the files here (created if missing; default: the current folder)"),
        .flag("spec", "also write DIR/seed.json, a spec that rebuilds the rows from these files"),
        .timeout,
    ]
    static let discussion = """
        Without --model, the rows are read with the model Core Data cached in the store (Z_MODELCACHE,
        stores from framework 637 on), a note on stderr says so, and seed.json names the store as its model.
        Writes ENTITY.csv (or .json) per concrete entity, rows in Z_PK order: 'pk' (the row's Z_PK), the
        stored attributes (inherited included), one column per to-one relationship (the destination's
        pk), and for ordered one-to-many and many-to-many relationships the destinations' pks joined
        with ';' in order. Dates are ISO 8601 UTC (2010-03-26T04:00:00Z), booleans true/false, binary
        and transformable base64, UUIDs 8-4-4-4-12 text, NULL an empty field (null in JSON).
        With --spec, seed.json rebuilds the store with the same Z_PKs ("primaryKey": "pk"), store UUID
        and app metadata keys; its paths are relative to DIR. DIR is replaced as a whole (a complete
        new folder swapped with it in one step, its other files kept): an export that fails or is
        interrupted, even by SIGKILL, leaves DIR as it was. When DIR is the current folder or holds
        sub-folders, the files are moved in one by one after all were written.
        Prints one line per file written; warnings (values a rebuild cannot reproduce) on stderr.
        """
    static let examples = [
        "coreseed export Outputs/Carriers.sqlite --model Inputs/Carriers.xcdatamodeld --output Backup --spec",
        "coreseed build Backup/seed.json --output Restored.sqlite",
    ]

    static func run(_ arguments: Arguments) throws -> ExitStatus {
        guard let format = StoreExporter.Format(rawValue: arguments.option("format") ?? "csv") else {
            preconditionFailure("--format is a choice: Arguments checked it")
        }
        let store = arguments.positionals[0]
        let modelPath = arguments.option("model") ?? store
        let directory = arguments.option("output") ?? "."
        let versions = try ModelVersions.load(path: modelPath)
        let specModel: String? = arguments.flag("spec") ? relativePath(of: modelPath, from: directory) : nil
        let exporter = StoreExporter(versions: versions, modelVersion: arguments.option("model-version"), timeout: arguments.timeout)
        let result: StoreExporter.Result
        do {
            result = try exporter.export(storeAt: store, to: directory, format: format, entity: arguments.option("entity"),
                                         specModelPath: specModel)
        } catch let error as FileError where error.path == nil {
            // A problem with one of the store's values (a row's archive, an external-storage marker).
            throw FileError(error.kind, path: store, message: error.message)
        }
        if arguments.option("model") == nil { Terminal.error("\(store): note: \(RunOption.ownModelNote)") }
        for warning in result.warnings { Terminal.error("\(store): warning: \(warning)") }
        for file in result.files { try Terminal.out("\(file.path): \(file.rows) rows of \(file.entity)") }
        if let spec = result.specPath { try Terminal.out("\(spec): rebuilds the store with 'coreseed build \(spec)'") }
        return .success
    }

    /// `path` made absolute against the current folder.
    private static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL.path }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path).standardizedFileURL.path
    }

    /// `path` relative to `directory` (where the spec goes: spec paths are relative to the spec's folder),
    /// so the export and the model can move together.
    static func relativePath(of path: String, from directory: String) -> String {
        let target = absolutePath(path).split(separator: "/"), base = absolutePath(directory).split(separator: "/")
        let common = zip(target, base).prefix { $0 == $1 }.count
        let parts = Array(repeating: "..", count: base.count - common) + target.dropFirst(common).map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
