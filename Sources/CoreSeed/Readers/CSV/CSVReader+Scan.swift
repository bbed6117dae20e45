/// The byte-level tokenizer: finds one record's fields in the buffer without copying them.
extension CSVReader {
    enum ScanResult {
        /// A record was found; the next one starts at `next`, `lines` line breaks later.
        case record(next: Int, lines: Int)
        /// Only line breaks remain before the end of the file.
        case endOfInput
        /// The record runs past the buffered bytes: read more and scan it again.
        case needMore
        case failure(ReaderError.Reason, offset: Int)
    }

    /// Scans the record starting at `start`, filling `fields` and `fieldCount`.
    /// Restartable: on `.needMore` nothing has been consumed.
    func scanRecord(trimming: Bool) -> ScanResult {
        var table = FieldTable(fields: fields, capacity: fieldCapacity)
        let result = scan(trimming: trimming, table: &table)
        if table.fields != fields {
            fields = table.fields
            fieldCapacity = table.capacity
        }
        fieldCount = table.count
        return result
    }

    /// The fields found so far, in locals while scanning.
    struct FieldTable {
        // SAFETY: the reader's `fields`, moved into a local for the scan and handed back after it; one owner at a time.
        var fields: UnsafeMutablePointer<FieldSpan>
        var capacity: Int
        var count = 0

        @inline(__always)
        mutating func append(start: Int, end: Int, flags: UInt8, column: Int) {
            if count == capacity {
                // SAFETY: the old table is moved into the new one, then freed; nothing else points into it.
                let grown = UnsafeMutablePointer<FieldSpan>.allocate(capacity: capacity * 2)
                grown.moveInitialize(from: fields, count: count)
                fields.deallocate()
                fields = grown
                capacity *= 2
            }
            (fields + count).initialize(to: FieldSpan(start: start, end: end, column: column, flags: flags))
            count += 1
        }
    }

    private func scan(trimming: Bool, table: inout FieldTable) -> ScanResult {
        let p = buffer
        let end = self.end
        let eof = self.eof
        let delimiter = options.delimiter
        let quote = options.quote
        var i = start
        var lineStart = start
        var lines = 0

        // Only line breaks left before the end of the file: trailing empty lines are skipped.
        if i < end && (p[i] == 10 || p[i] == 13) {
            var j = i
            while j < end && (p[j] == 10 || p[j] == 13) { j += 1 }
            if j == end { return eof ? .endOfInput : .needMore }
        } else if i == end {
            return eof ? .endOfInput : .needMore
        }

        while true {
            if trimming {
                while i < end && (p[i] == 32 || p[i] == 9) { i += 1 }
            }
            let column = i - lineStart + 1
            var contentStart = i
            var contentEnd: Int
            var flags: UInt8 = 0
            if i < end && p[i] == quote {
                let quoteOffset = i
                i += 1
                contentStart = i
                var accumulated: UInt8 = 0
                while true {
                    if i == end { return eof ? .failure(.unterminatedQuote, offset: quoteOffset) : .needMore }
                    let byte = p[i]
                    if byte == quote {
                        if i + 1 == end && !eof { return .needMore }
                        if i + 1 < end && p[i + 1] == quote {
                            flags |= Self.hasDoubledQuotes
                            i += 2
                            continue
                        }
                        break
                    }
                    if byte == 10 {
                        lines += 1
                        lineStart = i + 1
                    } else if byte == 13 {
                        if i + 1 == end && !eof { return .needMore }
                        if i + 1 < end && p[i + 1] == 10 { i += 1 }
                        lines += 1
                        lineStart = i + 1
                    }
                    accumulated |= byte
                    i += 1
                }
                contentEnd = i
                i += 1
                flags |= Self.wasQuoted
                if accumulated & 0x80 != 0 { flags |= Self.hasNonASCII }
                if trimming {
                    while i < end && (p[i] == 32 || p[i] == 9) { i += 1 }
                }
                if i < end {
                    let byte = p[i]
                    if byte != delimiter && byte != 10 && byte != 13 {
                        return .failure(.characterAfterQuote(byte), offset: i)
                    }
                } else if !eof {
                    return .needMore
                }
            } else {
                var accumulated: UInt8 = 0
                while i < end {
                    let byte = p[i]
                    if byte == delimiter || byte == 10 || byte == 13 { break }
                    accumulated |= byte
                    i += 1
                }
                if i == end && !eof { return .needMore }
                contentEnd = i
                if accumulated & 0x80 != 0 { flags |= Self.hasNonASCII }
                if trimming {
                    while contentEnd > contentStart && (p[contentEnd - 1] == 32 || p[contentEnd - 1] == 9) { contentEnd -= 1 }
                }
            }
            table.append(start: contentStart, end: contentEnd, flags: flags, column: column)

            if i == end { return .record(next: end, lines: lines) }
            let byte = p[i]
            if byte == delimiter {
                i += 1
                continue
            }
            if byte == 10 { return .record(next: i + 1, lines: lines + 1) }
            // byte == 13
            if i + 1 == end && !eof { return .needMore }
            let next = (i + 1 < end && p[i + 1] == 10) ? i + 2 : i + 1
            return .record(next: next, lines: lines + 1)
        }
    }

    /// Line and column of a buffer offset inside the current record (error paths only).
    func position(of offset: Int) -> (line: Int, column: Int) {
        var line = recordLine
        var lineStart = start
        var i = start
        while i < offset && i < end {
            let byte = buffer[i]
            if byte == 10 {
                line += 1
                lineStart = i + 1
            } else if byte == 13 {
                if i + 1 < end && buffer[i + 1] == 10 { i += 1 }
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        return (line, offset - lineStart + 1)
    }
}
