import Foundation

/// The general path of the row mapping: the attribute-value rule (constant, field, file, default,
/// optionality, the model's rules), for every value the fast path leaves alone, and for the key
/// pass's checks, uniqueness keys and `--explain`.
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
        if let kind = FileError.irregularKind(path) {
            throw CoercionFailure(.fileMissing(path: path, reason: "is \(kind), not a regular file"), expected: "file", seen: .text(name))
        }
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
