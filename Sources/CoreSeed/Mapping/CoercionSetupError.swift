/// A field's conversion that cannot be set up: a bad date pattern, an unknown time zone,
/// a model bound that is not a number. Found once, before any row is read.
public struct CoercionSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
