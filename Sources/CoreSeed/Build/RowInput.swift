/// One source record as pass 2 reads it: a `Record`, or a reader's fields as bytes in place.
///
/// The byte form lets the common values (text, integers, dates; see ``ValueCoercer/coerceFast(_:)``)
/// go from the reader's buffer into a row batch with no `String` made; anything else — a value the
/// fast path leaves alone, a message, a duplicate key — asks for the `Record`.
protocol RowInput {
    /// The record (made on first use when the input is bytes).
    mutating func record() throws -> Record
    /// Appends `fill`'s value when the fast path can decide it; false when the general path must.
    func appendFast(_ fill: AttributeFill, to batch: inout RowPipe.Batch) -> Bool
    /// Adds the one-field key in `field` to `index` when it is an integer seen for the first time;
    /// false otherwise (not an integer key, or a duplicate), for the full check to decide.
    func insertIfIntegerKey(field: Int, into index: SeedBuild.SharedKeyIndex) -> Bool
}

/// A record from any reader.
struct RecordInput: RowInput {
    let full: Record

    init(record: Record) {
        full = record
    }

    func record() -> Record { full }

    @inline(__always)
    func appendFast(_ fill: AttributeFill, to batch: inout RowPipe.Batch) -> Bool { false }

    @inline(__always)
    func insertIfIntegerKey(field: Int, into index: SeedBuild.SharedKeyIndex) -> Bool {
        guard let number = NaturalKey.integer(full.values[field]) else { return false }
        return index.keys.insert(integer: number)
    }
}

/// The current record of a CSV reader, read as bytes (``CSVReader/nextRaw()``).
struct CSVFieldInput: RowInput {
    let reader: CSVReader
    private var made: Record?

    init(reader: CSVReader) {
        self.reader = reader
    }

    mutating func record() throws -> Record {
        if let made { return made }
        let record = try reader.currentRecord()
        made = record
        return record
    }

    @inline(__always)
    func appendFast(_ fill: AttributeFill, to batch: inout RowPipe.Batch) -> Bool {
        guard fill.constant == nil, let field = fill.fieldIndex, let bytes = reader.rawField(field),
              let value = fill.coercer.coerceFast(bytes) else { return false }
        // A default replaces blank text, even for String attributes: the general path decides.
        if fill.defaultValue != nil && bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return false }
        switch value {
        case .integer(let number): batch.values.append(.integer(number))
        case .real(let number): batch.values.append(.real(number))
        case .sameText: batch.appendText(bytes)
        }
        return true
    }

    @inline(__always)
    func insertIfIntegerKey(field: Int, into index: SeedBuild.SharedKeyIndex) -> Bool {
        guard let bytes = reader.rawField(field), let number = KeyIndex.canonicalInteger(bytes: ASCII.trimmed(bytes)) else { return false }
        return index.keys.insert(integer: number)
    }
}
