/// A value that could not be mapped: where it was, which field, which entity and attribute, and why.
///
/// Renders as `Inputs/banklist.csv:12:7: error: 'Closing Date' value "31-Feb-10" is not a date
/// matching "d-MMM-yy" (FailedBankDetails.closeDate)`.
public struct MappingError: Error, Sendable, Equatable, Diagnosable {
    /// Where the value came from (file:line:column, or file:table:rowid).
    public let location: SourceLocation
    /// The source field's name as the input spells it (`Closing Date`).
    public let field: String
    public let entity: String
    public let attribute: String
    public let failure: CoercionFailure

    public init(location: SourceLocation, field: String, entity: String, attribute: String, failure: CoercionFailure) {
        self.location = location
        self.field = field
        self.entity = entity
        self.attribute = attribute
        self.failure = failure
    }

    /// The message after `error: `: the failure, then `(Entity.attribute)`.
    public var message: String {
        "\(failure.message(field: field)) (\(entity).\(attribute))"
    }

    public var diagnostics: [Diagnostic] { [Diagnostic(.error, at: location.description, message)] }
}
