/// Streams records from a CSV file: RFC 4180 with any single-byte delimiter and quote, CRLF, LF or
/// CR line ends, line breaks and doubled quotes inside quoted fields, and a choice of encodings.
///
/// The file is read in 1 MiB chunks into one buffer that is reused; a record is tokenized in place
/// and only its field values become `String`s. Memory is bounded by the buffer and the longest
/// record (at most `maximumRecordSize`).
///
/// Locations: each record is at column 1 of its first line; `fieldColumns` are 1-based byte
/// columns of each field's first byte (its opening quote, if quoted) counted in the UTF-8 text,
/// which are the file's byte columns for UTF-8 input.
///
/// Trimming removes spaces and tabs around unquoted fields and outside the quotes of quoted ones;
/// a quoted field's content is kept exactly. An empty field is `.text("")`.
///
/// Not `Sendable`: it owns a file descriptor and buffers, and advances by mutation.
public final class CSVReader: RecordReader, ProjectableReader {
    static let hasDoubledQuotes: UInt8 = 1
    static let hasNonASCII: UInt8 = 2
    static let wasQuoted: UInt8 = 4
    /// A field a short row does not have (`ragged`): NULL.
    static let isMissing: UInt8 = 8
    /// The longest record accepted, in UTF-8 bytes.
    public static let maximumRecordSize = 64 << 20

    public private(set) var fieldNames: [String] = []
    /// The file as given, used in every location.
    public let path: String
    let options: CSVOptions
    private let source: CSVByteSource
    private let validatesUTF8: Bool

    // SAFETY: owned by the reader (freed in deinit); views into it (`rawField`) last until the next `nextRaw()`, which may move it.
    var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Where the current record starts, and the end of buffered data.
    var start = 0
    var end = 0
    var eof = false
    private var sourceFailure: ReaderError.Reason?
    /// The line the current record starts on.
    var recordLine = 1

    /// Where the current record's fields are in `buffer`. Held as raw memory and copied into locals by
    /// the scanner, so that the per-field work pays no exclusivity checks on class properties.
    struct FieldSpan {
        var start: Int
        var end: Int
        var column: Int
        var flags: UInt8
    }
    // SAFETY: owned by the reader (freed in deinit); only the scanner grows it, between records.
    var fields: UnsafeMutablePointer<FieldSpan>
    var fieldCapacity = 64
    var fieldCount = 0
    /// Which fields to decode; nil for all.
    private var wanted: [Bool]?

    private var failure: ReaderError?
    private var finished = false
    var rawState = RawState.notStarted
    // SAFETY: owned by the reader (freed in deinit); a view into it lasts until the next unescape (`rawField` says so).
    private var scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    private var scratchCapacity = 256
    private var pending: Record?
    private var expectedCount = 0

    /// Opens `path` and reads the header row (or, without a header, the first row to count fields).
    public init(path: String, options: CSVOptions = CSVOptions(), bufferSize: Int = 1 << 20) throws(ReaderError) {
        self.path = path
        self.options = options
        source = try CSVByteSource(path: path, encoding: options.encoding, chunkSize: bufferSize)
        validatesUTF8 = source.encoding == .utf8
        capacity = max(bufferSize, 64)
        buffer = .allocate(capacity: capacity)
        fields = .allocate(capacity: fieldCapacity)
        if let names = options.names {
            // The spec names the fields: the first row is data, read like every other.
            fieldNames = names
            expectedCount = names.count
            return
        }
        guard let first = try nextFields(trimming: options.header ? options.trim.trimsHeader : options.trim.trimsValues) else {
            if options.header { throw ReaderError(.emptyFile, at: SourceLocation(file: path, line: 1, column: 1)) }
            finished = true
            return
        }
        expectedCount = fieldCount
        if options.header {
            var seen = Set<String>()
            let names = first.map { value -> String in
                if case .text(let text) = value { return text }
                return ""
            }
            for index in 0..<fieldCount {
                let name = names[index]
                guard seen.insert(name).inserted else {
                    throw ReaderError(.duplicateHeader(name), at: SourceLocation(file: path, line: 1, column: fields[index].column))
                }
            }
            fieldNames = names
            advance()
        } else {
            fieldNames = (1...fieldCount).map(String.init)
            pending = makeRecord(first)
            advance()
        }
    }

    deinit {
        buffer.deallocate()
        fields.deallocate()
        scratch.deallocate()
    }

    public func next() throws(ReaderError) -> Record? {
        if let failure { throw failure }
        if let record = pending {
            pending = nil
            return record
        }
        if rawState == .onRecord {
            advance()
            rawState = .between
        }
        if finished { return nil }
        do throws(ReaderError) {
            guard var values = try nextFields(trimming: options.trim.trimsValues) else {
                finished = true
                return nil
            }
            if fieldCount != expectedCount {
                try fitFieldCount()
                values += repeatElement(.null, count: fieldCount - values.count)
            }
            let record = makeRecord(values)
            advance()
            return record
        } catch {
            failure = error
            throw error
        }
    }

    /// A row with another field count than the header's: with `ragged`, a short one gets its missing
    /// fields (NULL); otherwise, or when it is long, an error.
    private func fitFieldCount() throws(ReaderError) {
        guard options.ragged, fieldCount < expectedCount else {
            throw ReaderError(.fieldCount(found: fieldCount, expected: expectedCount, fromHeader: options.header || options.names != nil),
                              at: SourceLocation(file: path, line: recordLine, column: 1))
        }
        var table = FieldTable(fields: fields, capacity: fieldCapacity, count: fieldCount)
        while table.count < expectedCount { table.append(start: 0, end: 0, flags: Self.isMissing, column: 0) }
        fields = table.fields
        fieldCapacity = table.capacity
        fieldCount = table.count
    }

    private func makeRecord(_ values: [FieldValue]) -> Record {
        Record(location: SourceLocation(file: path, line: recordLine, column: 1),
               values: values,
               fieldColumns: (0..<fieldCount).map { [fields] in fields[$0].column })
    }

    func setProjection(_ wanted: [Bool]) {
        self.wanted = wanted
    }

    /// The line count of the scanned record, applied by `advance()` once it is handed out.
    private var scannedNext = 0
    private var scannedLines = 0

    private func advance() {
        start = scannedNext
        recordLine += scannedLines
    }

    /// Scans the next record (reading more as needed) and decodes its fields; nil at the end.
    private func nextFields(trimming: Bool) throws(ReaderError) -> [FieldValue]? {
        guard try scanNext(trimming: trimming) else { return nil }
        return try decodeFields()
    }

    /// Scans the next record (reading more as needed) into `fields`; false at the end.
    private func scanNext(trimming: Bool) throws(ReaderError) -> Bool {
        if let comment = options.comment { try skipCommentLines(comment) }
        while true {
            switch scanRecord(trimming: trimming) {
            case .record(let next, let lines):
                scannedNext = next
                scannedLines = lines
                return true
            case .endOfInput:
                return false
            case .failure(let reason, let offset):
                let (line, column) = position(of: offset)
                throw ReaderError(reason, at: SourceLocation(file: path, line: line, column: column))
            case .needMore:
                if let sourceFailure {
                    let (line, column) = position(of: end)
                    throw ReaderError(sourceFailure, at: SourceLocation(file: path, line: line, column: column))
                }
                try readMore()
            }
        }
    }

    /// Moves `start` past the lines that begin with `comment` (reading more as needed).
    private func skipCommentLines(_ comment: UInt8) throws(ReaderError) {
        while sourceFailure == nil {
            if start == end {
                if eof { return }
                try readMore()
                continue
            }
            guard buffer[start] == comment else { return }
            var i = start
            while i < end && buffer[i] != 10 && buffer[i] != 13 { i += 1 }
            if i == end || (buffer[i] == 13 && i + 1 == end) {
                if eof {
                    start = end
                    return
                }
                try readMore()
                continue
            }
            if buffer[i] == 13 && buffer[i + 1] == 10 { i += 1 }
            start = i + 1
            recordLine += 1
        }
    }

    /// Keeps the current record's bytes, moves them to the front (growing the buffer for a record
    /// longer than it) and appends the next chunk.
    private func readMore() throws(ReaderError) {
        if start > 0 {
            let kept = end - start
            if kept > 0 { buffer.update(from: buffer + start, count: kept) }
            end = kept
            start = 0
        }
        if capacity - end < 4 {
            guard capacity < Self.maximumRecordSize else {
                throw ReaderError(.recordTooLarge(Self.maximumRecordSize), at: SourceLocation(file: path, line: recordLine, column: 1))
            }
            // SAFETY: grows between records, when no view into the old buffer is out (nextRaw has moved on).
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            grown.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = grown
            capacity *= 2
        }
        do {
            let count = try source.fill(buffer + end, capacity: capacity - end)
            if count == 0 { eof = true }
            end += count
        } catch {
            sourceFailure = error.reason
        }
    }

    /// Refuses the scanned record when a field is not valid UTF-8 (only fields with non-ASCII bytes are looked at).
    private func validateFields() throws(ReaderError) {
        guard validatesUTF8 else { return }
        let fields = self.fields, buffer = self.buffer
        for index in 0..<fieldCount {
            let span = fields[index]
            if span.flags & Self.hasNonASCII != 0,
               let bad = UTF8Validation.firstInvalidOffset(buffer + span.start, count: span.end - span.start) {
                let (line, column) = position(of: span.start + bad)
                throw ReaderError(.invalidUTF8(buffer[span.start + bad]), at: SourceLocation(file: path, line: line, column: column))
            }
        }
    }

    private func decodeFields() throws(ReaderError) -> [FieldValue] {
        try validateFields()
        var values: [FieldValue] = []
        let count = fieldCount, fields = self.fields, buffer = self.buffer
        values.reserveCapacity(count)
        let wanted = self.wanted
        let nullIfUnquotedEmpty = options.nullIfUnquotedEmpty
        for index in 0..<count {
            let span = fields[index]
            let from = span.start, to = span.end, flags = span.flags
            if let wanted, index < wanted.count, !wanted[index] {
                values.append(.null)
            } else if from == to && (flags & Self.isMissing != 0 || (nullIfUnquotedEmpty && flags & Self.wasQuoted == 0)) {
                values.append(.null)
            } else if flags & Self.hasDoubledQuotes != 0 {
                values.append(.text(unescapedString(from: from, to: to)))
            } else {
                // SAFETY: a view of the current record, copied into a String at once.
                values.append(.text(String(decoding: UnsafeBufferPointer(start: buffer + from, count: to - from), as: UTF8.self)))
            }
        }
        return values
    }

    /// Where ``nextRaw()`` stands.
    enum RawState {
        case notStarted, between, onRecord
    }

    /// A quoted field's content without its doubled quotes, in `scratch` (valid until the next call).
    /// SAFETY: the view returned lasts until the next call (which may reallocate `scratch`); callers copy or read it first.
    func unescapeToScratch(from: Int, to: Int) -> UnsafeBufferPointer<UInt8> {
        if scratchCapacity < to - from {
            scratch.deallocate()
            scratchCapacity = max(to - from, scratchCapacity * 2)
            scratch = .allocate(capacity: scratchCapacity)
        }
        let quote = options.quote
        var i = from, count = 0
        while i < to {
            let byte = buffer[i]
            scratch[count] = byte
            count += 1
            i += (byte == quote) ? 2 : 1
        }
        // SAFETY: valid until the next unescape; see the SAFETY note above.
        return UnsafeBufferPointer(start: scratch, count: count)
    }

    private func unescapedString(from: Int, to: Int) -> String {
        String(decoding: unescapeToScratch(from: from, to: to), as: UTF8.self)
    }
}

/// Fields as bytes, for the build's fast path: a record is scanned and validated as by `next()`, but
/// its fields are read in place as UTF-8 bytes, and a `Record` (with its `String`s) is made only when
/// asked for — for a message, or a value the fast path leaves to the general one.
extension CSVReader: FieldViewReader {
    /// Whether ``nextRaw()`` may be used: from the first record on, with a header row (without one, the
    /// first record was read to count the fields and is handed out by `next()`), or with the spec's names.
    var readsRaw: Bool { (options.header || options.names != nil) && rawState == .notStarted }

    /// Moves to the next record; false at the end. Its fields stay readable through ``rawField(_:)``
    /// and ``currentRecord()`` until the next call. Not to be mixed with `next()`.
    func nextRaw() throws(ReaderError) -> Bool {
        if let failure { throw failure }
        if rawState == .onRecord { advance() }
        rawState = .between
        if finished { return false }
        do throws(ReaderError) {
            guard try scanNext(trimming: options.trim.trimsValues) else {
                finished = true
                return false
            }
            try validateFields()
            if fieldCount != expectedCount { try fitFieldCount() }
            rawState = .onRecord
            return true
        } catch {
            failure = error
            throw error
        }
    }

    /// The UTF-8 bytes of field `index` of the current record, or nil when the field reads as NULL
    /// (an unquoted empty field with `nullIfUnquotedEmpty`). A field with doubled quotes is unescaped
    /// into a scratch buffer that the next call reuses: use the bytes before asking for another field.
    /// SAFETY: a view of `buffer` or `scratch`, valid until the next `nextRaw()` or `rawField`; the build reads each at once.
    func rawField(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        let span = fields[index]
        if span.start == span.end
            && (span.flags & Self.isMissing != 0 || (options.nullIfUnquotedEmpty && span.flags & Self.wasQuoted == 0)) { return nil }
        guard span.flags & Self.hasDoubledQuotes != 0 else {
            return UnsafeBufferPointer(start: buffer + span.start, count: span.end - span.start)
        }
        return unescapeToScratch(from: span.start, to: span.end)
    }

    func fieldView(_ index: Int) -> FieldView {
        rawField(index).map { .text($0) } ?? .null
    }

    /// The current record as `next()` would have returned it.
    func currentRecord() throws(ReaderError) -> Record {
        makeRecord(try decodeFields())
    }
}
