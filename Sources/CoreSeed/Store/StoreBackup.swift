import Foundation

/// `coreseed backup`: a consistent single-file copy of a store that may be in WAL mode and open by
/// another process, made with SQLite's online backup API (not a file copy), checked, and renamed into place.
///
/// How the source is read (the source and its sidecars are never written):
/// - **In place, read-only** (`mode=ro`) when that creates nothing beside it: a rollback-journal store
///   with no `-journal`, or a WAL store whose `-wal` and `-shm` both exist (and the `-shm` is writable).
///   This is preferred because a live writer's committed transactions are then seen consistently through
///   the shared `-shm` index. As in every WAL reader, SQLite takes its read locks and read marks in the
///   `-shm`; the store file and the `-wal` are only read.
/// - **From a `StoreSnapshot`** (a private copy of the store and its `-wal`) otherwise: a WAL store with
///   no `-shm` (opening it would create one beside it), a hot `-journal` (a read-only connection cannot
///   roll it back), or when the in-place read fails (e.g. a read-only folder). A writer that commits while
///   the files are copied can make this copy miss its last transaction, never half of one: SQLite reads
///   only complete, checksummed WAL frames.
public enum StoreBackup {
    /// How the source was read.
    public enum Route: Sendable, Equatable {
        case inPlace
        case snapshot(reason: String)
    }

    /// What a backup did.
    public struct Result: Sendable, Equatable {
        public let route: Route
        /// Size of the finished copy in bytes.
        public let size: Int
    }

    /// Copies `source` into a new single-file store at `destination` (rollback journal, no sidecars).
    public static func backup(from source: String, to destination: String) throws -> Result {
        let manager = FileManager.default
        guard manager.fileExists(atPath: source) else { throw FileError(.unreadableInput, path: source, message: "no store at this path") }
        let header = try StoreFileHeader(path: source)
        let sourceURL = URL(fileURLWithPath: source).resolvingSymlinksInPath().standardizedFileURL
        let destinationURL = URL(fileURLWithPath: destination).resolvingSymlinksInPath().standardizedFileURL
        if sourceURL.path == destinationURL.path {
            throw FileError(.badRequest, path: destination, message: "the copy cannot replace the store it copies")
        }

        let directory = destinationURL.deletingLastPathComponent()
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw FileError(.cannotWriteOutput, path: destination, message: "cannot create the output folder: \(error.localizedDescription)")
        }
        let temporary = directory.appendingPathComponent(".\(destinationURL.lastPathComponent).coreseed-\(getpid()).tmp").path
        StoreWriter.removeStaleTemporaryFiles(besides: destination)
        StoreWriter.removeFiles(at: temporary)
        let cleanup = InterruptCleanup.register(store: temporary)
        defer {
            StoreWriter.removeFiles(at: temporary)
            InterruptCleanup.unregister(cleanup)
        }

        var route = plannedRoute(source, header: header)
        do {
            try copy(source, route: route, into: temporary)
        } catch let error as SQLiteError where route == .inPlace {
            route = .snapshot(reason: "reading in place failed (\(error.message))")
            StoreWriter.removeFiles(at: temporary)
            try copy(source, route: route, into: temporary)
        }

        let descriptor = open(temporary, O_RDONLY)
        if descriptor >= 0 { fsync(descriptor); close(descriptor) }
        let size = (try? manager.attributesOfItem(atPath: temporary)[.size] as? Int) ?? 0
        guard rename(temporary, destination) == 0 else {
            throw FileError(.cannotWriteOutput, path: destination, message: "cannot move the copy into place: \(String(cString: strerror(errno)))")
        }
        // Sidecars of an older store at the destination would be replayed into the copy: remove them.
        for suffix in ["-wal", "-shm", "-journal"] { unlink(destination + suffix) }
        return Result(route: route, size: size)
    }

    /// In place when a read-only open creates nothing beside the store; otherwise a snapshot.
    static func plannedRoute(_ source: String, header: StoreFileHeader) -> Route {
        let manager = FileManager.default
        let hasWAL = manager.fileExists(atPath: source + "-wal")
        let hasSHM = manager.fileExists(atPath: source + "-shm")
        if header.journalMode == .wal || hasWAL {
            if !hasWAL || !hasSHM {
                return .snapshot(reason: "a read-only open of a WAL store without its \(hasWAL ? "-shm" : "-wal") would create one beside it")
            }
            if access(source + "-shm", R_OK | W_OK) != 0 {
                return .snapshot(reason: "its -shm is not writable")
            }
            return .inPlace
        }
        if manager.fileExists(atPath: source + "-journal") {
            return .snapshot(reason: "it has a -journal, which a read-only connection cannot roll back")
        }
        return .inPlace
    }

    /// Runs the backup into `temporary`, switches it to `journal_mode=DELETE` and checks it.
    private static func copy(_ source: String, route: Route, into temporary: String) throws {
        let snapshot: StoreSnapshot?
        let reader: SQLiteDatabase
        switch route {
        case .inPlace:
            snapshot = nil
            reader = try SQLiteDatabase(path: source, mode: .readOnly(immutable: false))
        case .snapshot:
            snapshot = try StoreSnapshot(path: source)
            reader = snapshot!.database
        }
        let copy: SQLiteDatabase
        do {
            copy = try SQLiteDatabase(path: temporary, mode: .readWriteCreate)
        } catch {
            throw FileError(.cannotWriteOutput, path: temporary, message: "cannot create the copy: \(error.message)")
        }
        try withExtendedLifetime(snapshot) { () throws(SQLiteError) in try reader.backup(into: copy) }
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
