/// Writes JSON text by hand with a fixed key order and RFC 8259 escaping (JSONSerialization's key
/// order is not stable across platforms, and output is compared by tests and scripts).
public struct JSONWriter {
    /// The text written so far.
    public private(set) var text = ""
    private var needsComma: [Bool] = []

    public init() {}

    private mutating func separator() {
        if let last = needsComma.last {
            if last { text += ", " }
            needsComma[needsComma.count - 1] = true
        }
    }

    /// Writes `{ … }`, with `body` adding its fields.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separator()
        text += "{"
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        text += "}"
    }

    /// Writes `[ … ]`, with `body` adding its elements (each with `raw`, `object` or `array`).
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        separator()
        text += "["
        needsComma.append(false)
        body(&self)
        needsComma.removeLast()
        text += "]"
    }

    /// Writes `"key": ` and then `value`.
    public mutating func key(_ key: String) {
        separator()
        text += JSONWriter.quoted(key) + ": "
        needsComma.append(false)
        needsComma[needsComma.count - 1] = false
    }

    private mutating func endKey() { needsComma.removeLast() }

    public mutating func field(_ key: String, _ value: String?) {
        self.key(key); raw(value.map(JSONWriter.quoted) ?? "null"); endKey()
    }
    public mutating func field(_ key: String, _ value: Int?) {
        self.key(key); raw(value.map(String.init) ?? "null"); endKey()
    }
    public mutating func field(_ key: String, _ value: Bool) {
        self.key(key); raw(value ? "true" : "false"); endKey()
    }
    public mutating func field(_ key: String, _ values: [String]) {
        self.key(key); raw("[" + values.map(JSONWriter.quoted).joined(separator: ", ") + "]"); endKey()
    }
    /// A field whose value `body` writes (an object or raw value).
    public mutating func field(_ key: String, _ body: (inout JSONWriter) -> Void) {
        self.key(key); body(&self); endKey()
    }

    /// Appends already-formed JSON (a number, literal, or nested text) as one value.
    public mutating func raw(_ json: String) {
        separator()
        text += json
    }

    /// A JSON string literal.
    public static func quoted(_ string: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + 2)
        appendQuoted(string, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` as a JSON string literal, the one escaper of every JSON CoreSeed writes:
    /// `"`, `\` and control characters escaped (`\n`, `\r`, `\t`, else `\u00xx`), other UTF-8 as is.
    public static func appendQuoted(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 15)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
