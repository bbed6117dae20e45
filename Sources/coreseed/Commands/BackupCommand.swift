import CoreSeed

/// `coreseed backup SRC DST`: a consistent single-file copy of a (possibly live, WAL-mode) store.
enum BackupCommand: Command {
    static let name = "backup"
    static let summary = "copy a live store into one consistent file, WAL content included"
    static let arguments: [CommandArgument] = [
        .required("SRC", "the store to copy (never written; its -wal content is included)"),
        .required("DST", "where the copy goes (replaced only when the copy is complete and checked)"),
    ]
    static let options: [CommandOption] = [.timeout]
    static let discussion = """
        Copies the store SRC into DST with SQLite's online backup API, committed WAL content included,
        then switches the copy to journal_mode=DELETE (no -wal/-shm beside it), runs PRAGMA
        integrity_check and renames it over DST. SRC and its -wal are never written: it is read in place
        read-only when that creates no file beside it (a WAL store with both -wal and -shm, or a
        rollback store without a -journal), else from a private copy.

        Prints 'DST: N bytes, read SRC in place' or 'DST: N bytes, read a private copy of SRC (REASON)'.
        """
    static let examples = ["coreseed backup ~/Library/Containers/app/Data/Store.sqlite Backups/Store.sqlite"]

    static func run(_ arguments: Arguments) throws -> ExitStatus {
        let (source, destination) = (arguments.positionals[0], arguments.positionals[1])
        let result = try StoreBackup.backup(from: source, to: destination, timeout: arguments.timeout)
        switch result.route {
        case .inPlace:
            try Terminal.out("\(destination): \(result.size) bytes, read \(source) in place")
        case .snapshot(let reason):
            try Terminal.out("\(destination): \(result.size) bytes, read a private copy of \(source) (\(reason))")
        }
        return .success
    }
}
