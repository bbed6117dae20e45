import Foundation
import CoreSeed
import Synchronization

/// Where the CLI writes: results to stdout, diagnostics to stderr, every write checked.
///
/// A write to stdout that fails (a full device, a closed pipe: SIGPIPE is ignored, so it is EPIPE)
/// throws ``WriteError``, which the command line prints as one line on stderr and turns into exit 74.
/// A write to stderr that fails cannot be reported; it is remembered (``stderrFailed``) and a run that
/// would have exited 0 exits 74.
enum Terminal {
    /// A write to stdout that failed.
    struct WriteError: Error {
        /// What the output was written to: `standard output`, with its path when it is a file.
        let destination: String
        let errorNumber: Int32

        /// `error: cannot write to standard output (/dev/full): No space left on device`.
        var message: String {
            "error: cannot write to \(destination): \(Errno(rawValue: errorNumber).description)"
        }
    }

    private static let stderrFailure = Atomic<Bool>(false)

    /// Whether a write to stderr has failed in this run.
    static var stderrFailed: Bool { stderrFailure.load(ordering: .relaxed) }

    /// Writes `text` and a newline to stdout.
    static func out(_ text: String) throws(WriteError) {
        var line = text + "\n"
        // SAFETY: the UTF-8 view is written out before `withUTF8` returns; `line` is a local copy.
        try check(line.withUTF8 { writeAll(.standardOutput, UnsafeRawBufferPointer($0)) })
    }

    /// Writes `bytes` to stdout as they are.
    static func out(_ bytes: [UInt8]) throws(WriteError) {
        // SAFETY: the bytes are written out before `withUnsafeBytes` returns.
        try check(bytes.withUnsafeBytes { writeAll(.standardOutput, $0) })
    }

    private static func check(_ errorNumber: Int32?) throws(WriteError) {
        if let errorNumber {
            throw WriteError(destination: describe(.standardOutput, as: "standard output"), errorNumber: errorNumber)
        }
    }

    /// Writes `text` and a newline to stderr; a failure is remembered, not thrown.
    static func error(_ text: String) {
        var line = text + "\n"
        // SAFETY: the UTF-8 view is written out before `withUTF8` returns; `line` is a local copy.
        if line.withUTF8({ writeAll(.standardError, UnsafeRawBufferPointer($0)) }) != nil {
            stderrFailure.store(true, ordering: .relaxed)
        }
    }

    /// True when stderr is a terminal (progress lines, colour).
    static var stderrIsTTY: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes all of `bytes` to `descriptor` (`FileDescriptor.writeAll`: again after a partial write or
    /// EINTR). Returns nil, or the `errno` of the write that failed.
    /// SAFETY: reads `bytes` only during the call (each caller passes its `withUTF8`/`withUnsafeBytes` view).
    static func writeAll(_ descriptor: FileDescriptor, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        do throws(Errno) { try descriptor.writeAll(bytes); return nil } catch { return error.rawValue }
    }

    /// `name`, followed by the file's path when the descriptor is one (Linux: `/proc/self/fd`).
    private static func describe(_ descriptor: FileDescriptor, as name: String) -> String {
        #if os(Linux)
        if let target = try? FileSystem.symbolicLinkTarget(FilePath("/proc/self/fd/\(descriptor.rawValue)")),
           target.string.hasPrefix("/") {
            return "\(name) (\(target.string))"
        }
        #endif
        return name
    }
}

extension Terminal {
    /// Rewrites the progress line on stderr (a TTY only); nil clears it. A failure is ignored: progress
    /// is not output.
    static func progress(_ line: String?) {
        var text = line.map { "\r\u{1B}[K\($0)" } ?? "\r\u{1B}[K"
        // SAFETY: the UTF-8 view is written out before `withUTF8` returns; `text` is a local copy.
        _ = text.withUTF8 { writeAll(.standardError, UnsafeRawBufferPointer($0)) }
    }

    /// Writes a plain progress line to stderr (not a TTY); a failure is ignored.
    static func progress(plain line: String) {
        var text = line + "\n"
        // SAFETY: the UTF-8 view is written out before `withUTF8` returns; `text` is a local copy.
        _ = text.withUTF8 { writeAll(.standardError, UnsafeRawBufferPointer($0)) }
    }
}

extension Terminal {
    /// `path` relative to the current directory when it lies inside it, as the user would type it.
    static func displayPath(_ path: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        return path.hasPrefix(cwd + "/") ? String(path.dropFirst(cwd.count + 1)) : path
    }
}
