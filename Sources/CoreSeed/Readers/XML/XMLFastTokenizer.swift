import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the plain shape most data files have — UTF-8, no DOCTYPE, no namespaces, no CDATA, no
/// processing instructions, no character references — and feeds the record scanner the events
/// libxml2 would, at a fraction of libxml2's cost. It checks well-formedness as it goes, and hands
/// over at the first thing outside that shape or in doubt, an error included: the reader then
/// parses the document again with libxml2 from the start, leaving out the records already
/// delivered, so that libxml2 stays the judge of every document it does not accept whole, and of
/// every error message.
///
/// Accepted: an XML declaration (version 1.0; encoding UTF-8, if named; standalone) at the very
/// start; comments; elements and attributes with ASCII names (letters, digits, `_`, `-`, `.`; no
/// `:`, no `xmlns`); attribute values without `&`, `<`, tabs or line ends; text with the five
/// predefined entities, tabs and LF line ends (no CR), every other character a valid XML character
/// in valid UTF-8; `]]>` nowhere.
struct XMLFastTokenizer {
    enum Outcome {
        /// The whole document was read; the scanner holds its last records.
        case finished
        /// Something outside the accepted shape (or an error, or the scanner's failure): libxml2's turn.
        case handOver
        /// The reader went away.
        case cancelled
        /// The file could not be read.
        case readFailed
    }

    /// Fills `buffer` with up to `count` bytes of the file: the count, 0 at its end, -1 on an error.
    typealias Read = (_ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int

    private let read: Read
    private let scanner: XMLRecordScanner
    private let dictionary: xmlDictPtr
    /// The bytes read, with a 0 after the last (`buffer[end]`), which stops every scanning loop.
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// `buffer[position..<end]` is read and not yet consumed.
    private var position = 0
    private var end = 0
    private var atEndOfFile = false
    private var readFailed = false
    private var line = 1
    /// Open elements: each name as interned, and its length; `openCount` of them.
    private var open: UnsafeMutablePointer<(name: UnsafePointer<xmlChar>, length: Int)>
    private var openCapacity = 64
    private var openCount = 0
    /// A start tag's attributes as libxml2 passes them: `localname, prefix, URI, value, end` each;
    /// `attributeSlots` of them in use.
    private var attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>
    private var attributeCapacity = 40
    private var attributeSlots = 0
    /// Names interned lately, by a hash of their bytes (saves most `xmlDictLookup` calls).
    private let internedNames: UnsafeMutablePointer<UnsafePointer<xmlChar>?>
    /// `Self.table`, looked up once.
    private let classes = Self.table

    init(scanner: XMLRecordScanner, dictionary: xmlDictPtr, read: @escaping Read) {
        self.scanner = scanner
        self.dictionary = dictionary
        self.read = read
        capacity = 256 << 10
        buffer = .allocate(capacity: capacity + 1)
        buffer[0] = 0
        open = .allocate(capacity: openCapacity)
        attributes = .allocate(capacity: attributeCapacity)
        internedNames = .allocate(capacity: 256)
        internedNames.initialize(repeating: nil, count: 256)
    }

    mutating func deallocate() {
        buffer.deallocate()
        open.deallocate()
        attributes.deallocate()
        internedNames.deallocate()
    }

    /// The document, event by event, into the scanner.
    mutating func run() -> Outcome {
        let outcome = document()
        if readFailed { return .readFailed }
        if scanner.failed { return scanner.failure == nil ? .cancelled : .handOver }
        return outcome
    }

    // MARK: Document

    private mutating func document() -> Outcome {
        guard ensure(6) else { return .handOver }
        if startsWith("<?xml"), position + 5 < end, Self.isSpace(buffer[position + 5]) {
            guard declaration() else { return .handOver }
        }
        var rootSeen = false
        while true {
            guard skipSpaces() else { return .handOver }
            if position == end {
                // The end of the file: after the root element only.
                return rootSeen ? .finished : .handOver
            }
            guard buffer[position] == UInt8(ascii: "<"), ensure(4) else { return .handOver }
            if startsWith("<!--") {
                guard comment() else { return .handOver }
                continue
            }
            guard !rootSeen, position + 1 < end, Self.isNameStart(buffer[position + 1]) else { return .handOver }
            rootSeen = true
            guard element() else { return .handOver }
        }
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, each part but the version optional.
    private mutating func declaration() -> Bool {
        guard let close = find(UInt8(ascii: "?"), then: UInt8(ascii: ">")) else { return false }
        var cursor = position + 5
        /// Skips spaces; whether there were any.
        func spaces() -> Bool {
            let start = cursor
            while cursor < close && Self.isSpace(buffer[cursor]) { cursor += 1 }
            return cursor > start
        }
        /// ` name = "value"` (either quote), after a space; the value, or nil.
        func pseudoAttribute(_ name: String, spaced: Bool) -> [UInt8]? {
            let bytes = Array(name.utf8)
            guard spaced, close - cursor > bytes.count, memcmp(buffer + cursor, bytes, bytes.count) == 0 else { return nil }
            cursor += bytes.count
            _ = spaces()
            guard cursor < close, buffer[cursor] == UInt8(ascii: "=") else { return nil }
            cursor += 1
            _ = spaces()
            guard cursor < close else { return nil }
            let quote = buffer[cursor]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
            let start = cursor + 1
            var stop = start
            while stop < close && buffer[stop] != quote { stop += 1 }
            guard stop < close else { return nil }
            cursor = stop + 1
            return Array(UnsafeBufferPointer(start: buffer + start, count: stop - start))
        }
        guard pseudoAttribute("version", spaced: spaces()) == Array("1.0".utf8) else { return false }
        var spaced = spaces()
        if close - cursor > 8 && memcmp(buffer + cursor, "encoding", 8) == 0 {
            guard let encoding = pseudoAttribute("encoding", spaced: spaced),
                  String(decoding: encoding, as: UTF8.self).lowercased() == "utf-8" else { return false }
            spaced = spaces()
        }
        if close - cursor > 10 && memcmp(buffer + cursor, "standalone", 10) == 0 {
            guard let standalone = pseudoAttribute("standalone", spaced: spaced),
                  standalone == Array("yes".utf8) || standalone == Array("no".utf8) else { return false }
            _ = spaces()
        }
        guard cursor == close else { return false }
        line += Self.lineEnds(buffer + position, count: close - position)
        position = close + 2
        return true
    }

    // MARK: Elements

    /// The root element and everything in it.
    private mutating func element() -> Bool {
        guard startTag() else { return false }
        while openCount > 0 {
            guard ensure(1), position < end else { return false }
            let byte = buffer[position]
            if byte == UInt8(ascii: "<") {
                guard ensure(4), position + 1 < end else { return false }
                let next = buffer[position + 1]
                if next == UInt8(ascii: "/") {
                    guard endTag() else { return false }
                } else if startsWith("<!--") {
                    guard comment() else { return false }
                    scanner.otherMarkup()
                } else {
                    guard Self.isNameStart(next), startTag() else { return false }
                }
            } else if byte == UInt8(ascii: "&") {
                guard reference() else { return false }
            } else {
                guard text() else { return false }
            }
            if scanner.failed { return false }
        }
        return true
    }

    /// `<name attr="value" …>` or `<name …/>`.
    private mutating func startTag() -> Bool {
        while true {
            switch parseStartTag() {
            case .some(true): return true
            case .some(false): return false
            case .none: guard more() else { return false }
            }
        }
    }

    /// nil: the tag goes past the bytes read (read more and parse it again).
    private mutating func parseStartTag() -> Bool? {
        let start = position
        var cursor = position + 1
        let nameEnd = scanName(from: cursor)
        if nameEnd < 0 { return nil }
        if nameEnd == 0 { return false }
        let name = intern(from: cursor, to: nameEnd)
        cursor = nameEnd
        attributeSlots = 0
        var empty = false
        while true {
            let spaced = Self.isSpace(buffer[cursor])
            while Self.isSpace(buffer[cursor]) { cursor += 1 }
            guard cursor < end else { return nil }
            let byte = buffer[cursor]
            if byte == UInt8(ascii: ">") {
                cursor += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                guard cursor + 1 < end else { return nil }
                guard buffer[cursor + 1] == UInt8(ascii: ">") else { return false }
                cursor += 2
                empty = true
                break
            }
            guard spaced else { return false }
            let attributeEnd = scanName(from: cursor)
            if attributeEnd < 0 { return nil }
            if attributeEnd == 0 { return false }
            let attribute = intern(from: cursor, to: attributeEnd)
            if attributeEnd - cursor == 5 && memcmp(buffer + cursor, "xmlns", 5) == 0 { return false }
            cursor = attributeEnd
            while Self.isSpace(buffer[cursor]) { cursor += 1 }
            guard cursor < end else { return nil }
            guard buffer[cursor] == UInt8(ascii: "=") else { return false }
            cursor += 1
            while Self.isSpace(buffer[cursor]) { cursor += 1 }
            guard cursor < end else { return nil }
            let quote = buffer[cursor]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return false }
            cursor += 1
            let valueStart = cursor
            while true {
                while classes[Int(buffer[cursor])] & Self.plainInValue != 0 { cursor += 1 }
                guard cursor < end else { return nil }
                let value = buffer[cursor]
                if value == quote { break }
                if value < 0x80 {
                    // `<`, `&`, a control character, or the other quote.
                    guard value == UInt8(ascii: "\"") || value == UInt8(ascii: "'") else { return false }
                    cursor += 1
                } else {
                    let length = Self.utf8Length(buffer + cursor, available: end - cursor)
                    if length < 0 { return nil }
                    if length == 0 { return false }
                    cursor += length
                }
            }
            // A repeated attribute is an error: libxml2's to report.
            for index in stride(from: 0, to: attributeSlots, by: 5) where attributes[index] == UnsafePointer(attribute) { return false }
            if attributeSlots + 5 > attributeCapacity {
                let grown = UnsafeMutablePointer<UnsafePointer<xmlChar>?>.allocate(capacity: attributeCapacity * 2)
                grown.initialize(from: attributes, count: attributeSlots)
                attributes.deallocate()
                attributes = grown
                attributeCapacity *= 2
            }
            attributes[attributeSlots] = attribute
            attributes[attributeSlots + 1] = nil
            attributes[attributeSlots + 2] = nil
            attributes[attributeSlots + 3] = UnsafePointer(buffer + valueStart)
            attributes[attributeSlots + 4] = UnsafePointer(buffer + cursor)
            attributeSlots += 5
            cursor += 1
        }
        line += Self.lineEnds(buffer + start, count: cursor - start)
        position = cursor
        scanner.tokenLine = line
        let tag = XMLStartTag(namespaces: nil, namespaceCount: 0, attributes: attributes, attributeCount: attributeSlots / 5)
        scanner.startElement(local: name, prefix: nil, tag: tag)
        if empty {
            scanner.endElement()
        } else {
            if openCount == openCapacity {
                let grown = UnsafeMutablePointer<(name: UnsafePointer<xmlChar>, length: Int)>.allocate(capacity: openCapacity * 2)
                grown.initialize(from: open, count: openCount)
                open.deallocate()
                open = grown
                openCapacity *= 2
            }
            open[openCount] = (name, nameEnd - start - 1)
            openCount += 1
        }
        return true
    }

    /// `</name>`, which must close the innermost open element.
    private mutating func endTag() -> Bool {
        guard openCount > 0 else { return false }
        let (name, length) = open[openCount - 1]
        while end - position < length + 3 + 64 && !atEndOfFile {
            if !more() { break }
        }
        guard !readFailed else { return false }
        var cursor = position + 2
        guard cursor + length <= end, Self.equal(name, buffer + cursor, length) else { return false }
        cursor += length
        let spaces = cursor
        while Self.isSpace(buffer[cursor]) { cursor += 1 }
        guard cursor < end, buffer[cursor] == UInt8(ascii: ">") else { return false }
        line += Self.lineEnds(buffer + spaces, count: cursor - spaces)
        position = cursor + 1
        openCount -= 1
        scanner.endElement()
        return true
    }

    /// `<!-- … -->` with no `--` inside.
    private mutating func comment() -> Bool {
        var cursor = position + 4
        while true {
            // Four bytes ahead: `-->`, or a whole UTF-8 sequence.
            while cursor + 3 >= end && !atEndOfFile {
                let offset = cursor - position
                guard more() else { return false }
                cursor = position + offset
            }
            guard cursor + 2 < end else { return false }
            let byte = buffer[cursor]
            if byte == UInt8(ascii: "-") && buffer[cursor + 1] == UInt8(ascii: "-") {
                guard buffer[cursor + 2] == UInt8(ascii: ">") else { return false }
                cursor += 3
                break
            }
            if byte < 0x20 {
                guard byte == 0x0A || byte == 0x09 else { return false }
                if byte == 0x0A { line += 1 }
                cursor += 1
            } else if byte < 0x80 {
                cursor += 1
            } else {
                let length = Self.utf8Length(buffer + cursor, available: end - cursor)
                guard length > 0 else { return false }
                cursor += length
            }
        }
        position = cursor
        return true
    }

    // MARK: Text

    /// Character data up to the next markup or reference, in pieces as the bytes are read.
    private mutating func text() -> Bool {
        var cursor = position
        while true {
            while classes[Int(buffer[cursor])] & Self.plainInText != 0 { cursor += 1 }
            let byte = buffer[cursor]
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { break }
            if cursor >= end {
                // The 0 after the bytes read.
                if atEndOfFile { break }
                guard refill(&cursor) else { return false }
            } else if byte == 0x0A {
                line += 1
                cursor += 1
            } else if byte == UInt8(ascii: "]") {
                if cursor + 2 >= end && !atEndOfFile {
                    guard refill(&cursor) else { return false }
                    continue
                }
                if cursor + 2 < end && buffer[cursor + 1] == UInt8(ascii: "]") && buffer[cursor + 2] == UInt8(ascii: ">") { return false }
                cursor += 1
            } else if byte >= 0x80 {
                let length = Self.utf8Length(buffer + cursor, available: end - cursor)
                if length < 0 && !atEndOfFile {
                    guard refill(&cursor) else { return false }
                    continue
                }
                guard length > 0 else { return false }
                cursor += length
            } else {
                // A control character or CR.
                return false
            }
        }
        deliverText(upTo: cursor)
        return true
    }

    /// Passes on the text before `cursor` and reads more; `cursor` is then where it was in the text.
    private mutating func refill(_ cursor: inout Int) -> Bool {
        deliverText(upTo: cursor)
        guard more() else { return false }
        cursor = position
        return true
    }

    private mutating func deliverText(upTo cursor: Int) {
        guard cursor > position else { return }
        scanner.text(buffer + position, count: cursor - position, cdata: false)
        position = cursor
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;` or `&apos;`, passed on as its character (as libxml2 does).
    private mutating func reference() -> Bool {
        _ = ensure(6)
        for (name, character) in Self.entities where end - position >= name.count {
            if name.withUnsafeBufferPointer({ memcmp(buffer + position, $0.baseAddress!, name.count) == 0 }) {
                var byte = character
                scanner.text(&byte, count: 1, cdata: false)
                position += name.count
                return true
            }
        }
        return false
    }

    private static let entities: [([UInt8], UInt8)] = [
        (Array("&amp;".utf8), UInt8(ascii: "&")), (Array("&lt;".utf8), UInt8(ascii: "<")), (Array("&gt;".utf8), UInt8(ascii: ">")),
        (Array("&quot;".utf8), UInt8(ascii: "\"")), (Array("&apos;".utf8), UInt8(ascii: "'")),
    ]

    // MARK: Bytes

    /// Reads more of the file after what is there (moving the unread bytes to the front, or growing
    /// the buffer); false at the end of the file or on an error.
    private mutating func more() -> Bool {
        guard !atEndOfFile else { return false }
        if position > 0 {
            memmove(buffer, buffer + position, end - position)
            end -= position
            position = 0
            buffer[end] = 0
        }
        if end == capacity {
            // A single token larger than the buffer (a long text is passed on in pieces, never this).
            guard capacity < 64 << 20 else { return false }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2 + 1)
            grown.initialize(from: buffer, count: end + 1)
            buffer.deallocate()
            buffer = grown
            capacity *= 2
        }
        let count = read(buffer + end, capacity - end)
        if count < 0 {
            readFailed = true
            atEndOfFile = true
            return false
        }
        if count == 0 {
            atEndOfFile = true
            return false
        }
        end += count
        buffer[end] = 0
        return true
    }

    /// Makes `count` bytes available from `position` if the file has them; false only on a read error.
    @inline(__always)
    private mutating func ensure(_ count: Int) -> Bool {
        if end - position >= count { return true }
        while end - position < count && !atEndOfFile { _ = more() }
        return !readFailed
    }

    private mutating func skipSpaces() -> Bool {
        while true {
            while position < end && Self.isSpace(buffer[position]) {
                if buffer[position] == 0x0A { line += 1 }
                position += 1
            }
            if position < end || atEndOfFile { return !readFailed }
            guard more() || !readFailed else { return false }
        }
    }

    private func startsWith(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        return end - position >= count && memcmp(buffer + position, literal.utf8Start, count) == 0
    }

    /// The offset of `first` followed by `second`, from `position`, reading more as needed.
    private mutating func find(_ first: UInt8, then second: UInt8) -> Int? {
        var cursor = position
        while true {
            while cursor + 1 < end {
                if buffer[cursor] == first && buffer[cursor + 1] == second { return cursor }
                cursor += 1
            }
            let offset = cursor - position
            guard more() else { return nil }
            cursor = position + offset
        }
    }

    /// Where the name starting at `start` ends: its end offset, 0 when there is no name or it has a
    /// byte the accepted names do not, -1 when it runs to the end of what was read.
    @inline(__always)
    private func scanName(from start: Int) -> Int {
        guard classes[Int(buffer[start])] & Self.nameStart != 0 else { return start >= end ? -1 : 0 }
        var cursor = start + 1
        while classes[Int(buffer[cursor])] & Self.nameByte != 0 { cursor += 1 }
        guard cursor < end else { return -1 }
        let next = buffer[cursor]
        // `:` (a prefix) and non-ASCII names are libxml2's.
        guard next != UInt8(ascii: ":") && next < 0x80 else { return 0 }
        return cursor
    }

    /// The name's interned pointer, from the cache of names seen when there.
    @inline(__always)
    private func intern(from start: Int, to stop: Int) -> UnsafePointer<xmlChar> {
        let length = stop - start
        let slot = Int((UInt(buffer[start]) &* 31 &+ UInt(buffer[stop - 1]) &* 7 &+ UInt(length)) & 255)
        if let cached = internedNames[slot], Self.equal(cached, buffer + start, length), cached[length] == 0 { return cached }
        guard let name = xmlDictLookup(dictionary, buffer + start, Int32(length)) else {
            preconditionFailure("libxml2 could not intern an XML name")
        }
        internedNames[slot] = name
        return name
    }

    // Byte classes (`table`), for the scanning loops; the 0 after the bytes read is in none.
    private static let plainInText: UInt8 = 1, plainInValue: UInt8 = 2, nameStart: UInt8 = 4, nameByte: UInt8 = 8
    /// `nonisolated(unsafe)`: written once, when first used (a `static let` is initialized once), then only read.
    nonisolated(unsafe) private static let table: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        table.initialize(repeating: 0, count: 256)
        for byte in 0x20...0x7F {
            let character = UInt8(byte)
            var bits: UInt8 = 0
            if character != UInt8(ascii: "<") && character != UInt8(ascii: "&") && character != UInt8(ascii: "]") { bits |= plainInText }
            if character != UInt8(ascii: "<") && character != UInt8(ascii: "&") && character != UInt8(ascii: "\"") && character != UInt8(ascii: "'") {
                bits |= plainInValue
            }
            if isNameStart(character) { bits |= nameStart | nameByte }
            if isNameByte(character) { bits |= nameByte }
            table[byte] = bits
        }
        table[0x09] = plainInText
        return UnsafePointer(table)
    }()

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09
    }

    @inline(__always)
    private static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
    }

    @inline(__always)
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// Whether `count` bytes at `a` and `b` are equal (names are short: no call to `memcmp`).
    @inline(__always)
    private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for index in 0..<count where a[index] != b[index] { return false }
        return true
    }

    private static func lineEnds(_ bytes: UnsafePointer<UInt8>, count: Int) -> Int {
        var lines = 0
        for index in 0..<count where bytes[index] == 0x0A { lines += 1 }
        return lines
    }

    /// The length of the valid UTF-8 sequence of a valid XML character at `bytes` (a lead byte ≥ 0x80):
    /// 2–4; 0 when invalid (or U+FFFE, U+FFFF); -1 when it runs past `available`.
    @inline(__always)
    private static func utf8Length(_ bytes: UnsafePointer<UInt8>, available: Int) -> Int {
        let length = UTF8Validation.scalarLength(bytes, available: available)
        // U+FFFE and U+FFFF are not XML characters.
        if length == 3 && bytes[0] == 0xEF && bytes[1] == 0xBF && bytes[2] >= 0xBE { return 0 }
        return length
    }
}
