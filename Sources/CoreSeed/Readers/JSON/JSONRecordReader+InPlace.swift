import Foundation

/// The in-place path of the JSON reader (``FieldViewReader``), for the build's fast path: when every
/// field is a key path into the record (`name`, `address.city`), a record is read member by member
/// straight into slots — text bytes in one buffer, integers as integers — with no tree and no `String`;
/// a `Record` is made only when asked. It reads and refuses exactly what `next()` does.
extension JSONRecordReader: FieldViewReader {
    var readsRaw: Bool { direct != nil }

    func nextRaw() throws(ReaderError) -> Bool {
        guard let direct else { return false }
        guard let level = try moveToNextRecord() else {
            try checkEveryFieldFound()
            return false
        }
        try raw.read(from: scanner, direct: direct, names: fieldNames)
        if !unseen.isEmpty { noteFound(raw.wasFound) }
        if segments == nil { try endLine() }
        raw.key = levels[level].key
        return true
    }

    func fieldView(_ index: Int) -> FieldView {
        raw.view(index)
    }

    func currentRecord() throws(ReaderError) -> Record {
        raw.record(file: scanner.file)
    }

    /// For each first key of the fields' paths, the fields that start with it and the rest of their
    /// path; nil when a field is not a key path into the record (`#`, `../x`, `tags[0]`, `lines[].sku`).
    static func directPlan(_ fields: [JSONFieldPath]) -> [String: [(field: Int, rest: [JSONFieldPath.Step])]]? {
        var plan: [String: [(field: Int, rest: [JSONFieldPath.Step])]] = [:]
        for (index, field) in fields.enumerated() {
            guard field.up == 0, case .steps(let steps) = field.target, case .key(let first)? = steps.first,
                  steps.allSatisfy({ if case .key = $0 { true } else { false } }) else { return nil }
            plan[first, default: []].append((index, Array(steps.dropFirst())))
        }
        return plan
    }
}

/// The in-place path's current record: a slot per field, the text bytes in one buffer (kept until the
/// next record), where each value was. Not `Sendable`: owned by one reader.
///
/// Its mutable properties are `@exclusivity(unchecked)`: the reader is used from one thread and no
/// method of it is re-entered, so Swift's run-time exclusivity checks (a thread-local look-up on every
/// property access, a sixth of a JSON build's time) can never find anything here.
final class JSONRawRecord {
    enum Slot {
        case null
        case integer(Int64)
        case text(start: Int, count: Int)
        /// A list (an array of values): shown as `.other`, in the `Record` as it is.
        case list(FieldValue)
    }

    // SAFETY: the reader's thread only; no method re-enters another (readFlat reads the scanner's buffer, another object, while it writes these).
    @exclusivity(unchecked) private var slots: [Slot] = []
    @exclusivity(unchecked) private var lines: [Int] = []
    @exclusivity(unchecked) private var columns: [Int] = []
    @exclusivity(unchecked) private var text = UnsafeMutablePointer<UInt8>.allocate(capacity: 4096)
    @exclusivity(unchecked) private var textCount = 0
    @exclusivity(unchecked) private var textCapacity = 4096
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    @exclusivity(unchecked) private var seen: [String] = []
    /// Flat records' keys, for ``readFlat``: the key's bytes and its field; nil when a field needs more.
    @exclusivity(unchecked) private var flat: [(key: [UInt8], field: Int)]??
    @exclusivity(unchecked) private var keySpans: [(start: Int, count: Int)] = []
    @exclusivity(unchecked) private var line = 0, column = 0
    /// A field's error found before the record's end: thrown once the whole record was read (a syntax
    /// error later in it comes first, as with `next()`), the first field's in field order.
    /// SAFETY: the reader's thread only; no method re-enters another (readFlat reads the scanner's buffer, another object, while it writes these).
    @exclusivity(unchecked) private var deferred: (field: Int, error: ReaderError)?
    @exclusivity(unchecked) var key: String?

    deinit { text.deallocate() }

    private func append(_ bytes: [UInt8]) -> Slot {
        // An empty array may have no storage at all: nothing to copy.
        guard !bytes.isEmpty else { return .text(start: textCount, count: 0) }
        // SAFETY: copied into `text` inside the closure; `bytes` is not empty, so `baseAddress` is set.
        return bytes.withUnsafeBufferPointer { append($0.baseAddress!, $0.count) }
    }

    private func store(_ value: FieldValue, field: Int) {
        switch value {
        case .null: slots[field] = .null
        case .integer(let number): slots[field] = .integer(number)
        case .text(let string): slots[field] = append(Array(string.utf8))
        case .real, .blob, .list: slots[field] = .list(value)
        }
    }

    /// Reads the record at the scanner's cursor into the slots.
    func read(from scanner: JSONScanner, direct: [String: [(field: Int, rest: [JSONFieldPath.Step])]],
              names: [String]) throws(ReaderError) {
        if slots.count != names.count {
            slots = Array(repeating: .null, count: names.count)
            lines = Array(repeating: 0, count: names.count)
            columns = lines
        } else {
            for field in slots.indices {
                slots[field] = .null
                lines[field] = 0
                columns[field] = 0
            }
        }
        textCount = 0
        deferred = nil
        defer { deferred = nil }
        try scanner.skipSpace()
        (line, column) = (scanner.line, scanner.column)
        if flat == nil {
            flat = direct.allSatisfy({ $0.value.count == 1 && $0.value[0].rest.isEmpty })
                ? direct.map { (Array($0.key.utf8), $0.value[0].field) } : .some(nil)
        }
        if let flat = flat ?? nil {
            if scanner.readAhead({ bytes, line, lineStart, offset in readFlat(bytes, flat, line, lineStart, offset) }) { return }
            for field in slots.indices { (slots[field], lines[field], columns[field]) = (.null, 0, 0) }
            textCount = 0
        }
        guard try scanner.peek() == UInt8(ascii: "{") else {
            _ = try scanner.parseValue()  // not an object: no key path finds anything, as with next()
            return
        }
        scanner.advance()
        try scanner.skipSpace()
        if try scanner.peek() == UInt8(ascii: "}") { scanner.advance(); return }
        seen.removeAll(keepingCapacity: true)
        var seenSet = Set<String>()
        while true {
            try scanner.skipSpace()
            let (keyLine, keyColumn) = (scanner.line, scanner.column)
            let key = try scanner.parseKey()
            let repeated = seen.count < 16 ? seen.contains(key) : !seenSet.insert(key).inserted
            guard !repeated else { throw ReaderError(.jsonDuplicateKey(key), at: scanner.location(line: keyLine, column: keyColumn)) }
            seen.append(key)
            if seen.count == 16 { seenSet = Set(seen) }
            try scanner.skipSpace()
            let (valueLine, valueColumn) = (scanner.line, scanner.column)
            if let users = direct[key] {
                if users.count == 1, users[0].rest.isEmpty {
                    try readScalar(scanner, field: users[0].field, name: names[users[0].field], line: valueLine, column: valueColumn)
                } else {
                    let node = try scanner.parseValue(depth: 1)  // inside the record, as next() reads it
                    for user in users {
                        do {
                            let (value, place) = try JSONFieldPath.evaluate(node, user.rest[...], name: names[user.field], file: scanner.file)
                            store(value, field: user.field)
                            (lines[user.field], columns[user.field]) = place ?? (0, 0)
                        } catch {
                            postpone(error, field: user.field)
                        }
                    }
                }
            } else if let byte = try scanner.peek(), byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                _ = try scanner.parseValue(depth: 1)  // checked as next() checks it (repeated keys, depth)
            } else {
                try scanner.skipValue()
            }
            if try scanner.endOfMembers("}") { break }
        }
        if let deferred { throw deferred.error }
    }

    private func postpone(_ error: ReaderError, field: Int) {
        if deferred == nil || field < deferred!.field { deferred = (field, error) }
    }

    /// The common record, read from the buffered bytes in one pass over locals: an object of ASCII
    /// keys whose values are plain strings (no escapes), numbers, booleans or null, wholly in the buffer.
    /// Anything else (an escape, a nested value, a repeated key, the buffer's end, a syntax error)
    /// returns nil and the record is read again by the general path, which says what is wrong.
    /// SAFETY: `bytes` is the scanner's buffer inside its `readAhead`; values are copied into `text` (`append`), never kept as views.
    private func readFlat(_ bytes: UnsafeBufferPointer<UInt8>, _ flat: [(key: [UInt8], field: Int)],
                          _ startLine: Int, _ startLineStart: Int, _ offset: Int) -> (taken: Int, line: Int, lineStart: Int)? {
        let n = bytes.count
        guard n > 0, bytes[0] == UInt8(ascii: "{"), let base = bytes.baseAddress else { return nil }
        var i = 1, line = startLine, lineStart = startLineStart
        keySpans.removeAll(keepingCapacity: true)
        func space() { JSONRawRecord.skipSpace(bytes, &i, &line, &lineStart, offset) }
        space()
        if i < n, bytes[i] == UInt8(ascii: "}") { return (i + 1, line, lineStart) }
        while true {
            space()
            guard i < n, bytes[i] == UInt8(ascii: "\"") else { return nil }
            let keyStart = i + 1
            var j = keyStart
            while j < n {
                let byte = bytes[j]
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { return nil }
                j += 1
            }
            guard j < n else { return nil }
            let keyCount = j - keyStart
            for span in keySpans where span.count == keyCount && memcmp(base + span.start, base + keyStart, keyCount) == 0 { return nil }
            keySpans.append((keyStart, keyCount))
            i = j + 1
            space()
            guard i < n, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            space()
            guard i < n else { return nil }
            let (valueLine, valueColumn) = (line, offset + i - lineStart + 1)
            var field: Int?
            for entry in flat where entry.key.count == keyCount {
                // SAFETY: both views are compared inside the closure; `keyCount > 0` makes `baseAddress` non-nil.
                let same = keyCount == 0 || entry.key.withUnsafeBufferPointer { key in memcmp(key.baseAddress!, base + keyStart, keyCount) == 0 }
                if same {
                    field = entry.field
                    break
                }
            }
            let first = bytes[i]
            if first == UInt8(ascii: "\"") {
                let start = i + 1
                var end = start, ascii = true
                while end < n {
                    let byte = bytes[end]
                    if byte == UInt8(ascii: "\"") { break }
                    if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
                    if byte >= 0x80 { ascii = false }
                    end += 1
                }
                guard end < n, ascii || UTF8Validation.firstInvalidOffset(base + start, count: end - start) == nil else { return nil }
                if let field { slots[field] = append(base + start, end - start) }
                i = end + 1
            } else if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                return nil
            } else {
                let start = i
                var end = i
                while end < n, bytes[end] > 0x20, bytes[end] != UInt8(ascii: ","), bytes[end] != UInt8(ascii: "}"),
                      bytes[end] != UInt8(ascii: "]") { end += 1 }
                guard end < n else { return nil }
                // SAFETY: a sub-view of `bytes`, used inside this call only.
                let word = UnsafeBufferPointer(start: base + start, count: end - start)
                let value: Slot
                if word.elementsEqual("null".utf8) { value = .null }
                else if word.elementsEqual("true".utf8) || word.elementsEqual("false".utf8) { value = append(base + start, end - start) }
                else if JSONScanner.isNumber(word) { value = JSONRawRecord.integer(word).map(Slot.integer) ?? append(base + start, end - start) }
                else { return nil }
                if let field { slots[field] = value }
                i = end
            }
            if let field { (lines[field], columns[field]) = (valueLine, valueColumn) }
            space()
            guard i < n else { return nil }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { return (i + 1, line, lineStart) }
            return nil
        }
    }

    /// Moves `i` past spaces, tabs, CRs and line feeds in `bytes` (the buffer from file offset
    /// `offset`), counting lines: what the in-place readers skip between tokens.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    @inline(__always)
    static func skipSpace(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ line: inout Int, _ lineStart: inout Int, _ offset: Int) {
        let n = bytes.count
        while i < n {
            let byte = bytes[i]
            if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                i += 1
            } else if byte == 0x0A {
                i += 1
                line += 1
                lineStart = offset + i
            } else {
                return
            }
        }
    }

    /// A JSON number's value when it is an integer that fits 64 bits (what `next()` makes an integer).
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    private static func integer(_ word: UnsafeBufferPointer<UInt8>) -> Int64? {
        var value: Int64 = 0
        var index = 0
        let negative = word.first == UInt8(ascii: "-")
        if negative { index = 1 }
        guard index < word.count else { return nil }
        while index < word.count {
            let digit = word[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }  // a point or an exponent: not an integer
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? times.subtractingReportingOverflow(Int64(digit)) : times.addingReportingOverflow(Int64(digit))
            guard !overflow, !overflow2 else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// Copies `count` bytes into the text buffer.
    /// SAFETY: copies `count` bytes from `bytes` during the call; growing `text` frees the old block, which no view outlives (views last until the next record).
    private func append(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Slot {
        if textCount + count > textCapacity {
            let capacity = max(textCapacity * 2, textCount + count)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: text, count: textCount)
            text.deallocate()
            text = grown
            textCapacity = capacity
        }
        (text + textCount).update(from: bytes, count: count)
        defer { textCount += count }
        return .text(start: textCount, count: count)
    }

    /// A member that is a field's whole value, straight into its slot.
    private func readScalar(_ scanner: JSONScanner, field: Int, name: String, line: Int, column: Int) throws(ReaderError) {
        (lines[field], columns[field]) = (line, column)
        guard try scanner.peek() != nil else { throw scanner.error("a value is missing at the end of the file") }
        switch try scanner.peek() {
        case UInt8(ascii: "\""):
            scratch.removeAll(keepingCapacity: true)
            try scanner.scanString(into: &scratch, keep: true)
            slots[field] = append(scratch)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let node = try scanner.parseValue(depth: 1)
            do {
                store(try JSONFieldPath.scalar(node, name: name, file: scanner.file), field: field)
            } catch {
                postpone(error, field: field)
            }
        default:
            switch try scanner.parseScalar() {
            case .null: slots[field] = .null
            case .boolean(let flag): slots[field] = append(Array((flag ? "true" : "false").utf8))
            case .number(let text):
                if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let number = Int64(text) {
                    slots[field] = .integer(number)
                } else {
                    slots[field] = append(Array(text.utf8))
                }
            default: slots[field] = .null
            }
        }
    }

    /// Whether the current record had a value (even `null`) at field `index`'s path.
    func wasFound(_ index: Int) -> Bool { lines[index] != 0 }

    func view(_ index: Int) -> FieldView {
        switch slots[index] {
        case .null: .null
        case .integer(let number): .integer(number)
        // SAFETY: a view of `text`, valid until the next record is read (FieldViewReader says so).
        case .text(let start, let count): .text(UnsafeBufferPointer(start: text + start, count: count))
        case .list: .other
        }
    }

    /// The record as `next()` makes it.
    func record(file: String) -> Record {
        let values: [FieldValue] = slots.map { slot in
            switch slot {
            case .null: .null
            case .integer(let number): .integer(number)
            // SAFETY: copied into a String at once.
            case .text(let start, let count): .text(String(decoding: UnsafeBufferPointer(start: text + start, count: count), as: UTF8.self))
            case .list(let value): value
            }
        }
        var record = Record(location: SourceLocation(file: file, line: line, column: column), values: values)
        record.fieldLines = lines
        record.fieldColumns = columns
        return record
    }
}
