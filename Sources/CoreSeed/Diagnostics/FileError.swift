import Foundation

/// A problem with one file — a spec, a model, a store, an output — or with what it asks for: which
/// file (and line) when known, what went wrong, and its kind, from which the command line chooses the
/// exit status. The one error type for everything that is not a source's value (`ReaderError`,
/// `MappingError`).
public struct FileError: Error, Sendable, Equatable, Diagnosable {
    public let kind: FailureKind
    /// The file the problem is in (nil when it is not in one file, e.g. a model's layout).
    public let path: String?
    /// 1-based line in `path`, when known.
    public let line: Int?
    /// 1-based column of `line`, when known.
    public let column: Int?
    public let message: String

    public init(_ kind: FailureKind = .invalid, path: String? = nil, line: Int? = nil, column: Int? = nil, message: String) {
        self.kind = kind
        self.path = path
        self.line = line
        self.column = line == nil ? nil : column
        self.message = message
    }

    /// `path[:line[:column]]`, as the diagnostic's location.
    public var location: String? {
        path.map { $0 + (line.map { ":\($0)" } ?? "") + (column.map { ":\($0)" } ?? "") }
    }

    public var diagnostics: [Diagnostic] { [Diagnostic(.error, at: location, message)] }

    /// What a write that could not grow its file most likely met, said after its error.
    static let fileCannotGrowHint = " (is the disk full, or a file size limit such as ulimit -f reached?)"

    /// What `path` is when it exists and is neither a regular file nor (with `folderAllowed`) a folder:
    /// "a pipe (FIFO)", "a device", "a socket", "a folder", "of an unknown type"; nil otherwise (a
    /// missing path too: its reader says so in its own words). `stat(2)`, so a link is followed.
    public static func irregularKind(_ path: String, folderAllowed: Bool = false) -> String? {
        guard let info = try? FileSystem.status(FilePath(path)) else { return nil }
        let type = info.mode & S_IFMT
        if type == S_IFREG || (folderAllowed && type == S_IFDIR) { return nil }
        switch type {
        case S_IFIFO: return "a pipe (FIFO)"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a folder"
        default: return "of an unknown type"
        }
    }

    /// Refuses an input that is not a regular file (or, with `folderAllowed`, a folder): a pipe, FIFO,
    /// socket or device. Inputs are read more than once, and a pipe gives its bytes only once (or
    /// blocks until a writer comes). `role` names the input in the message ("the store", "source 's'").
    public static func refuseIrregular(_ path: String, role: String, folderAllowed: Bool = false) throws(FileError) {
        guard let kind = irregularKind(path, folderAllowed: folderAllowed) else { return }
        throw FileError(.unreadableInput, path: path,
                        message: "\(role) is \(kind), not a regular file: coreseed reads its inputs more than once; save it to a file first (for example `cat > input.csv`) and name that file")
    }
}
