import CoreSeed

/// `coreseed inspect STORE`: what is in a store, without a model.
enum InspectCommand: Command {
    static let name = "inspect"
    static let summary = "print a store's metadata, entities with row counts, journal mode and sidecars"
    static let arguments: [CommandArgument] = [.required("STORE", "the store to read (never opened or changed in place)")]
    static let options: [CommandOption] = [
        .flag("json", "print the same facts as one JSON object (keys above)"),
        .timeout,
    ]
    static let discussion = """
        Prints one fact per line: store, uuid, journal mode (from the file header: rollback or wal),
        page size, auto_vacuum, each sidecar file ('sidecar: NAME (N bytes)' or 'sidecars: none'), the
        folder of external-storage values when there is one ('external data: FOLDER (N files, B bytes)'),
        persistent history ('persistent history: N transactions, M changes' or 'not tracked'),
        every metadata key ('metadata KEY: VALUE', values as JSON; one line per version hash), then
        'entity Z_ENT NAME super Z_SUPER max Z_MAX rows N' per Z_PRIMARYKEY row (N counts rows of exactly
        that entity), and last 'coreseed: VERSION', the version of coreseed that read it. The store is
        read through SQLite, read-only, in one read transaction; it and its -wal/-shm are never changed.

        --json prints {"store", "uuid", "journalMode", "pageSize", "autoVacuum",
        "sidecars": [{"name", "size"}], "externalData": {"folder", "files", "bytes"} or null, "metadata": {…}, "entities": [{"number", "name", "super", "max",
        "rows"}], "coreseed": "VERSION"}.
        """
    static let examples = ["coreseed inspect Outputs/Carriers.sqlite"]

    static func run(_ arguments: Arguments) throws -> ExitStatus {
        let inspection = try StoreInspection(path: arguments.positionals[0], timeout: arguments.timeout)
        try Terminal.out(arguments.flag("json") ? inspection.json : inspection.lines.joined(separator: "\n"))
        return .success
    }
}
