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
}
