import CoreSeed
import Foundation

/// Writes records as JSON lines to stdout, by hand so key order is fixed, through a 64 KiB buffer.
final class JSONLineWriter {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    /// `{"location": "...", "fields": {"name": value, ...}}` with fields in `fieldNames` order.
    func write(_ record: Record, fieldNames: [String]) throws(Terminal.WriteError) {
        append("{\"location\": ")
        appendString(record.location.description)
        append(", \"fields\": {")
        for (index, value) in record.values.enumerated() {
            if index > 0 { append(", ") }
            appendString(index < fieldNames.count ? fieldNames[index] : String(index + 1))
            append(": ")
            appendValue(value)
        }
        append("}}\n")
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws(Terminal.WriteError) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try Terminal.out(buffer)
    }

    private func append(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    private func appendValue(_ value: FieldValue) {
        switch value {
        case .null: append("null")
        case .integer(let v): buffer.append(contentsOf: String(v).utf8)
        // JSON has no NaN or infinity; they print as null.
        case .real(let v): if v.isFinite { buffer.append(contentsOf: "\(v)".utf8) } else { append("null") }
        case .text(let s): appendString(s)
        case .blob(let bytes): appendString(Data(bytes).base64EncodedString())
        case .list(let items):
            append("[")
            for (index, item) in items.enumerated() {
                if index > 0 { append(", ") }
                appendValue(item)
            }
            append("]")
        }
    }

    private func appendString(_ text: String) {
        JSONWriter.appendQuoted(text, to: &buffer)
    }
}
