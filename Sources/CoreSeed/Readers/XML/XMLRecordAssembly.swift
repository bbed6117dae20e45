/// The values of the record the scanner is inside, and the batch of records it joins when its end
/// tag is seen (see ``XMLRecordBatch``). A field's first value goes straight into its slot (text
/// into the batch's bytes); later ones (a repeated element) wait as values until the record ends,
/// when each field gets its one value, its picked one (`[n]`), or the list of them.
///
/// Plain memory, reused from record to record and freed when it goes (`~Copyable`); owned by one scanner.
struct XMLRecordAssembly: ~Copyable {
    /// A batch is handed over at this many records, or sooner once its text passes `batchBytes`.
    static let batchRecords = 256
    static let batchBytes = 1 << 20

    let fieldCount: Int
    /// Per field: the 1-based value it picks (`[n]`), or 0 for all of them.
    /// SAFETY: picks, valueCounts and moreValues: allocated in init, freed in deinit (~Copyable: one owner).
    private let picks: UnsafeMutablePointer<Int>
    /// Per field: how many values the current record has for it.
    private let valueCounts: UnsafeMutablePointer<Int>
    /// Per field: its later values in the current record. The first is in the record's `row`.
    private let moreValues: UnsafeMutablePointer<[FieldValue]>

    /// The batch in progress: `recordCount` records of `fieldCount` slots each, their start lines,
    /// their text, and the values that are neither text nor an integer.
    private var bytes = XMLByteBuffer(capacity: 16 << 10)
    // SAFETY: slots, lines, positions: the batch in progress; handed to the batch made from them, then allocated anew.
    private var slots: UnsafeMutablePointer<XMLRecordBatch.Slot>
    private var lines: UnsafeMutablePointer<Int>
    /// Per slot: where the value's text starts in the document (0 lines when not known).
    private var positions: UnsafeMutablePointer<XMLRecordBatch.Position>
    private var others: [FieldValue] = []
    private var recordCount = 0
    /// The current record's row of `slots`, and of `positions`.
    /// SAFETY: row and positionRow point into `slots` and `positions`, moved on with them.
    private var row: UnsafeMutablePointer<XMLRecordBatch.Slot>
    private var positionRow: UnsafeMutablePointer<XMLRecordBatch.Position>

    /// `picks`: per field, the 1-based value it picks, nil for all of them.
    init(picks: [Int?]) {
        fieldCount = picks.count
        self.picks = .allocate(capacity: max(fieldCount, 1))
        self.picks.initialize(from: picks.map { $0 ?? 0 }, count: fieldCount)
        valueCounts = .allocate(capacity: max(fieldCount, 1))
        valueCounts.initialize(repeating: 0, count: fieldCount)
        moreValues = .allocate(capacity: max(fieldCount, 1))
        moreValues.initialize(repeating: [], count: fieldCount)
        slots = .allocate(capacity: Self.batchRecords * max(fieldCount, 1))
        lines = .allocate(capacity: Self.batchRecords)
        positions = .allocate(capacity: Self.batchRecords * max(fieldCount, 1))
        row = slots
        positionRow = positions
    }

    deinit {
        moreValues.deinitialize(count: fieldCount)
        moreValues.deallocate()
        picks.deallocate()
        valueCounts.deallocate()
        slots.deallocate()
        lines.deallocate()
        positions.deallocate()
    }

    /// Starts a record: no field has a value yet (the last record's were all taken).
    mutating func startRecord() {
        row = slots + recordCount * fieldCount
        positionRow = positions + recordCount * fieldCount
        positionRow.initialize(repeating: XMLRecordBatch.Position(), count: fieldCount)
    }

    /// Ends the record that started at `line`; true when the batch is now full (take it).
    mutating func endRecord(line: Int) -> Bool {
        for field in 0..<fieldCount { row[field] = takeSlot(of: field) }
        lines[recordCount] = line
        recordCount += 1
        return recordCount == Self.batchRecords || bytes.count >= Self.batchBytes
    }

    /// The records completed so far as a batch (nil when there are none); a new batch starts.
    mutating func takeBatch() -> XMLRecordBatch? {
        guard recordCount > 0 else { return nil }
        let batch = XMLRecordBatch(count: recordCount, fieldCount: fieldCount, bytes: exchange(&bytes, with: XMLByteBuffer(capacity: 16 << 10)),
                                   slots: slots, lines: lines, positions: positions, others: others)
        slots = .allocate(capacity: Self.batchRecords * max(fieldCount, 1))
        lines = .allocate(capacity: Self.batchRecords)
        positions = .allocate(capacity: Self.batchRecords * max(fieldCount, 1))
        others = []
        recordCount = 0
        row = slots
        positionRow = positions
        return batch
    }

    // MARK: Values

    /// Adds a value to `field`.
    mutating func add(_ value: FieldValue, to field: Int) {
        let count = valueCounts[field]
        if count == 0 {
            row[field] = slot(for: value)
        } else {
            Self.append(value, to: moreValues + field)
        }
        valueCounts[field] = count + 1
    }

    /// Adds `length` bytes of `buffer` from `start` as text to `field`; its first value's `position`
    /// is kept for messages.
    @inline(__always)
    mutating func addText(_ buffer: borrowing XMLByteBuffer, from start: Int, count length: Int, to field: Int,
                          at position: XMLRecordBatch.Position = XMLRecordBatch.Position()) {
        let count = valueCounts[field]
        if count == 0 {
            positionRow[field] = position
            row[field] = .text(bytes.count, length)
            bytes.appendCopy(of: buffer, from: start, count: length)
        } else {
            Self.append(.text(buffer.string(from: start, count: length)), to: moreValues + field)
        }
        valueCounts[field] = count + 1
    }

    /// Adds the value of attribute `name` of `tag` to `field`, when the tag has it.
    @inline(__always)
    mutating func addAttribute(_ name: XMLAttributeName, of tag: XMLStartTag, to field: Int,
                               at position: XMLRecordBatch.Position = XMLRecordBatch.Position()) {
        let count = valueCounts[field]
        if count == 0 {
            let start = bytes.count
            guard tag.appendValue(of: name, to: &bytes) else { return }
            positionRow[field] = position
            row[field] = .text(start, bytes.count - start)
        } else {
            guard let value = tag.value(of: name) else { return }
            Self.append(.text(value), to: moreValues + field)
        }
        valueCounts[field] = count + 1
    }

    private mutating func slot(for value: FieldValue) -> XMLRecordBatch.Slot {
        switch value {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .text(let text):
            let start = bytes.count
            bytes.append(text)
            return .text(start, bytes.count - start)
        case .real, .blob, .list:
            others.append(value)
            return .other(others.count - 1)
        }
    }

    // A field's later values are changed only through these two: Swift 6.3 with ThreadSanitizer
    // (`swift test --sanitize=thread`) fails to compile an in-place change through the pointer
    // (`moreValues[field].append(…)`) inside this `~Copyable` struct's methods ("Invalid bitcast").
    // SAFETY: an element of `moreValues`, which this assembly owns; modified during the call only.
    private static func append(_ value: FieldValue, to values: UnsafeMutablePointer<[FieldValue]>) {
        values.pointee.append(value)
    }

    // SAFETY: as `append`.
    private static func empty(_ values: UnsafeMutablePointer<[FieldValue]>) {
        values.pointee.removeAll(keepingCapacity: true)
    }

    /// The record's value of `field` (one value, the picked one, or a list), leaving it none.
    private mutating func takeSlot(of field: Int) -> XMLRecordBatch.Slot {
        let count = valueCounts[field]
        guard count > 0 else { return .null }
        valueCounts[field] = 0
        let first = row[field]
        let pick = picks[field]
        if count == 1 { return pick <= 1 ? first : .null }
        defer { Self.empty(moreValues + field) }
        switch pick {
        case 0: return slot(for: .list([XMLRecordBatch.value(first, bytes: bytes, others: others)] + moreValues[field]))
        case 1: return first
        default: return pick <= count ? slot(for: moreValues[field][pick - 2]) : .null
        }
    }
}
