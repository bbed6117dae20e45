import Foundation

/// A C `errno` value as a named type (swift-system's `Errno` shape): the reason a system call failed.
/// Its `description` is `strerror(3)`'s text, which error messages quote as they always have.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The C value.
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now (read right after the failing call).
    public static var current: Errno { Errno(rawValue: errno) }

    /// `strerror(3)` of the value.
    public var description: String { String(cString: strerror(rawValue)) }

    static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    static let notDirectory = Errno(rawValue: ENOTDIR)
    static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    static let interrupted = Errno(rawValue: EINTR)
    static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    static let noSuchProcess = Errno(rawValue: ESRCH)
    static let invalidArgument = Errno(rawValue: EINVAL)
    static let noFunction = Errno(rawValue: ENOSYS)
    static let ioError = Errno(rawValue: EIO)
    static let badFileDescriptor = Errno(rawValue: EBADF)
    static let noSpace = Errno(rawValue: ENOSPC)
    static let fileTooLarge = Errno(rawValue: EFBIG)
    static let diskQuotaExceeded = Errno(rawValue: EDQUOT)

    /// Runs `body` until it does not fail with `EINTR`; the result, or the call's `Errno`.
    static func retryingInterrupts<T: BinaryInteger>(_ body: () -> T) -> Result<T, Errno> {
        while true {
            let result = body()
            if result >= 0 { return .success(result) }
            let failure = Errno.current
            if failure != .interrupted { return .failure(failure) }
        }
    }
}
