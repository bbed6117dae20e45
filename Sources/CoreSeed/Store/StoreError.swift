/// A store that cannot be opened, read or written: which file and what went wrong.
public struct StoreError: Error, Sendable, Equatable, Diagnosable {
    public let path: String
    public let message: String
    public let exitCode: Int32

    public init(path: String, message: String, exitCode: Int32 = 1) {
        self.path = path
        self.message = message
        self.exitCode = exitCode
    }

    public var diagnosticLines: [String] { ["\(path): error: \(message)"] }
}
