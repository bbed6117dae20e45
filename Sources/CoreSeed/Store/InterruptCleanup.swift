import Foundation
import Synchronization

/// Removes temporary files when the process is interrupted (SIGINT, SIGTERM), so an aborted command
/// leaves nothing behind: the store a build is writing, the copy a backup is writing, a private copy of
/// a store being read in `$TMPDIR` (`StoreSnapshot`). A SIGKILL cannot be caught: the next build removes
/// the dead build's temporary file instead (`StoreInstall.removeStaleScratch`).
///
/// Each registration is a list of files and then folders, kept as C strings that the signal handler
/// can use without allocating; several can be registered at once (a backup's copy and the private copy
/// it reads from).
public enum InterruptCleanup {
    /// What one `register` call added; pass it to `unregister` once the files are gone or kept.
    public struct Registration: Sendable, Hashable {
        let slot: Int
    }

    /// The most registrations at one time.
    static let capacity = 16

    /// One entry per slot: nil, or a block of NUL-terminated paths ending with an empty string; a path
    /// that ends with "/" is a folder, removed after the files before it.
    /// SAFETY: allocated once, never freed; each slot is an atomic the handler reads without a lock.
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<Atomic<UnsafeMutablePointer<CChar>?>> = {
        let slots = UnsafeMutablePointer<Atomic<UnsafeMutablePointer<CChar>?>>.allocate(capacity: capacity)
        for index in 0..<capacity { (slots + index).initialize(to: Atomic(nil)) }
        return slots
    }()

    /// Set by the handler before it reads a slot: from then on no block is freed, since the handler
    /// may be reading one (the process is about to exit).
    static let interrupted = Atomic<Bool>(false)

    private static let lock = NSLock()

    /// Registers the store at `path` with its `-journal`, `-wal` and `-shm`, and then `folder` (when given,
    /// removed once empty), for removal if the process is interrupted.
    static func register(store path: String, folder: String? = nil) -> Registration {
        register(files: StoreLocations.files(ofStoreAt: path), folders: folder.map { [$0] } ?? [])
    }

    /// Registers `files` and then `folders` (removed once empty) for removal if the process is interrupted.
    static func register(files: [String], folders: [String] = []) -> Registration {
        var bytes: [UInt8] = []
        for path in files where !path.isEmpty { bytes += Array(path.utf8) + [0] }
        for path in folders where !path.isEmpty { bytes += Array(path.utf8) + (path.hasSuffix("/") ? [0] : [UInt8(ascii: "/"), 0]) }
        bytes.append(0)
        // SAFETY: the block is owned by its slot until `unregister` frees it; the copy is made inside
        // the closure from a non-empty array (it ends with a 0).
        let block = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { source in
            source.withMemoryRebound(to: CChar.self) { block.initialize(from: $0.baseAddress!, count: bytes.count) }
        }
        return lock.withLock {
            guard let free = (0..<capacity).first(where: { slots[$0].load(ordering: .sequentiallyConsistent) == nil }) else {
                preconditionFailure("more than \(capacity) temporary files registered for interrupt cleanup")
            }
            slots[free].store(block, ordering: .sequentiallyConsistent)
            return Registration(slot: free)
        }
    }

    /// Forgets a registration (its files were removed, or are kept).
    static func unregister(_ registration: Registration) {
        let block = lock.withLock { slots[registration.slot].exchange(nil, ordering: .sequentiallyConsistent) }
        // SAFETY: the slot was emptied before this load: a handler that has not set `interrupted` yet
        // will find it empty, and one that has may be reading the block, which is then never freed.
        if !interrupted.load(ordering: .sequentiallyConsistent) { block?.deallocate() }
    }

    /// Installs the handlers (`signal(2)`) and unblocks SIGINT and SIGTERM in the calling thread, which a
    /// parent may have left blocked (they would then never arrive); the CLI calls this once at start.
    public static func installHandlers() {
        _ = slots  // set up now, not lazily inside the handler
        signal(SIGINT, interruptHandler)
        signal(SIGTERM, interruptHandler)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// Async-signal-safe: only `unlink`, `rmdir` and `_exit`, over memory that was set up beforehand.
private let interruptHandler: @convention(c) (Int32) -> Void = { signalNumber in
    InterruptCleanup.interrupted.store(true, ordering: .sequentiallyConsistent)
    for slot in 0..<InterruptCleanup.capacity {
        // SAFETY: a block read here is not freed any more (`interrupted` is set); lock-free atomics only.
        guard var path = InterruptCleanup.slots[slot].load(ordering: .sequentiallyConsistent) else { continue }
        while path.pointee != 0 {
            let length = strlen(path)
            if path[length - 1] == CChar(UInt8(ascii: "/")) {
                rmdir(path)
            } else {
                unlink(path)
            }
            path += length + 1
        }
    }
    _exit(128 + signalNumber)
}
