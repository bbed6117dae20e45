/// A model that Core Data could load but CoreSeed cannot lay out, or a configuration problem.
public struct LayoutError: Error, Sendable, Equatable, Diagnosable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var diagnosticLines: [String] { ["error: \(message)"] }
}
