/// An error the command line prints as compiler-style lines (`path:line:column: error: …`).
public protocol Diagnosable: Error {
    /// One line per problem, then any `note:` lines.
    var diagnosticLines: [String] { get }
    /// The process exit status this error maps to (1 data, 64 usage, 66 input missing, 73 cannot create output).
    var exitCode: Int32 { get }
}

extension Diagnosable {
    public var exitCode: Int32 { 1 }
}
