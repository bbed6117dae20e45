import Foundation

/// The lock a coreseed run that replaces a store holds on it (`build --into`, `backup` onto an existing
/// store): an exclusive `flock` on the store file, taken before the store is read and kept until its
/// replacement is renamed into place, so two runs that update one store run one after the other and
/// neither loses the other's rows. `flock` is separate from SQLite's `fcntl` locks: an app reading or
/// writing the store is not blocked by it (`StoreInstall.refuseIfInUse` deals with apps).
///
/// The file a lock was taken on may have been replaced by the time the lock is granted (the holder
/// renamed its new store over the path): the lock is then taken again on the file the path names now.
/// `changedSince` tells whether the path still names the locked file, unchanged.
public final class StoreLock {
    private let descriptor: FileDescriptor
    private let identity: Snapshot

    /// What identifies one state of a store's file: device, inode, size, modification time, SQLite's
    /// file change counter (header offset 24, which every commit in rollback mode increments), and the
    /// size and header of its `-wal` (-1: none): an app's commits in WAL mode grow it, and a WAL
    /// restarted after a checkpoint gets new salts although its size may stay. The counters catch a
    /// change that keeps the size within one tick of a coarse modification time.
    private struct Snapshot: Equatable {
        let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int, wal: Int64
        let changeCounter: [UInt8], walHeader: [UInt8]

        init(_ info: FileStatus, path: String) {
            wal = (try? FileSystem.status(FilePath(StoreLocations.sidecar(.wal, of: path)))).map { Int64($0.size) } ?? -1
            device = info.device
            inode = info.inode
            size = Int64(info.size)
            seconds = info.modified.seconds
            nanoseconds = info.modified.nanoseconds
            changeCounter = Snapshot.bytes(path, at: 24, count: 4)
            walHeader = wal > 0 ? Snapshot.bytes(StoreLocations.sidecar(.wal, of: path), at: 0, count: 32) : []
        }

        /// `count` bytes of the file at `path` from `offset` (fewer when it is shorter, none when unreadable).
        static func bytes(_ path: String, at offset: Int, count: Int) -> [UInt8] {
            guard let descriptor = try? FileDescriptor.open(FilePath(path), O_RDONLY | O_NONBLOCK) else { return [] }
            defer { descriptor.close() }
            var buffer = [UInt8](repeating: 0, count: count)
            guard let read = try? descriptor.read(into: &buffer, count: count, at: offset), read > 0 else { return [] }
            return Array(buffer.prefix(read))
        }
    }

    private init(descriptor: FileDescriptor, identity: Snapshot) {
        self.descriptor = descriptor
        self.identity = identity
    }

    deinit {
        try? descriptor.lock(LOCK_UN)
        descriptor.close()
    }

    /// Locks the store at `path`, waiting up to `timeout` for another coreseed run that holds it; nil
    /// when there is no file at `path` (nothing to lose). Throws "in use" when the wait runs out.
    public static func acquire(_ path: String, timeout: Duration) throws(FileError) -> StoreLock? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let descriptor: FileDescriptor
            do {
                descriptor = try FileDescriptor.open(FilePath(path), O_RDONLY | O_NONBLOCK)
            } catch {
                if error == .noSuchFileOrDirectory { return nil }
                throw FileError(.cannotWriteOutput, path: path, message: "cannot open the store to lock it: \(error)")
            }
            var failure: Errno?
            while true {
                do { try descriptor.lock(LOCK_EX | LOCK_NB); failure = nil; break } catch { failure = error }
                guard failure == .wouldBlock || failure == .interrupted else { break }
                if ContinuousClock.now >= deadline {
                    descriptor.close()
                    throw FileError(.cannotWriteOutput, path: path,
                                    message: "store in use by another coreseed run (an update or a backup is replacing it): nothing was changed; run again when it has finished, or wait longer with \(RunOption.timeout)")
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            if let failure {
                descriptor.close()
                throw FileError(.cannotWriteOutput, path: path, message: "cannot lock the store: \(failure)")
            }
            if let held = try? descriptor.status(), let named = try? FileSystem.status(FilePath(path)), held.isSameFile(as: named) {
                return StoreLock(descriptor: descriptor, identity: Snapshot(held, path: path))
            }
            // The holder replaced the file before letting go: lock the one the path names now.
            try? descriptor.lock(LOCK_UN)
            descriptor.close()
        }
    }

    /// Refuses to go on when the file at `path` is no longer the one locked, or was written since (an
    /// app or a tool other than coreseed changed the store while this run worked on its copy).
    public func refuseIfChanged(_ path: String) throws(FileError) {
        guard let now = try? FileSystem.status(FilePath(path)), Snapshot(now, path: path) == identity else {
            // A -wal beside a WAL store means a connection has it open: most likely an app writing.
            let open = (try? FileSystem.status(FilePath(StoreLocations.sidecar(.wal, of: path)))) != nil
            throw FileError(.cannotWriteOutput, path: path,
                            message: open ? "store in use by another process (an app wrote it while this run was working on it; its -wal says it has it open): nothing was changed; close the app, then update the store"
                                          : "the store changed while this run was working on it (another process wrote or replaced it): nothing was changed; run again")
        }
    }
}
