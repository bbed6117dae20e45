/// A model that cannot be read: which file, which line, what is wrong.
public struct ModelError: Error, Sendable, Equatable, Diagnosable {
    public let path: String
    /// 1-based line in the model file, when known.
    public let line: Int?
    public let message: String

    public init(path: String, line: Int? = nil, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var diagnosticLines: [String] {
        ["\(path)\(line.map { ":\($0)" } ?? ""): error: \(message)"]
    }

    public var exitCode: Int32 { 66 }
}
