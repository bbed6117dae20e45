import Foundation

/// A store's file and its sidecars as they are on disk (`stat(2)`): which exist, how large, when last
/// changed. Two equal looks taken before and after a read mean that no process wrote to the files
/// in between.
struct StoreFiles: Equatable {
    /// One file: identity, size, and modification and status-change times (nanoseconds).
    struct Status: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int
        let modified: Int64
        let changed: Int64
    }

    let store: Status?
    let wal: Status?
    let shm: Status?
    let journal: Status?

    /// Looks at the store at `path` and its `-wal`, `-shm` and `-journal`.
    init(_ path: String) {
        store = StoreFiles.status(path)
        wal = StoreFiles.status(StoreLocations.sidecar(.wal, of: path))
        shm = StoreFiles.status(StoreLocations.sidecar(.shm, of: path))
        journal = StoreFiles.status(StoreLocations.sidecar(.journal, of: path))
    }

    /// The sidecars that exist, with their sizes, named after `path`'s last component.
    func sidecars(of path: String) -> [(name: String, size: Int)] {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let sidecars: [(StoreLocations.Sidecar, Status?)] = [(.wal, wal), (.shm, shm), (.journal, journal)]
        return sidecars.compactMap { sidecar, status in
            status.map { (StoreLocations.sidecar(sidecar, of: name), $0.size) }
        }
    }

    /// Whether the `-wal` can hold committed frames: it exists and is longer than its 32-byte header.
    var walHasFrames: Bool { (wal?.size ?? 0) > 32 }

    static func status(_ path: String) -> Status? {
        guard let info = try? FileSystem.status(FilePath(path)) else { return nil }
        let modified = Int64(info.modified.seconds) * 1_000_000_000 + Int64(info.modified.nanoseconds)
        let changed = Int64(info.changed.seconds) * 1_000_000_000 + Int64(info.changed.nanoseconds)
        return Status(device: info.device, inode: info.inode, size: info.size, modified: modified, changed: changed)
    }
}
