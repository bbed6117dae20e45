import Foundation

/// An open file (a C file descriptor as a named type): every read, write, sync, status and lock of an
/// open file goes through here. A value, not an owner: `close()` ends it. Public for the command line
/// (its terminal writes and report file), which reaches the system through this layer too.
public struct FileDescriptor: Sendable, Equatable {
    /// The C descriptor.
    public let rawValue: Int32

    init(rawValue: Int32) { self.rawValue = rawValue }

    /// The process's standard output (descriptor 1).
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)

    /// The process's standard error (descriptor 2).
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// `open(2)` with `flags` (`O_CLOEXEC` always added) and, when creating, `permissions`.
    public static func open(_ path: FilePath, _ flags: Int32, permissions: mode_t = 0o644) throws(Errno) -> FileDescriptor {
        let descriptor = Foundation.open(path.string, flags | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw Errno.current }
        return FileDescriptor(rawValue: descriptor)
    }

    /// `close(2)`, its failure ignored (a file only read, or one whose bytes are already synced).
    public func close() { _ = Foundation.close(rawValue) }

    /// `close(2)`, its failure thrown (a write the kernel had deferred can fail here). The descriptor
    /// is closed either way.
    func closeChecked() throws(Errno) {
        guard Foundation.close(rawValue) == 0 else { throw Errno.current }
    }

    // SAFETY: the caller's buffer outlives the call; read(2) writes at most `buffer.count` bytes.
    /// `read(2)` into `buffer`: the number of bytes read (0 at the end), retried on `EINTR`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try Errno.retryingInterrupts { Foundation.read(rawValue, buffer.baseAddress, buffer.count) }.get()
    }

    /// `pread(2)` of up to `count` bytes at `offset` into `buffer`: the number read (0 at the end).
    func read(into buffer: inout [UInt8], count: Int, at offset: Int) throws(Errno) -> Int {
        precondition(count <= buffer.count)
        // SAFETY: `count <= buffer.count`, and the pointer is used only inside the closure.
        return try buffer.withUnsafeMutableBytes { bytes in
            Errno.retryingInterrupts { Foundation.pread(rawValue, bytes.baseAddress, count, off_t(offset)) }
        }.get()
    }

    // SAFETY: the caller's buffer outlives the call; pread(2) writes at most `buffer.count` bytes.
    /// `pread(2)` into `buffer` (all of it) from the file's `offset`: the number read (0 at the end).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Errno) -> Int {
        try Errno.retryingInterrupts { Foundation.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }.get()
    }

    // SAFETY: the caller's bytes outlive the call; pwrite(2) only reads `bytes.count` of them.
    /// `pwrite(2)` of `bytes` at `offset`: the number written.
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Errno) -> Int {
        try Errno.retryingInterrupts { Foundation.pwrite(rawValue, bytes.baseAddress, bytes.count, off_t(offset)) }.get()
    }

    // SAFETY: the caller's bytes outlive the call; write(2) only reads the `bytes.count` of them.
    /// All of `bytes` with `write(2)` at the file's offset, again after a partial write or `EINTR`; a
    /// write that writes nothing is `EIO`.
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = try Errno.retryingInterrupts { Foundation.write(rawValue, next, remaining) }.get()
            if written == 0 { throw Errno.ioError }
            next += written
            remaining -= written
        }
    }

    /// `fsync(2)`: the file's bytes reach the disk.
    func sync() throws(Errno) {
        guard Foundation.fsync(rawValue) == 0 else { throw Errno.current }
    }

    /// `fstat(2)`.
    func status() throws(Errno) -> FileStatus {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw Errno.current }
        return FileStatus(info)
    }

    /// `flock(2)`: `LOCK_EX`, `LOCK_SH` or `LOCK_UN`, with `LOCK_NB` not to wait; `EINTR` is not retried
    /// (a caller that waits asleep between tries sees it as "not yet").
    func lock(_ operation: Int32) throws(Errno) {
        guard flock(rawValue, operation) == 0 else { throw Errno.current }
    }
}
