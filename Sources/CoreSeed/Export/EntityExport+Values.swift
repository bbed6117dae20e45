import Foundation

/// One exported value: what CSV and JSON write for it.
enum RenderedValue: Equatable {
    case null
    /// A JSON number (its text as written).
    case number(String)
    case boolean(Bool)
    case text(String)
    /// A list of keys (a to-many relationship).
    case keys([String])

    var csv: String {
        switch self {
        case .null: ""
        case .number(let text): text
        case .boolean(let flag): flag ? "true" : "false"
        case .text(let text): ExportValue.csvField(text)
        case .keys(let keys): keys.joined(separator: StoreExporter.listSeparator)
        }
    }

    var json: String {
        switch self {
        case .null: "null"
        case .number(let text): text
        case .boolean(let flag): flag ? "true" : "false"
        case .text(let text): JSONWriter.quoted(text)
        case .keys(let keys): "[" + keys.joined(separator: ", ") + "]"
        }
    }
}

extension EntityExport {
    /// How a stored value is written for a column of this kind (see `StoreExporter` for the rules).
    func render(_ value: SQLiteValue, as kind: Kind) -> RenderedValue {
        if case .null = value { return .null }
        switch kind {
        case .key, .toOne:
            return integerText(value)
        case .list:
            guard case .text(let text) = value else { return integerText(value) }
            return .keys(text.split(separator: Character(StoreExporter.listSeparator)).map(String.init))
        case .attribute(let attribute):
            return render(value, type: attribute.type)
        }
    }

    private func integerText(_ value: SQLiteValue) -> RenderedValue {
        switch value {
        case .integer(let number): return .number(String(number))
        case .real(let number) where number.isFinite && number == number.rounded() && number.magnitude < 9e18:
            return .number(String(Int64(number)))
        default: return textRendering(value)
        }
    }

    private func textRendering(_ value: SQLiteValue) -> RenderedValue {
        switch value {
        case .null: return .null
        case .integer(let number): return .text(String(number))
        case .real(let number): return .text(ExportValue.number(number))
        case .text(let text): return .text(text)
        case .blob(let bytes): return .text(Data(bytes).base64EncodedString())
        }
    }

    func render(_ value: SQLiteValue, type: AttributeType) -> RenderedValue {
        switch type {
        case .integer16, .integer32, .integer64:
            return integerText(value)
        case .boolean:
            switch value {
            case .integer(let number): return .boolean(number != 0)
            case .real(let number): return .boolean(number != 0)
            default: return textRendering(value)
            }
        case .double, .float, .decimal:
            switch value {
            case .integer(let number): return .number(String(number))
            case .real(let number) where number.isFinite: return .number(ExportValue.number(number))
            default: return textRendering(value)
            }
        case .date:
            switch value {
            case .integer(let number): return .text(ExportValue.iso8601(secondsSinceReference: Double(number)))
            case .real(let number): return .text(ExportValue.iso8601(secondsSinceReference: number))
            default: return textRendering(value)
            }
        case .uuid:
            if case .blob(let bytes) = value, let text = ExportValue.uuid(bytes) { return .text(text) }
            return textRendering(value)
        case .binary, .transformable:
            switch value {
            case .blob(let bytes): return .text(Data(bytes).base64EncodedString())
            case .text(let text): return .text(Data(text.utf8).base64EncodedString())
            default: return textRendering(value)
            }
        case .string, .uri, .undefined, .objectID, .composite:
            if case .blob(let bytes) = value { return .text(String(decoding: bytes, as: UTF8.self)) }
            return textRendering(value)
        }
    }
}
