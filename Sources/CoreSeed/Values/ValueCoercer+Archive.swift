extension ValueCoercer {
    /// The keyed archive of the value `value` holds (`"archive": "json"` or `"list"`); NULL for a
    /// blank field.
    func archived(_ value: FieldValue, _ input: CoercionOptions.ArchiveInput) throws(CoercionFailure) -> SQLiteValue {
        let archived: ArchivedValue
        switch (value, input) {
        case (.null, _): return .null
        case (.list(let items), .list):
            // A repeated XML element: one string per occurrence.
            var strings: [ArchivedValue] = []
            for item in items {
                guard let text = try scalar(item) else { continue }
                let trimmed = ASCII.trimmedSpaces(text)
                if !trimmed.isEmpty { strings.append(.string(trimmed)) }
            }
            archived = .array(strings)
        case (.list, .json):
            throw CoercionFailure(.notA, expected: "single JSON value (a repeated element archives as \"archive\": \"list\")", seen: value)
        case (.integer(let number), .json): archived = .integer(number)
        case (.real(let number), .json): archived = .real(number)
        case (.integer, .list), (.real, .list): archived = .array([.string(try scalar(value) ?? "")])
        case (.text, _), (.blob, _):
            let text: String
            if case .text(let string) = value {
                text = string
            } else if case .blob(let bytes) = value, let string = String(validating: bytes, as: UTF8.self) {
                text = string
            } else {
                throw CoercionFailure(.notA, expected: "UTF-8 text holding a value to archive", seen: value)
            }
            if ASCII.trimmedSpaces(text).isEmpty { return .null }
            switch input {
            case .json:
                do {
                    archived = try ArchivedValue.parse(json: text)
                } catch {
                    throw CoercionFailure(.notAWithHint("\(error.message) (at character \(error.offset))"), expected: "JSON value to archive", seen: value)
                }
            case .list(let separator):
                archived = .array(text.components(separatedBy: separator).map(ASCII.trimmedSpaces).filter { !$0.isEmpty }.map { .string($0) })
            }
        }
        return .blob(KeyedArchiver.archive(archived))
    }

    /// A number's text, as a String attribute stores it.
    private func scalar(_ value: FieldValue) throws(CoercionFailure) -> String? {
        switch value {
        case .integer(let number): return String(number)
        case .real(let number): return "\(number)"
        case .text(let text): return text
        case .null: return nil
        default: throw CoercionFailure(.notA, expected: "text to archive", seen: value)
        }
    }
}
