/// How serious a diagnostic is: the word after the location in `path:line:column: error: …`.
public enum Severity: String, Sendable, Equatable {
    case error, warning, note
}

/// One line of a diagnostic: where (when known), how serious, what.
public struct Diagnostic: Sendable, Equatable {
    /// `path`, `path:line`, `path:line:column` or `path:table:rowid`; nil for a line that belongs to the one before.
    public var location: String?
    public var severity: Severity
    public var message: String

    public init(_ severity: Severity, at location: String?, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    /// The line as printed: `location: severity: message`.
    public var text: String { (location.map { "\($0): " } ?? "") + "\(severity.rawValue): \(message)" }
}

/// What kind of failure an error is. The command line alone maps kinds to exit statuses.
public enum FailureKind: Sendable, Equatable {
    /// Bad data or a store that does not match: the input is there but wrong.
    case invalid
    /// An input that is missing or cannot be read.
    case unreadableInput
    /// An output that cannot be created or written.
    case cannotWriteOutput
    /// A request that cannot be carried out as asked (arguments that do not fit together).
    case badRequest
}

/// An error the command line prints as compiler-style lines (`path:line:column: error: …`, then any
/// `note:` lines).
public protocol Diagnosable: Error {
    /// One diagnostic per problem, each followed by its notes.
    var diagnostics: [Diagnostic] { get }
    /// What kind of failure it is (`FailureKind.invalid` unless said otherwise).
    var kind: FailureKind { get }
}

extension Diagnosable {
    public var kind: FailureKind { .invalid }
    /// The diagnostics as printed, one line each.
    public var diagnosticLines: [String] { diagnostics.map(\.text) }
}
