/// A problem reading a source: where it is and what is wrong.
///
/// Printed compiler-style: `file:line:column: error: message`, then an optional `note:` line.
/// The text of every reason is produced in one place, `ReaderError+Messages.swift`.
public struct ReaderError: Diagnosable, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is (file, line and column for text; file and table for SQLite).
    public let location: SourceLocation
    let reason: Reason

    init(_ reason: Reason, at location: SourceLocation) {
        self.reason = reason
        self.location = location
    }

    /// The one-line description of the problem, without location.
    public var message: String { reason.message }
    /// A hint on how to fix it, when there is one.
    public var note: String? { reason.note }

    /// An input that cannot be opened, or bad data.
    public var kind: FailureKind { reason.isMissingInput ? .unreadableInput : .invalid }

    public var diagnostics: [Diagnostic] {
        var lines = [Diagnostic(.error, at: location.description, message)]
        if let note { lines.append(Diagnostic(.note, at: nil, note)) }
        return lines
    }

    public var description: String { diagnosticLines.joined(separator: "\n") }
}
