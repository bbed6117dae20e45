/// One source record as pass 2 reads it: a `Record`, or a reader's fields as bytes in place.
///
/// The byte form lets the common values (text, integers, dates; see ``ValueCoercer/coerceFast(_:)``)
/// go from the reader's buffer into a row batch with no `String` made; anything else — a value the
/// fast path leaves alone, a message, a duplicate key — asks for the `Record`.
protocol RowInput {
    /// The record (made on first use when the input is bytes).
    mutating func record() throws -> Record
    /// Appends `fill`'s value when the fast path can decide it; false when the general path must.
    func appendFast(_ fill: AttributeFill, to batch: inout RowBatch) -> Bool
    /// Adds the one-field key in `field` to `index` when it is an integer seen for the first time;
    /// false otherwise (not an integer key, or a duplicate), for the full check to decide.
    func insertIfIntegerKey(field: Int, into index: RowProducer.SharedKeyIndex) -> Bool
}

/// A record from any reader.
struct RecordInput: RowInput {
    let full: Record

    init(record: Record) {
        full = record
    }

    func record() -> Record { full }

    @inline(__always)
    func appendFast(_ fill: AttributeFill, to batch: inout RowBatch) -> Bool {
        guard fill.constant == nil, let field = fill.fieldIndex else { return false }
        switch full.values[field] {
        case .text(var text): return text.withUTF8 { FastFill.append(.text($0), fill, to: &batch) }
        case .integer(let number): return FastFill.append(.integer(number), fill, to: &batch)
        case .null, .real, .blob, .list: return false
        }
    }

    @inline(__always)
    func insertIfIntegerKey(field: Int, into index: RowProducer.SharedKeyIndex) -> Bool {
        guard let number = NaturalKey.integer(full.values[field]) else { return false }
        return index.keys.insert(integer: number)
    }
}

/// The current record of a reader that shows its fields in place (``FieldViewReader``).
struct FieldViewInput<Reader: FieldViewReader>: RowInput {
    let reader: Reader
    private var made: Record?

    init(reader: Reader) {
        self.reader = reader
    }

    mutating func record() throws -> Record {
        if let made { return made }
        let record = try reader.currentRecord()
        made = record
        return record
    }

    @inline(__always)
    func appendFast(_ fill: AttributeFill, to batch: inout RowBatch) -> Bool {
        guard fill.constant == nil, let field = fill.fieldIndex else { return false }
        return FastFill.append(reader.fieldView(field), fill, to: &batch)
    }

    @inline(__always)
    func insertIfIntegerKey(field: Int, into index: RowProducer.SharedKeyIndex) -> Bool {
        guard let number = NaturalKey.integer(reader.fieldView(field)) else { return false }
        return index.keys.insert(integer: number)
    }
}

/// The fast path both inputs share: a field's value appended to a row batch when
/// ``ValueCoercer/coerceFast(_:)`` (text) or ``ValueCoercer/acceptsFast(integer:)`` decides it.
enum FastFill {
    @inline(__always)
    static func append(_ view: FieldView, _ fill: AttributeFill, to batch: inout RowBatch) -> Bool {
        switch view {
        case .text(let bytes):
            guard let value = fill.coercer.coerceFast(bytes) else { return false }
            // A default replaces blank text, even for String attributes: the general path decides.
            if fill.defaultValue != nil && AttributeFill.isBlank(bytes) { return false }
            switch value {
            case .integer(let number): batch.values.append(.integer(number))
            case .real(let number): batch.values.append(.real(number))
            case .sameText: batch.appendText(bytes)
            }
            return true
        case .integer(let number):
            guard fill.coercer.acceptsFast(integer: number) else { return false }
            batch.values.append(.integer(number))
            return true
        case .null, .real, .other:
            return false
        }
    }
}
