import CoreSeed

/// `coreseed model SOURCE --output NAME.xcdatamodeld`: a model's XML source, from any model input.
enum ModelCommand: Command {
    static let name = "model"
    static let summary = "write a model (a store's own, a .momd, a .mom) as an .xcdatamodeld"
    static let arguments: [CommandArgument] = [
        .required("SOURCE", "an .xcdatamodeld, .xcdatamodel, 'contents', .momd, .mom, or a store (its Z_MODELCACHE)"),
    ]
    static let options: [CommandOption] = [
        .value("output", "NAME.xcdatamodeld", "the model folder to write (must not exist)", required: true),
        .value("model-version", "NAME", "write only this version (default: every version of the source)"),
    ]
    static let discussion = """
        Writes the model source Xcode keeps: one NAME.xcdatamodel/contents per version and
        .xccurrentversion naming the source's current version, so a SwiftData app's store or a shipped
        .momd becomes a model to keep in git and name in a spec. Its hashes and schema are the
        source's. What a model file cannot hold (a fetched property's request, a validation predicate
        other than a minimum and maximum, an archived app object as a default) is named on stderr,
        one warning each. The folder is written whole or not at all.
        """
    static let examples = ["coreseed model default.store --output Model.xcdatamodeld"]

    static func run(_ arguments: Arguments) throws -> ExitStatus {
        guard let output = arguments.option("output") else { preconditionFailure("--output is required: Arguments checked it") }
        let source = arguments.positionals[0]
        let versions = try ModelVersions.load(path: source)
        let models = try arguments.option("model-version").map { name throws(FileError) in [try versions.version(named: name)] } ?? versions.versions
        let current = models.count == 1 ? models[0].versionName : versions.currentVersionName
        let lost = try ModelWriter.writeBundle(models, current: current, to: output)
        for part in lost { Terminal.error("\(output): warning: not written (a model file cannot hold it): \(part)") }
        try Terminal.out("\(output): \(models.count) version\(models.count == 1 ? "" : "s") of \(source) (current: \(current))")
        return .success
    }
}
