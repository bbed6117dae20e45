import CoreSeed

/// `coreseed schema MODEL`: the SQL Core Data would run to create a store for the model.
enum SchemaCommand: Command {
    static let name = "schema"
    static let summary = "print the SQL Core Data would run to create the store"
    static let usage = """
        Usage: coreseed schema MODEL [--model-version NAME] [--configuration NAME] [--framework-version N]

        Prints every CREATE statement, one per line, each ending in ';'. The default is the newest
        Core Data form; --framework-version reproduces an older era: below 637 no Z_MODELCACHE and no
        uniqueness constraints, below 847 legacy index names and inline UNIQUE constraints
        (docs/LAYOUT.md lists the eras).

        Example: coreseed schema Model.xcdatamodeld --model-version "Model 2" --framework-version 637
        """

    static func run(_ words: [String]) throws -> ExitStatus {
        let arguments = try Arguments(words, options: ["model-version", "configuration", "framework-version"], flags: [])
        try arguments.requirePositionals(["MODEL"])
        let framework = try arguments.integer("framework-version", default: FrameworkVersion.newest.rawValue)
        let model = try ModelVersions.load(path: arguments.positionals[0]).version(named: arguments.option("model-version"))
        let layout = try StoreLayout(model: model, configuration: arguments.option("configuration"),
                                     framework: FrameworkVersion(framework))
        for statement in layout.statements { Terminal.out(statement + ";") }
        return .success
    }
}
