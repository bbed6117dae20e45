import CSystem
import Foundation

/// The path-level system calls, one wrapper each; every failure is an `Errno`. The only other places
/// that call the C library for files are `FileDescriptor` and the signal handler (`InterruptCleanup`,
/// which must stay async-signal-safe). Public where the command line needs a call (`remove`,
/// `symbolicLinkTarget`).
public enum FileSystem {
    /// `stat(2)` (follows symbolic links).
    static func status(_ path: FilePath) throws(Errno) -> FileStatus {
        var info = stat()
        guard stat(path.string, &info) == 0 else { throw Errno.current }
        return FileStatus(info)
    }

    /// `lstat(2)` (a symbolic link itself).
    static func linkStatus(_ path: FilePath) throws(Errno) -> FileStatus {
        var info = stat()
        guard lstat(path.string, &info) == 0 else { throw Errno.current }
        return FileStatus(info)
    }

    /// `access(2)` with `R_OK`: whether this process may read `path`.
    static func checkReadable(_ path: FilePath) throws(Errno) {
        guard access(path.string, R_OK) == 0 else { throw Errno.current }
    }

    /// `rename(2)`: `from` takes `to`'s name in one step (same file system).
    static func rename(_ from: FilePath, to: FilePath) throws(Errno) {
        guard Foundation.rename(from.string, to.string) == 0 else { throw Errno.current }
    }

    /// `renameat2(RENAME_EXCHANGE)` (Linux) or `renamex_np(RENAME_SWAP)` (macOS), through the CSystem shim:
    /// two existing paths swap in one step.
    static func exchange(_ first: FilePath, _ second: FilePath) throws(Errno) {
        guard coreseed_rename_exchange(first.string, second.string) == 0 else { throw Errno.current }
    }

    /// `link(2)`: `to` becomes a second name of the file `from` (same file system).
    static func hardLink(_ from: FilePath, to: FilePath) throws(Errno) {
        guard link(from.string, to.string) == 0 else { throw Errno.current }
    }

    /// `readlink(2)`: what the symbolic link `path` points to, as written in the link (up to 4095 bytes).
    public static func symbolicLinkTarget(_ path: FilePath) throws(Errno) -> FilePath {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path.string, &buffer, buffer.count - 1)
        guard count >= 0 else { throw Errno.current }
        return FilePath(String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// `unlink(2)`; a file that is not there is no failure here.
    public static func remove(_ path: FilePath) {
        _ = unlink(path.string)
    }

    /// `rmdir(2)`: removes `path` when it is an empty folder; otherwise nothing happens.
    static func removeEmptyFolder(_ path: FilePath) {
        _ = rmdir(path.string)
    }

    /// `mkdir(2)` of one folder.
    static func makeFolder(_ path: FilePath, permissions: mode_t = 0o755) throws(Errno) {
        guard mkdir(path.string, permissions) == 0 else { throw Errno.current }
    }

    /// `chmod(2)`.
    static func setPermissions(_ path: FilePath, _ mode: mode_t) {
        _ = chmod(path.string, mode & 0o7777)
    }

    /// `chown(2)`, tried only by the superuser (`geteuid(2)` is 0): others cannot give a file away.
    static func setOwnerIfRoot(_ path: FilePath, user: uid_t, group: gid_t) {
        if geteuid() == 0 { _ = chown(path.string, user, group) }
    }

    /// The names in a folder, through `opendir(3)`/`readdir(3)`, without `.` and `..`.
    static func names(in folder: FilePath) throws(Errno) -> [String] {
        guard let directory = opendir(folder.string) else { throw Errno.current }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // SAFETY: d_name is NUL-terminated within its fixed-size array, read before the next readdir.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Whether process `pid` is gone (`kill(2)` with signal 0 fails with `ESRCH`).
    static func processIsGone(_ pid: Int32) -> Bool {
        kill(pid, 0) != 0 && Errno.current == .noSuchProcess
    }

    /// This process's id (`getpid(2)`).
    static var processID: Int32 { getpid() }
}
