import Foundation

/// What `stat(2)` says of a file, in Swift integers.
struct FileStatus: Sendable, Equatable {
    let device: UInt64
    let inode: UInt64
    let mode: mode_t
    let size: Int
    let user: uid_t
    let group: gid_t
    /// Modification and status-change times, seconds and nanoseconds since 1970.
    let modified: (seconds: Int, nanoseconds: Int)
    let changed: (seconds: Int, nanoseconds: Int)

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        mode = info.st_mode
        size = Int(info.st_size)
        user = info.st_uid
        group = info.st_gid
        #if canImport(Darwin)
        modified = (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
        changed = (Int(info.st_ctimespec.tv_sec), Int(info.st_ctimespec.tv_nsec))
        #else
        modified = (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
        changed = (Int(info.st_ctim.tv_sec), Int(info.st_ctim.tv_nsec))
        #endif
    }

    var isRegularFile: Bool { mode & S_IFMT == S_IFREG }
    var isDirectory: Bool { mode & S_IFMT == S_IFDIR }
    var isSymbolicLink: Bool { mode & S_IFMT == S_IFLNK }

    /// The same file as `other` (device and inode).
    func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }

    static func == (a: FileStatus, b: FileStatus) -> Bool {
        a.device == b.device && a.inode == b.inode && a.mode == b.mode && a.size == b.size && a.user == b.user
            && a.group == b.group && a.modified == b.modified && a.changed == b.changed
    }
}
