/// How a CSV file is written: delimiter, quote, header, encoding and trimming.
public struct CSVOptions: Sendable, Equatable {
    /// The field separator, one byte (`,` by default; `\t` for TSV).
    public var delimiter: UInt8 = UInt8(ascii: ",")
    /// The quote byte (`"` by default).
    public var quote: UInt8 = UInt8(ascii: "\"")
    /// When false, fields are named "1", "2", … and the first row is data.
    public var header = true
    /// The file's text encoding; a byte-order mark overrides it and is removed.
    public var encoding: CSVEncoding = .utf8
    /// Which text loses leading and trailing spaces and tabs.
    public var trim: CSVTrim = .none
    /// An unquoted empty field is NULL and a quoted one (`""`) the empty string, as PostgreSQL's
    /// CSV format has it; otherwise every empty field is the empty string.
    public var nullIfUnquotedEmpty = false
    /// Lines that begin with this byte are skipped (spec `"comment": "#"`), before the header too.
    public var comment: UInt8?
    /// A row with fewer fields than the header reads NULL for the missing ones (spec `"ragged": true`);
    /// a row with more stays an error.
    public var ragged = false
    /// The field names when the spec gives them (`"header": ["codes", "TZ"]`): the file has no header
    /// row and its rows have this many fields (`header` is false).
    public var names: [String]?

    public init(delimiter: UInt8 = UInt8(ascii: ","), quote: UInt8 = UInt8(ascii: "\""), header: Bool = true,
                encoding: CSVEncoding = .utf8, trim: CSVTrim = .none) {
        self.delimiter = delimiter
        self.quote = quote
        self.header = header
        self.encoding = encoding
        self.trim = trim
    }

    init(from container: KeyedDecodingContainer<SourceSpec.Key>) throws {
        if let text = try container.decodeIfPresent(String.self, forKey: .init("delimiter")) {
            delimiter = try Self.singleByte(text, key: "delimiter", in: container)
        }
        if let text = try container.decodeIfPresent(String.self, forKey: .init("quote")) {
            quote = try Self.singleByte(text, key: "quote", in: container)
        }
        if delimiter == quote || [10, 13].contains(delimiter) || [10, 13].contains(quote) {
            throw DecodingError.dataCorruptedError(
                forKey: .init("quote"), in: container,
                debugDescription: "delimiter and quote must differ and not be a line break")
        }
        if let names = try? container.decodeIfPresent([String].self, forKey: .init("header")) {
            guard !names.isEmpty, Set(names).count == names.count else {
                throw DecodingError.dataCorruptedError(
                    forKey: .init("header"), in: container,
                    debugDescription: "a header given as a list names each field once: [\(names.map { "\"\($0)\"" }.joined(separator: ", "))]")
            }
            self.names = names
            header = false
        } else {
            header = try container.decodeIfPresent(Bool.self, forKey: .init("header")) ?? true
        }
        if let text = try container.decodeIfPresent(String.self, forKey: .init("comment")) {
            comment = try Self.singleByte(text, key: "comment", in: container)
            if comment == quote || comment == delimiter || [10, 13].contains(comment!) {
                throw DecodingError.dataCorruptedError(
                    forKey: .init("comment"), in: container,
                    debugDescription: "comment must differ from the delimiter and the quote and not be a line break")
            }
        }
        ragged = try container.decodeIfPresent(Bool.self, forKey: .init("ragged")) ?? false
        nullIfUnquotedEmpty = try container.decodeIfPresent(Bool.self, forKey: .init("nullIfUnquotedEmpty")) ?? false
        if let name = try container.decodeIfPresent(String.self, forKey: .init("encoding")) {
            guard let value = CSVEncoding(name: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .init("encoding"), in: container,
                    debugDescription: "unknown encoding '\(name)' (use utf-8, utf-16le, utf-16be, windows-1252 or iso-8859-1)")
            }
            encoding = value
        }
        if let name = try container.decodeIfPresent(String.self, forKey: .init("trim")) {
            guard let value = CSVTrim(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .init("trim"), in: container,
                    debugDescription: "unknown trim '\(name)' (use none, header, values or both)")
            }
            trim = value
        }
    }

    private static func singleByte(_ text: String, key: String,
                                   in container: KeyedDecodingContainer<SourceSpec.Key>) throws -> UInt8 {
        let bytes = Array(text.utf8)
        guard bytes.count == 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .init(key), in: container,
                debugDescription: "\(key) must be a single ASCII character, got \"\(text)\"")
        }
        return bytes[0]
    }
}

/// The text encodings a CSV file may declare.
public enum CSVEncoding: Sendable, Equatable {
    case utf8, utf16LE, utf16BE, windows1252, isoLatin1

    /// Parses a spec name, case-insensitively, with common aliases (`latin1`, `cp1252`, `utf8`).
    public init?(name: String) {
        switch name.lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "utf-16le", "utf16le", "utf-16", "utf16": self = .utf16LE
        case "utf-16be", "utf16be": self = .utf16BE
        case "windows-1252", "cp1252", "windows1252": self = .windows1252
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1": self = .isoLatin1
        default: return nil
        }
    }
}

/// Which CSV text is trimmed of leading and trailing spaces and tabs.
public enum CSVTrim: String, Sendable, Equatable {
    case none, header, values, both

    var trimsHeader: Bool { self == .header || self == .both }
    var trimsValues: Bool { self == .values || self == .both }
}
