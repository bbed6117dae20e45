/// Records the scanner completed, handed from the parsing thread to the reader in one piece: all
/// their text in one run of bytes, and per record and field a slot saying where its value is. A
/// field is shown in place (``FieldView``) from here; a `Record` with `String`s is made only when asked.
///
/// `@unchecked Sendable`: written only by the scanner before it is handed over, read only after.
/// SAFETY: immutable once made: the scanner fills it before `put`, and the reader only reads it after `take`.
final class XMLRecordBatch: @unchecked Sendable {
    /// Where one field's value of one record is.
    struct Slot {
        /// The text's first byte in `bytes`, the integer, or the index in `others`.
        var start: Int
        /// The text's length (≥ 0), or one of the kinds below.
        var count: Int

        static let null = Slot(start: 0, count: -1)
        static func other(_ index: Int) -> Slot { Slot(start: index, count: -2) }
        static func integer(_ value: Int64) -> Slot { Slot(start: Int(value), count: -3) }
        static func text(_ start: Int, _ count: Int) -> Slot { Slot(start: start, count: count) }
    }

    /// Where a field's value starts in the document: the line and column libxml2 was at when the
    /// element holding it began (its text follows), or 0 when not known (a value from above the record).
    struct Position {
        var line: Int32 = 0
        var column: Int32 = 0
    }

    let count: Int
    let fieldCount: Int
    private let bytes: XMLByteBuffer
    /// `count × fieldCount`, record by record.
    /// SAFETY: slots, lines and positions are handed over by the assembly in init and freed in deinit: the batch owns them.
    private let slots: UnsafeMutablePointer<Slot>
    /// Per record, its start tag's line.
    private let lines: UnsafeMutablePointer<Int>
    /// `count × fieldCount`: where each value starts.
    private let positions: UnsafeMutablePointer<Position>
    /// Values that are neither text nor an integer (lists).
    private let others: [FieldValue]

    /// Takes over `bytes` (freed with the batch), `slots`, `lines` and `positions` (it frees them).
    /// SAFETY: takes ownership of the three blocks (the assembly allocates new ones for its next batch).
    init(count: Int, fieldCount: Int, bytes: consuming XMLByteBuffer, slots: UnsafeMutablePointer<Slot>, lines: UnsafeMutablePointer<Int>,
         positions: UnsafeMutablePointer<Position>, others: [FieldValue]) {
        self.positions = positions
        self.count = count
        self.fieldCount = fieldCount
        self.bytes = bytes
        self.slots = slots
        self.lines = lines
        self.others = others
    }

    deinit {
        slots.deallocate()
        lines.deallocate()
        positions.deallocate()
    }

    /// Record `index`'s slots, one per field (valid while the batch lives).
    /// SAFETY: valid while the batch lives: the reader keeps the batch in `batch` while it uses the row.
    func row(_ index: Int) -> UnsafePointer<Slot> {
        UnsafePointer(slots + index * fieldCount)
    }

    /// The bytes text slots point into (valid while the batch lives).
    /// SAFETY: valid while the batch lives (the reader holds it).
    var text: UnsafePointer<UInt8> {
        UnsafePointer(bytes.base)
    }

    /// A slot's value in place. libxml2 passes only well-formed UTF-8 (it refuses a document with
    /// any other byte sequence), so text is valid UTF-8.
    @inline(__always)
    // SAFETY: `text` is a batch's bytes, which the caller holds while it reads the view.
    static func view(_ slot: Slot, text: UnsafePointer<UInt8>) -> FieldView {
        switch slot.count {
        // SAFETY: a view of the batch's bytes, valid while the reader holds the batch (until the next record).
        case 0...: return .text(UnsafeBufferPointer(start: text + slot.start, count: slot.count))
        case -1: return .null
        case -3: return .integer(Int64(slot.start))
        default: return .other
        }
    }

    /// Record `index` as `next()` returns it.
    func record(_ index: Int, file: SourceLocation) -> Record {
        var location = file
        location.line = lines[index]
        var values: [FieldValue] = []
        values.reserveCapacity(fieldCount)
        for field in 0..<fieldCount { values.append(Self.value(slots[index * fieldCount + field], bytes: bytes, others: others)) }
        // SAFETY: a view of this batch, read inside this call.
        let places = UnsafeBufferPointer(start: positions + index * fieldCount, count: fieldCount)
        var record = Record(location: location, values: values)
        if places.contains(where: { $0.line > 0 }) {
            record.fieldLines = places.map { Int($0.line) }
            record.fieldColumns = places.map { Int($0.column) }
        }
        return record
    }

    /// A slot's value, its text made a `String`.
    static func value(_ slot: Slot, bytes: borrowing XMLByteBuffer, others: [FieldValue]) -> FieldValue {
        switch slot.count {
        case 0...: return .text(bytes.string(from: slot.start, count: slot.count))
        case -1: return .null
        case -3: return .integer(Int64(slot.start))
        default: return others[slot.start]
        }
    }
}
