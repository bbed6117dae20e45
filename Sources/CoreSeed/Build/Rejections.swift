import Foundation

/// The values a build has rejected so far, and how many it tolerates (`--max-errors`): one more
/// fails the build with every problem found.
struct Rejections: Sendable {
    let limit: Int
    private(set) var errors: [MappingError] = []

    init(limit: Int, errors: [MappingError] = []) {
        self.limit = limit
        self.errors = errors
    }

    /// Records a rejected value; throws `BuildFailure` once more than `limit` have been seen.
    mutating func reject(_ error: MappingError) throws(BuildFailure) {
        errors.append(error)
        if errors.count > limit {
            throw BuildFailure(problems: errors, report: BuildReport())
        }
    }

    /// Records a record left out as a consequence of another's rejection: listed, not counted
    /// against the limit (the rejection that caused it was).
    mutating func note(_ error: MappingError) {
        errors.append(error)
    }

    /// The error for one value of `record`, located at its field's column when the reader knows it.
    static func mappingError(_ record: Record, fieldIndex: Int?, field: String, entity: String, attribute: String,
                             failure: CoercionFailure) -> MappingError {
        var location = record.location
        if let fieldIndex, let lines = record.fieldLines, fieldIndex < lines.count, lines[fieldIndex] > 0 { location.line = lines[fieldIndex] }
        if let fieldIndex, let columns = record.fieldColumns, fieldIndex < columns.count, columns[fieldIndex] > 0 { location.column = columns[fieldIndex] }
        return MappingError(location: location, field: field, entity: entity, attribute: attribute, failure: failure)
    }
}

extension AttributeFill {
    /// The value of this attribute for one record: the constant, else the field, else the default;
    /// NULL for a non-optional attribute is a failure.
    @inline(__always)
    func value(_ record: Record) throws(CoercionFailure) -> SQLiteValue {
        var input = constant ?? (fieldIndex.map { record.values[$0] } ?? .null)
        if let fileFolder, case .text(let name) = input, !AttributeFill.isBlank(input) {
            input = .blob(try AttributeFill.fileBytes(name, in: fileFolder))
        }
        var result = try coercer.coerce(input)
        if let defaultValue, result == .null || AttributeFill.isBlank(input) {
            result = try coercer.coerce(defaultValue)
        }
        if case .null = result, !isOptional {
            throw CoercionFailure.required(input, type: type)
        }
        if let rules { try rules.check(result, seen: input) }
        return result
    }

    /// The bytes of the file `name` (relative to `folder` unless absolute): `"file": true`.
    static func fileBytes(_ name: String, in folder: String) throws(CoercionFailure) -> [UInt8] {
        let path = SeedSpec.join(folder, name)
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
            throw CoercionFailure(.fileMissing(path: path, reason: reason), expected: "file", seen: .text(name))
        }
        return [UInt8](data)
    }

    /// Empty or all-space text: "no value" for the purpose of defaults, even for String attributes.
    static func isBlank(_ value: FieldValue) -> Bool {
        guard case .text(let text) = value else { return false }
        return isBlank(text.utf8)
    }

    /// ``isBlank(_:)`` of text given as UTF-8 bytes.
    @inline(__always)
    static func isBlank<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }
}
