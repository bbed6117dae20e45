import Foundation

/// Removes the store being built when the process is interrupted (SIGINT, SIGTERM), so an aborted
/// build leaves nothing behind. A SIGKILL cannot be caught: the next build removes the dead build's
/// temporary file instead (`StoreWriter.removeStaleTemporaryFiles`).
public enum InterruptCleanup {
    /// The temporary store in progress, as a C string the signal handler can use without allocating.
    nonisolated(unsafe) static var current: UnsafeMutablePointer<CChar>?

    static func register(_ path: String) {
        let old = current
        current = strdup(path)
        free(old)
    }

    static func clear() {
        let old = current
        current = nil
        free(old)
    }

    /// Installs the handlers (`signal(2)`); the CLI calls this once at start.
    public static func installHandlers() {
        signal(SIGINT, interruptHandler)
        signal(SIGTERM, interruptHandler)
    }
}

/// Async-signal-safe: only `unlink` and `_exit`.
private let interruptHandler: @convention(c) (Int32) -> Void = { signalNumber in
    if let path = InterruptCleanup.current { unlink(path) }
    _exit(128 + signalNumber)
}
