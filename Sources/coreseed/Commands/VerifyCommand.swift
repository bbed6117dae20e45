import CoreSeed

/// `coreseed verify STORE [--model MODEL]`: does this store match this model (or its own cached one)?
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "check a store against a model: hashes, schema, keys, integrity"
    static let arguments: [CommandArgument] = [.required("STORE", "the store to check (never modified)")]
    static let options: [CommandOption] = [
        .value("model", "MODEL", "the model: .xcdatamodeld, .xcdatamodel, 'contents', .momd, .mom or a store (default: the store's own, Z_MODELCACHE)"),
        .value("configuration", "NAME", "check only this configuration's entities"),
        .flag("strict", "fail on warnings too"),
        .flag("cloudkit", "also fail on what keeps the model's entities from syncing with CloudKit"),
        .flag("json", "print the result as one JSON object (keys above)"),
        .timeout,
    ]
    static let discussion = """
        Without --model, the store is checked against the model Core Data cached in it (Z_MODELCACHE,
        stores from framework 637 on), and a note says so.
        Says which version of the model wrote the store (its version hashes match), then checks the
        schema, Z_PRIMARYKEY, Z_ENT values, dangling keys, persistent history (when the store has
        its tables: changes of stored transactions and model entities, strings that resolve, keys not
        above Z_MAX), metadata keys and PRAGMA integrity_check.
        What Core Data addresses at run time must agree: entity numbers and names, tables, column
        names and types, join tables, hashes. History of a store migrated in place (quoted renamed
        tables, ADD COLUMN text, stale indexes, renaming identifiers) is a note; what Core Data
        tolerates (dangling keys, NSStoreModelVersionIdentifiers) a warning. Values are checked in the
        form Core Data reads: UUIDs 16-byte BLOBs, dates and numbers numeric, integers INTEGER,
        Transformables (Foundation's transformers) NSKeyedArchiver archives, external-storage
        binaries marked and their files present as regular files; each difference names the column
        and rows (Z_PK).
        Exit 0 when the store matches, 1 with one line per difference (--strict: warnings too).
        The store is read through SQLite, read-only, in one read transaction (a live store is seen as
        one committed state; a locked one is waited for, then refused); it is never modified.

        --cloudkit adds a difference for each obstacle to NSPersistentCloudKitContainer in the entities
        checked (the configuration's, or all): unique constraints, ordered relationships, a relationship
        that is required, has no inverse, has the Deny rule or leads outside the configuration, an
        attribute that is Undefined, ObjectID, or neither optional nor with a default. A seed kept in a
        local configuration need not pass; the configuration that syncs must (docs/APP.md).

        --json prints {"store", "ok", "modelVersion", "frameworkVersion", "differences", "warnings",
        "notes"}.
        """
    static let examples = ["coreseed verify Outputs/FailedBanksCD.sqlite --model Inputs/FailedBanksCD.xcdatamodeld",
                           "coreseed verify default.store",
                           "coreseed verify User.sqlite --model Model.xcdatamodeld --configuration User --cloudkit"]

    static func run(_ arguments: Arguments) throws -> ExitStatus {
        let store = arguments.positionals[0]
        let strict = arguments.flag("strict")
        let versions = try ModelVersions.load(path: arguments.option("model") ?? store)
        var report = try StoreVerifier(versions: versions, configuration: arguments.option("configuration"), timeout: arguments.timeout).verify(storeAt: store)
        if arguments.option("model") == nil { report.notes.insert(RunOption.ownModelNote, at: 0) }
        if arguments.flag("cloudkit") {
            let model = (try? versions.version(named: report.matchedVersion)) ?? versions.current
            report.differences += CloudKitCompatibility.problems(in: model, configuration: arguments.option("configuration")).map { "cloudkit: \($0)" }
        }
        if arguments.flag("json") {
            var json = JSONWriter()
            json.object { json in
                json.field("store", store)
                json.field("ok", report.passes(strict: strict))
                json.field("modelVersion", report.matchedVersion)
                json.field("frameworkVersion", report.frameworkVersion)
                json.field("differences", report.differences)
                json.field("warnings", report.warnings)
                json.field("notes", report.notes)
            }
            try Terminal.out(json.text)
        } else {
            if let version = report.matchedVersion {
                try Terminal.out("\(store): written by model version '\(version)' (framework \(report.frameworkVersion.map(String.init) ?? "?"))")
            }
            for note in report.notes { try Terminal.out("\(store): note: \(note)") }
            for warning in report.warnings { Terminal.error("\(store): warning: \(warning)") }
            for difference in report.differences { Terminal.error("\(store): error: \(difference)") }
            if report.passes(strict: strict) { try Terminal.out("\(store): OK") }
        }
        return report.passes(strict: strict) ? .success : .failure
    }
}
