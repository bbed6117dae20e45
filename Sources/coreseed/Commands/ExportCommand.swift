import CoreSeed
import Foundation

/// `coreseed export STORE --model MODEL`: rows back out as CSV or JSON, and a spec that rebuilds them.
enum ExportCommand: Command {
    static let name = "export"
    static let summary = "reads rows back as CSV or JSON; --spec also writes a spec that rebuilds the store"
    static let usage = """
        Usage: coreseed export STORE --model MODEL [--entity NAME] [--format csv|json] [--output DIR]
                               [--spec] [--model-version NAME]

          --model MODEL          the store's model (.xcdatamodeld, .xcdatamodel or 'contents')
          --model-version NAME   read with this version; default: the one whose hashes match the store
          --entity NAME          only this entity (and its sub-entities)
          --format csv|json      csv (default): RFC 4180 with a header line; json: an array of objects
          --output DIR           where the files go (created if missing); default: the current folder
          --spec                 also write DIR/seed.json, which 'coreseed build' runs to rebuild the rows (CSV only)

        Writes ENTITY.csv (or .json) per concrete entity, rows in Z_PK order: 'pk' (the row's Z_PK), the
        stored attributes (inherited included), one column per to-one relationship (the destination's
        pk), and for ordered one-to-many and many-to-many relationships the destinations' pks joined
        with ';' in order. Dates are ISO 8601 UTC (2010-03-26T04:00:00Z), booleans true/false, binary
        and transformable base64, UUIDs 8-4-4-4-12 text, NULL an empty field (null in JSON).
        Prints one line per file written; warnings (values a rebuild cannot reproduce) on stderr.

        Example:
          coreseed export Outputs/Carriers.sqlite --model Inputs/Carriers.xcdatamodeld --output Backup --spec
          coreseed build Backup/seed.json --output Restored.sqlite
        """

    static func run(_ words: [String]) throws -> ExitStatus {
        let arguments = try Arguments(words, options: ["model", "model-version", "entity", "format", "output"], flags: ["spec"])
        try arguments.requirePositionals(["STORE"])
        guard let modelPath = arguments.option("model") else { throw Arguments.UsageError(message: "missing --model MODEL") }
        let formatName = arguments.option("format") ?? "csv"
        guard let format = StoreExporter.Format(rawValue: formatName) else {
            throw Arguments.UsageError(message: "--format must be csv or json, got '\(formatName)'")
        }
        if arguments.flag("spec"), format != .csv {
            throw Arguments.UsageError(message: "--spec needs --format csv: the build reads CSV, XML and SQLite sources, not JSON")
        }
        let store = arguments.positionals[0]
        let directory = arguments.option("output") ?? "."
        let versions = try ModelVersions.load(path: modelPath)
        let specModel: String? = arguments.flag("spec") ? absolutePath(modelPath) : nil
        let exporter = StoreExporter(versions: versions, modelVersion: arguments.option("model-version"))
        let result = try exporter.export(storeAt: store, to: directory, format: format, entity: arguments.option("entity"),
                                         specModelPath: specModel)
        for warning in result.warnings { Terminal.error("\(store): warning: \(warning)") }
        for file in result.files { Terminal.out("\(file.path): \(file.rows) rows of \(file.entity)") }
        if let spec = result.specPath { Terminal.out("\(spec): rebuilds the store with 'coreseed build \(spec)'") }
        return .success
    }

    /// `path` made absolute against the current folder, so the spec finds the model from anywhere.
    private static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL.path }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path).standardizedFileURL.path
    }
}
