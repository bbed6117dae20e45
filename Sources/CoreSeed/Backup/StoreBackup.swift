import Foundation

/// `coreseed backup`: a consistent single-file copy of a store that may be live (an app writing to it in
/// WAL or rollback-journal mode), made with SQLite's online backup API — never a file copy of a live
/// store — checked, and renamed into place.
///
/// The source is read through a `StoreSnapshot`: in place read-only, in one read transaction that
/// honours other processes' locks (a live store, WAL or rollback journal, `-journal` present or not),
/// so the copy is of one committed state; or, for a WAL store that no process has open, in place
/// immutable (checked unchanged) or from a private copy in `$TMPDIR` (its `-wal` holds content but it has
/// no `-shm`). A lock held by another process is waited for up to `timeout`, asleep, then "in use by
/// another process". The source and its sidecars are never written.
public enum StoreBackup {
    /// How the source was read.
    public enum Route: Sendable, Equatable {
        /// In place, through SQLite (`StoreSnapshot.Route.locked` or `.closedInPlace`).
        case inPlace
        /// From a private copy of the store and its `-wal` (`StoreSnapshot.Route.privateCopy`).
        case snapshot(reason: String)
    }

    /// What a backup did.
    public struct Result: Sendable, Equatable {
        public let route: Route
        /// Size of the finished copy in bytes.
        public let size: Int
    }

    /// Copies `source` into a new single-file store at `destination` (rollback journal, no sidecars).
    /// `timeout`: how long a lock that another process holds on the source is waited for.
    public static func backup(from source: String, to destination: String,
                              timeout: Duration = StoreSnapshot.defaultTimeout) throws -> Result {
        let manager = FileManager.default
        guard manager.fileExists(atPath: source) else { throw FileError(.unreadableInput, path: source, message: "no store at this path") }
        _ = try StoreFileHeader(path: source)
        let sourceURL = URL(fileURLWithPath: source).resolvingSymlinksInPath().standardizedFileURL
        let destinationURL = URL(fileURLWithPath: destination).resolvingSymlinksInPath().standardizedFileURL
        if sourceURL.path == destinationURL.path {
            throw FileError(.badRequest, path: destination, message: "the copy cannot replace the store it copies")
        }

        // The copy must not share the source's support folder (`Store.sqlite` → `Store.bak`), whose files
        // its clean-up would otherwise take for its own.
        try ExternalDataFolder.refuseSharedSupportFolder(destinationURL.path)
        // A second backup or update onto the same store waits for this one; taken before the copy starts,
        // so the store that is replaced is the one checked below.
        let lock = try StoreLock.acquire(destinationURL.path, timeout: timeout)
        let temporary = StoreLocations(destinationURL.path).temporary
        let cleanup = try StoreInstall.prepare(temporary: temporary, besides: destination, reportedAs: destination)
        defer {
            StoreInstall.removeStore(at: temporary)
            InterruptCleanup.unregister(cleanup)
        }

        let route = try StoreSnapshot.read(path: source, timeout: timeout) { snapshot in
            StoreInstall.removeStore(at: temporary)
            try copy(snapshot.database, into: temporary, destination: destination, source: source, timeout: timeout)
            return snapshot.route
        }

        let size = (try? manager.attributesOfItem(atPath: temporary)[.size] as? Int) ?? 0
        // External-storage values live in files beside the store (DESIGN §4b.10): the copy gets them all,
        // in place before it is, and the files of a store it replaces go after.
        let external = ExternalDataFolder(targetStore: destination, sourceStore: source)
        let files = external.sourceFolder.map(ExternalDataFolder.files(in:)) ?? []
        // Never replace a store an app has open (its later commits would land in a deleted file), nor one
        // that another process wrote while the copy was made.
        try StoreInstall.install(temporary, over: destination, lock: lock, referenced: files, externalData: external,
                                 keepOwnership: false, what: "the copy", timeout: timeout)
        if case .privateCopy(let reason) = route { return Result(route: .snapshot(reason: reason), size: size) }
        return Result(route: .inPlace, size: size)
    }

    /// Runs the backup of `reader` (in its read transaction) into `temporary`, switches the copy to
    /// `journal_mode=DELETE` and checks it.
    private static func copy(_ reader: SQLiteDatabase, into temporary: String, destination: String, source: String,
                             timeout: Duration) throws {
        let copy: SQLiteDatabase
        do {
            copy = try SQLiteDatabase(path: temporary, mode: .readWriteCreate)
        } catch {
            throw FileError(.cannotWriteOutput, path: destination, message: "cannot create the copy: \(error.message)")
        }
        // The destination's errors are about the copy; the source's are the snapshot's to describe.
        if case .failure(let error) = Swift.Result(catching: { () throws(SQLiteError) in try reader.backup(into: copy, timeout: timeout) }) {
            if error.path == temporary {
                throw FileError(.cannotWriteOutput, path: destination, message: "cannot write the copy: \(error.description)")
            }
            throw error
        }
        let mode = try copy.scalar("PRAGMA journal_mode = DELETE")
        guard mode == .text("delete") else {
            throw FileError(path: temporary, message: "the copy cannot leave WAL mode (journal_mode is \(String(describing: mode)))")
        }
        let integrity = try copy.rows("PRAGMA integrity_check").compactMap { row -> String? in
            if case .text(let text) = row.first { return text }
            return nil
        }
        guard integrity == ["ok"] else {
            throw FileError(path: source, message: "the copy fails PRAGMA integrity_check: " + integrity.joined(separator: "; "))
        }
    }
}
