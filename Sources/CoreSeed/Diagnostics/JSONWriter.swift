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
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
