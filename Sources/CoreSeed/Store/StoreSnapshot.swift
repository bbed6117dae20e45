import Foundation

/// A private copy of a store (with its `-wal`, if any) in a temporary folder, opened read-write so that
/// SQLite replays the WAL into the copy. The original and its sidecars are never opened or changed.
///
/// Not `Sendable`: it owns an open connection. The folder is removed on deinit.
public final class StoreSnapshot {
    /// The connection to the copy.
    public let database: SQLiteDatabase
    /// The store as the user named it.
    public let originalPath: String
    /// Sidecar files that exist beside the original (`-wal`, `-shm`, `-journal`) and their sizes.
    public let sidecars: [(name: String, size: Int)]
    private let directory: URL

    /// Copies `path` and opens the copy. Throws `FileError` when the file is missing or not a database.
    public init(path: String) throws(FileError) {
        let manager = FileManager.default
        guard manager.fileExists(atPath: path) else { throw FileError(.unreadableInput, path: path, message: "no store at this path") }
        let directory = manager.temporaryDirectory.appendingPathComponent("coreseed-snapshot-\(UUID().uuidString)")
        var found: [(String, Int)] = []
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            let copy = directory.appendingPathComponent("store.sqlite")
            try manager.copyItem(atPath: path, toPath: copy.path)
            for suffix in ["-wal", "-shm", "-journal"] where manager.fileExists(atPath: path + suffix) {
                let size = (try? manager.attributesOfItem(atPath: path + suffix)[.size] as? Int) ?? 0
                found.append((URL(fileURLWithPath: path).lastPathComponent + suffix, size))
                if suffix != "-shm" { try manager.copyItem(atPath: path + suffix, toPath: copy.path + suffix) }
            }
            self.database = try SQLiteDatabase(path: copy.path, mode: .readWrite)
            _ = try database.scalar("SELECT count(*) FROM sqlite_master")
        } catch let error as SQLiteError {
            try? manager.removeItem(at: directory)
            throw FileError(path: path, message: "not a readable SQLite store: \(error.message)")
        } catch {
            try? manager.removeItem(at: directory)
            throw FileError(.unreadableInput, path: path, message: "cannot copy the store: \(error.localizedDescription)")
        }
        self.directory = directory
        self.originalPath = path
        self.sidecars = found
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }
}
