import Foundation

/// A JSON value with where it starts (for messages): what a record is parsed into.
enum JSONValue: Sendable {
    case null
    case boolean(Bool)
    /// The number's text as written (`12`, `-0.5e3`): converted by the field, never rounded here.
    case number(String)
    case string(String)
    case array([JSONNode])
    /// Members in document order (duplicates are refused while parsing).
    case object([(key: String, node: JSONNode)])
}

/// A value and its 1-based line and byte column.
struct JSONNode: Sendable {
    let value: JSONValue
    let line: Int
    let column: Int
}

/// Reads JSON text from a file in chunks (never the whole file), byte by byte, keeping the line and
/// column of the cursor: the tokenizer under ``JSONRecordReader``. Strings are checked to be UTF-8,
/// objects to hold each key once; nesting is limited. Not `Sendable`: it owns an open file.
///
/// Its mutable properties are `@exclusivity(unchecked)`: the reader is used from one thread and no
/// method of it is re-entered, so Swift's run-time exclusivity checks (a thread-local look-up on every
/// property access, a sixth of a JSON build's time) can never find anything here.
final class JSONScanner {
    static let chunkSize = 1 << 20
    static let depthLimit = 256

    let file: String
    private let descriptor: FileDescriptor
    // SAFETY: the reader's thread only, and no access overlaps another: the buffer's closures touch locals and never refill.
    @exclusivity(unchecked) private var buffer: [UInt8]
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var index = 0
    @exclusivity(unchecked) private var consumed = 0
    @exclusivity(unchecked) private(set) var line = 1
    @exclusivity(unchecked) private var lineStart = 0
    @exclusivity(unchecked) private var atEnd = false

    init(path: String, file: String) throws(ReaderError) {
        self.file = file
        do {
            descriptor = try FileDescriptor.open(FilePath(path), O_RDONLY)
        } catch {
            throw ReaderError(error == .noSuchFileOrDirectory ? .fileNotFound : .cannotOpen(error.description), at: SourceLocation(file: file))
        }
        // A small file gets a small buffer (no megabyte to clear for a few bytes).
        let size = (try? descriptor.status().size) ?? Self.chunkSize
        buffer = [UInt8](repeating: 0, count: min(Self.chunkSize, max(4096, size + 1)))
    }

    deinit { descriptor.close() }

    /// 1-based byte column of the cursor.
    var column: Int { consumed + index - lineStart + 1 }

    /// Where the cursor is in the buffer, for a caller that reads ahead on its own (the in-place
    /// path): the buffered bytes from the cursor on, the cursor's line and the file offset of that
    /// line's start and of the buffer's start. `body` returns how far it read and the lines it passed
    /// (nil: nothing taken, the cursor stays).
    /// SAFETY: `body` gets a view of the buffer for its call only, and must not refill or keep it.
    func readAhead(_ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ line: Int, _ lineStart: Int, _ offset: Int)
                   -> (taken: Int, line: Int, lineStart: Int)?) -> Bool {
        guard index < count else { return false }
        let (from, offset) = (index, consumed + index)
        // SAFETY: the view lives for the closure only; `body` copies what it keeps and does not touch this scanner's buffer.
        let result = buffer.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[from..<count]), line, lineStart, offset)
        }
        guard let result else { return false }
        index += result.taken
        line = result.line
        lineStart = result.lineStart
        return true
    }

    func location(line: Int? = nil, column: Int? = nil) -> SourceLocation {
        SourceLocation(file: file, line: line ?? self.line, column: column ?? self.column)
    }

    func error(_ message: String, line: Int? = nil, column: Int? = nil) -> ReaderError {
        ReaderError(.jsonSyntax(message), at: location(line: line, column: column))
    }

    // MARK: Bytes

    /// The byte at the cursor, or nil at the end of the file.
    @inline(__always)
    func peek() throws(ReaderError) -> UInt8? {
        if index < count { return buffer[index] }
        return try refill() ? buffer[index] : nil
    }

    private func refill() throws(ReaderError) -> Bool {
        guard !atEnd else { return false }
        consumed += count
        index = 0
        count = 0
        while true {
            // SAFETY: read(2) fills the buffer inside the closure; the buffer is never empty (its size is fixed at init).
            let result = buffer.withUnsafeMutableBytes { bytes in Result { () throws(Errno) in try descriptor.read(into: bytes) } }
            guard case .success(let read) = result else {
                if case .failure(let error) = result { throw ReaderError(.cannotRead(error.description), at: location()) }
                continue
            }
            count = read
            if read == 0 { atEnd = true }
            return read > 0
        }
    }

    @inline(__always)
    func advance() {
        if buffer[index] == 0x0A {
            line += 1
            lineStart = consumed + index + 1
        }
        index += 1
    }

    /// Skips spaces, tabs and line breaks; `newlines: false` stops at a line break (JSON Lines).
    func skipSpace(newlines: Bool = true) throws(ReaderError) {
        // In the buffer: one pass over locals (the usual case: a space or none).
        var i = index, lineAt = line, start = lineStart
        let end = count, base = consumed
        // SAFETY: the view is read inside the closure only (indices into it are all that leave).
        buffer.withUnsafeBufferPointer { bytes in
            while i < end {
                let byte = bytes[i]
                if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                    i += 1
                } else if byte == 0x0A && newlines {
                    i += 1
                    lineAt += 1
                    start = base + i
                } else {
                    break
                }
            }
        }
        (index, line, lineStart) = (i, lineAt, start)
        if i < end { return }
        while let byte = try peek() {
            guard byte == 0x20 || byte == 0x09 || byte == 0x0D || (byte == 0x0A && newlines) else { return }
            advance()
        }
    }

    func expect(_ byte: UInt8, _ what: String) throws(ReaderError) {
        guard try peek() == byte else { throw error("expected \(what), found \(try describeCursor())") }
        advance()
    }

    func describeCursor() throws(ReaderError) -> String {
        guard let byte = try peek() else { return "the end of the file" }
        if byte == 0x0A { return "a line break" }
        return ReaderError.Reason.describe(byte)
    }

    // MARK: Values

    /// Parses the value at the cursor into a tree.
    func parseValue(depth: Int = 0) throws(ReaderError) -> JSONNode {
        try skipSpace()
        let (line, column) = (self.line, self.column)
        guard let byte = try peek() else { throw error("a value is missing at the end of the file") }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < Self.depthLimit else { throw error("values nested deeper than \(Self.depthLimit) levels") }
            advance()
            var members: [(key: String, node: JSONNode)] = []
            var seen = Set<String>()  // only for large objects: a small one is searched
            try skipSpace()
            if try peek() == UInt8(ascii: "}") { advance(); return JSONNode(value: .object([]), line: line, column: column) }
            while true {
                try skipSpace()
                let (keyLine, keyColumn) = (self.line, self.column)
                let key = try parseKey()
                let repeated: Bool
                if members.count < 16 {
                    repeated = members.contains { $0.key == key }
                } else {
                    if seen.isEmpty { seen = Set(members.map(\.key)) }
                    repeated = !seen.insert(key).inserted
                }
                guard !repeated else {
                    throw ReaderError(.jsonDuplicateKey(key), at: location(line: keyLine, column: keyColumn))
                }
                members.append((key, try parseValue(depth: depth + 1)))
                if try endOfMembers("}") { break }
            }
            return JSONNode(value: .object(members), line: line, column: column)
        case UInt8(ascii: "["):
            guard depth < Self.depthLimit else { throw error("values nested deeper than \(Self.depthLimit) levels") }
            advance()
            var elements: [JSONNode] = []
            try skipSpace()
            if try peek() == UInt8(ascii: "]") { advance(); return JSONNode(value: .array([]), line: line, column: column) }
            while true {
                elements.append(try parseValue(depth: depth + 1))
                if try endOfMembers("]") { break }
            }
            return JSONNode(value: .array(elements), line: line, column: column)
        case UInt8(ascii: "\""):
            return JSONNode(value: .string(try parseString()), line: line, column: column)
        default:
            return JSONNode(value: try parseScalar(), line: line, column: column)
        }
    }

    /// After a member or element: true at the closing `close` (consumed), false after a comma.
    func endOfMembers(_ close: Character) throws(ReaderError) -> Bool {
        try skipSpace()
        let closing = UInt8(ascii: close.unicodeScalars.first!)
        if try peek() == closing { advance(); return true }
        try expect(UInt8(ascii: ","), "',' or '\(close)'")
        return false
    }

    /// `"key"` then `:`.
    func parseKey() throws(ReaderError) -> String {
        try skipSpace()
        guard try peek() == UInt8(ascii: "\"") else { throw error("expected a key in double quotes, found \(try describeCursor())") }
        let key = try parseString()
        try skipSpace()
        try expect(UInt8(ascii: ":"), "':' after the key")
        return key
    }

    /// `true`, `false`, `null` or a number (its text checked against JSON's grammar).
    func parseScalar() throws(ReaderError) -> JSONValue {
        // A number or word wholly in the buffer: read in place.
        if index < count {
            var end = index
            // SAFETY: the view is read inside the closure only; the value it returns holds copies.
            let value: JSONValue? = buffer.withUnsafeBufferPointer { bytes in
                while end < count, bytes[end] > 0x20, bytes[end] != UInt8(ascii: ","), bytes[end] != UInt8(ascii: "}"),
                      bytes[end] != UInt8(ascii: "]") { end += 1 }
                guard end < count else { return nil }  // may go on in the next chunk
                // SAFETY: a sub-view of the closure's view, used inside it.
                let word = UnsafeBufferPointer(rebasing: bytes[index..<end])
                if word.elementsEqual("true".utf8) { return .boolean(true) }
                if word.elementsEqual("false".utf8) { return .boolean(false) }
                if word.elementsEqual("null".utf8) { return .null }
                guard JSONScanner.isNumber(Array(word)) else { return nil }
                return .number(String(decoding: word, as: UTF8.self))
            }
            if let value {
                index = end
                return value
            }
        }
        var text: [UInt8] = []
        while let byte = try peek(), byte != UInt8(ascii: ","), byte != UInt8(ascii: "}"), byte != UInt8(ascii: "]"),
              byte > 0x20 {
            text.append(byte)
            advance()
            if text.count > 400 { break }
        }
        switch String(decoding: text, as: UTF8.self) {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        case "null": return .null
        case let word where JSONScanner.isNumber(text): return .number(word)
        case "": throw error("expected a value, found \(try describeCursor())")
        case let word: throw error("'\(word.prefix(40))' is not a JSON value (strings are in double quotes)", column: column - text.count)
        }
    }

    /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isNumber(_ text: [UInt8]) -> Bool {
        // SAFETY: the view is read inside the closure only.
        text.withUnsafeBufferPointer { isNumber($0) }
    }

    // SAFETY: borrows `text` for the call and keeps no pointer to it.
    static func isNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = NumberScanner(text)
        _ = scanner.sign(allowingPlus: false)
        guard !scanner.atEnd else { return false }
        if !scanner.take(UInt8(ascii: "0")), scanner.digits() == 0 { return false }
        if scanner.take(UInt8(ascii: ".")), scanner.digits() == 0 { return false }
        if scanner.takeExponentMarker() {
            _ = scanner.sign(allowingPlus: true)
            if scanner.digits() == 0 { return false }
        }
        return scanner.atEnd
    }

    /// A string at the cursor (its opening quote): escapes decoded, UTF-8 checked.
    func parseString() throws(ReaderError) -> String {
        var bytes: [UInt8] = []
        try scanString(into: &bytes, keep: true)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Checks the string at the cursor, its bytes (escapes decoded) appended to `bytes` when `keep`.
    func scanString(into bytes: inout [UInt8], keep: Bool) throws(ReaderError) {
        let (line, column) = (self.line, self.column)
        advance()
        while true {
            // The common case first: a run of plain ASCII in the buffer, taken in one step (no line
            // break can be inside a string, so the line does not change).
            if index < count {
                let start = index
                var end = index
                // SAFETY: the view is read inside the closure only (indices into it are all that leave).
                buffer.withUnsafeBufferPointer { bytes in
                    while end < count {
                        let byte = bytes[end]
                        if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { break }
                        end += 1
                    }
                }
                if end > start {
                    if keep { bytes.append(contentsOf: buffer[start..<end]) }
                    index = end
                }
            }
            guard let byte = try peek() else { throw error("unterminated string (it opens here)", line: line, column: column) }
            if byte == UInt8(ascii: "\"") { advance(); break }
            if byte < 0x20 { throw error("a control character (\(ReaderError.Reason.describe(byte))) inside a string: write it as an escape such as \\n") }
            if byte == UInt8(ascii: "\\") {
                let (escapeLine, escapeColumn) = (self.line, self.column)
                advance()
                try escape(into: &bytes, line: escapeLine, column: escapeColumn)
                if !keep { bytes.removeAll(keepingCapacity: true) }
                continue
            }
            if byte >= 0x80 {
                let start = self.column
                var scalar: [UInt8] = [byte]
                advance()
                while let next = try peek(), next & 0xC0 == 0x80, scalar.count < 4 { scalar.append(next); advance() }
                // SAFETY: the view is read inside the closure; `scalar` holds at least its lead byte.
                guard scalar.withUnsafeBufferPointer({ UTF8Validation.firstInvalidOffset($0.baseAddress!, count: $0.count) }) == nil else {
                    throw ReaderError(.jsonInvalidUTF8(scalar[0]), at: location(column: start))
                }
                if keep { bytes += scalar }
                continue
            }
            if keep { bytes.append(byte) }
            advance()
        }
    }

    /// Skips the value at the cursor without building it (its syntax and strings still checked; a
    /// skipped object's keys are not compared): a large part of the document outside the records
    /// costs no memory.
    func skipValue() throws(ReaderError) {
        var closers: [UInt8] = []
        var scratch: [UInt8] = []
        repeat {
            try skipSpace()
            guard let byte = try peek() else { throw error("a value is missing at the end of the file") }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard closers.count < Self.depthLimit else { throw error("values nested deeper than \(Self.depthLimit) levels") }
                advance()
                try skipSpace()
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if try peek() == close {
                    advance()
                } else {
                    closers.append(close)
                    if close == UInt8(ascii: "}") { try skipKey(&scratch) }
                    continue
                }
            case UInt8(ascii: "\""):
                try scanString(into: &scratch, keep: false)
            default:
                _ = try parseScalar()
            }
            // After a value: close what ends here, or go on after a comma.
            while let close = closers.last {
                try skipSpace()
                if try peek() == close {
                    advance()
                    closers.removeLast()
                    continue
                }
                try expect(UInt8(ascii: ","), "',' or '\(Character(Unicode.Scalar(close)))'")
                if close == UInt8(ascii: "}") { try skipKey(&scratch) }
                break
            }
        } while !closers.isEmpty
    }

    private func skipKey(_ scratch: inout [UInt8]) throws(ReaderError) {
        try skipSpace()
        guard try peek() == UInt8(ascii: "\"") else { throw error("expected a key in double quotes, found \(try describeCursor())") }
        try scanString(into: &scratch, keep: false)
        try skipSpace()
        try expect(UInt8(ascii: ":"), "':' after the key")
    }
}
