import CoreSeed

/// `coreseed verify STORE --model MODEL`: does this store match this model?
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "check a store against a model (hashes, schema, keys, integrity)"
    static let usage = """
        Usage: coreseed verify STORE --model MODEL [--configuration NAME] [--json]

        Says which version of the model wrote the store (its version hashes match), then checks the
        schema, Z_PRIMARYKEY, Z_ENT values, dangling keys, metadata keys and PRAGMA integrity_check.
        Exit 0 when the store matches, 1 with one line per difference. The store is read from a
        private copy: a WAL store and its -wal file are never modified.

        Example: coreseed verify Outputs/FailedBanksCD.sqlite --model Inputs/FailedBanksCD.xcdatamodeld
        """

    static func run(_ words: [String]) throws -> ExitStatus {
        let arguments = try Arguments(words, options: ["model", "configuration"], flags: ["json"])
        try arguments.requirePositionals(["STORE"])
        guard let modelPath = arguments.option("model") else { throw Arguments.UsageError(message: "missing --model MODEL") }
        let store = arguments.positionals[0]
        let versions = try ModelVersions.load(path: modelPath)
        let report = try StoreVerifier(versions: versions, configuration: arguments.option("configuration")).verify(storeAt: store)
        if arguments.flag("json") {
            var json = JSONWriter()
            json.object { json in
                json.field("store", store)
                json.field("ok", report.isMatch)
                json.field("modelVersion", report.matchedVersion)
                json.field("frameworkVersion", report.frameworkVersion)
                json.field("differences", report.differences)
                json.field("notes", report.notes)
            }
            Terminal.out(json.text)
        } else {
            if let version = report.matchedVersion {
                Terminal.out("\(store): written by model version '\(version)' (framework \(report.frameworkVersion.map(String.init) ?? "?"))")
            }
            for note in report.notes { Terminal.out("\(store): note: \(note)") }
            for difference in report.differences { Terminal.error("\(store): error: \(difference)") }
            if report.isMatch { Terminal.out("\(store): OK") }
        }
        return report.isMatch ? .success : .failure
    }
}
