/// One value a reader yields, with the storage class its source gave it.
public enum FieldValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    /// A repeated XML child: every occurrence, in document order (feeds to-many relationships).
    case list([FieldValue])
}

/// One record from a source: values aligned with the reader's `fieldNames`, and where it came from.
public struct Record: Sendable, Equatable {
    public var location: SourceLocation
    /// `values[i]` is the field named `fieldNames[i]` of the reader that produced this record.
    public var values: [FieldValue]
    /// Per-field locations (e.g. the CSV column of each field), when the source knows them; aligned with `values`.
    public var fieldColumns: [Int]?
    /// Per-field lines, when a field can be on another line than the record's start (XML); 0 = the
    /// record's line. Aligned with `values`.
    public var fieldLines: [Int]?
    /// A computed field that failed on this record, when its reader tolerates that
    /// (``ComputedFieldsReader/toleratesFailures``): the build rejects the record with it.
    var computeFailure: ReaderError?

    public init(location: SourceLocation, values: [FieldValue], fieldColumns: [Int]? = nil) {
        self.location = location
        self.values = values
        self.fieldColumns = fieldColumns
    }
}

extension FieldValue {
    /// The value SQLite gave, with its storage class kept.
    init(_ value: SQLiteValue) {
        switch value {
        case .null: self = .null
        case .integer(let number): self = .integer(number)
        case .real(let number): self = .real(number)
        case .text(let text): self = .text(text)
        case .blob(let bytes): self = .blob(bytes)
        }
    }
}
