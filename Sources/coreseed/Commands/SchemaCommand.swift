import CoreSeed

/// `coreseed schema MODEL`: the SQL Core Data would run to create a store for the model.
enum SchemaCommand: Command {
    static let name = "schema"
    static let summary = "print the SQL Core Data would run to create a model's store"
    static let arguments: [CommandArgument] = [.required("MODEL", "an .xcdatamodeld, .xcdatamodel, 'contents', .momd, .mom, or a store (its Z_MODELCACHE)")]
    static let options: [CommandOption] = [
        .value("model-version", "NAME", "use this version (with or without .xcdatamodel; default: the current one)"),
        .value("configuration", "NAME", "only this configuration's entities"),
        .count("framework-version", "N", "the Core Data era to write (default: the newest, 1518)"),
    ]
    static let discussion = """
        Prints every CREATE statement, one per line, each ending in ';'. The default is the newest
        Core Data form; --framework-version reproduces an older era: below 637 no Z_MODELCACHE, no
        uniqueness constraints and no index on many-to-many join tables, below 836 legacy index names
        and inline UNIQUE constraints (docs/LAYOUT.md lists the eras).
        """
    static let examples = ["coreseed schema Inputs/Carriers.xcdatamodeld --framework-version 637"]

    static func run(_ arguments: Arguments) throws -> ExitStatus {
        let framework = arguments.count("framework-version", default: FrameworkVersion.newest.rawValue)
        let model = try ModelVersions.load(path: arguments.positionals[0]).version(named: arguments.option("model-version"))
        let layout = try StoreLayout(model: model, configuration: arguments.option("configuration"),
                                     framework: FrameworkVersion(framework))
        for statement in layout.statements { try Terminal.out(statement + ";") }
        return .success
    }
}
