/// One source record as both passes read it: a reader's fields as bytes in place (the core), or a
/// `Record` (for readers that do not show their fields in place).
///
/// The byte form lets the common values (text, integers, dates: the row mapping's fast path,
/// `RowMapping.swift`) and integer keys go from the reader's buffer to where they are needed
/// with no `String` made;
/// anything else — a value the fast path leaves alone, a message, a duplicate key — asks for the `Record`.
protocol RowInput {
    /// The record (made on first use when the input is bytes).
    mutating func record() throws -> Record
    /// Appends `fill`'s value when the row mapping's fast path decides it (``RowMapping/appendFast(_:_:to:)``
    /// on the field as this input holds it); false when the general path must.
    func appendFast(_ fill: AttributeFill, to batch: inout RowBatch) -> Bool
    /// Whether the fast path decides `fill`'s value (the key pass's check, nothing appended).
    func acceptsFast(_ fill: AttributeFill) -> Bool
    /// The one-field key in `field` when it is a canonical integer (no text made); nil otherwise.
    func integerKey(field: Int) -> Int64?
    /// Whether `field` is blank: NULL, empty, or only spaces and tabs.
    func isBlank(field: Int) -> Bool
    /// A computed field that failed on this record (tolerated; the value checks reject the record).
    var computeFailure: ReaderError? { get }
}

extension RowInput {
    /// Adds the one-field key in `field` to `index` when it is an integer seen for the first time;
    /// false otherwise (not an integer key, or a duplicate), for the full check to decide.
    @inline(__always)
    func insertIfIntegerKey(field: Int, into index: RowProducer.SharedKeyIndex) -> Bool {
        guard let number = integerKey(field: field) else { return false }
        return index.keys.insert(integer: number)
    }
}

/// Something that takes the records of a source one by one, as `RowInput`s (the key pass, the row pass).
protocol RowInputVisitor {
    /// Takes one record; false to stop reading.
    mutating func visit<Input: RowInput>(_ input: inout Input) throws -> Bool
}

extension RecordReader {
    /// Hands every record to `visitor`, in place when the reader shows its fields in place
    /// (``FieldViewReader``), else as `Record`s; false when the visitor stopped early.
    ///
    /// Each in-place reader is taken by its own type, so that the visitor's per-field path is compiled
    /// for it (no generic dispatch per field): the one place that knows the reader types.
    func visitRows<Visitor: RowInputVisitor>(_ visitor: inout Visitor) throws -> Bool {
        return try visitRows(&visitor, toleratingComputeFailures: false)
    }

    /// ``visitRows(_:)``; with `toleratingComputeFailures`, a computed field that fails on a record
    /// marks it (``RowInput/computeFailure``) instead of stopping the reading (`--max-errors`).
    func visitRows<Visitor: RowInputVisitor>(_ visitor: inout Visitor, toleratingComputeFailures: Bool) throws -> Bool {
        if toleratingComputeFailures { (self as? ComputedFieldsReader)?.toleratesFailures = true }
        func inPlace<Reader: FieldViewReader>(_ reader: Reader) throws -> Bool {
            while try reader.nextRaw() {
                var input = FieldViewInput(reader: reader)
                guard try visitor.visit(&input) else { return false }
            }
            return true
        }
        if let csv = self as? CSVReader, csv.readsRaw { return try inPlace(csv) }
        if let xml = self as? XMLRecordReader, xml.readsRaw { return try inPlace(xml) }
        if let table = self as? SQLiteRecordReader, table.readsRaw { return try inPlace(table) }
        if let json = self as? JSONRecordReader, json.readsRaw { return try inPlace(json) }
        if let computed = self as? ComputedFieldsReader, computed.readsRaw { return try inPlace(computed) }
        while let record = try next() {
            var input = RecordInput(record: record)
            guard try visitor.visit(&input) else { return false }
        }
        return true
    }
}

/// A record from any reader.
struct RecordInput: RowInput {
    let full: Record

    init(record: Record) {
        full = record
    }

    func record() -> Record { full }

    var computeFailure: ReaderError? { full.computeFailure }

    @inline(__always)
    func appendFast(_ fill: AttributeFill, to batch: inout RowBatch) -> Bool {
        guard fill.constant == nil, let field = fill.fieldIndex else { return false }
        switch full.values[field] {
        case .text(var text): return text.withUTF8 { RowMapping.appendFast(.text($0), fill, to: &batch) }
        case .integer(let number): return RowMapping.appendFast(.integer(number), fill, to: &batch)
        case .null, .real, .blob, .list: return false
        }
    }

    @inline(__always)
    func acceptsFast(_ fill: AttributeFill) -> Bool {
        guard fill.constant == nil, let field = fill.fieldIndex else { return false }
        switch full.values[field] {
        case .text(var text): return text.withUTF8 { RowMapping.acceptsFast(.text($0), fill) }
        case .integer(let number): return RowMapping.acceptsFast(.integer(number), fill)
        case .null, .real, .blob, .list: return false
        }
    }

    @inline(__always)
    func integerKey(field: Int) -> Int64? { NaturalKey.integer(full.values[field]) }

    func isBlank(field: Int) -> Bool {
        if case .null = full.values[field] { return true }
        return AttributeFill.isBlank(full.values[field])
    }
}

/// The current record of a reader that shows its fields in place (``FieldViewReader``).
struct FieldViewInput<Reader: FieldViewReader>: RowInput {
    let reader: Reader
    private var made: Record?

    init(reader: Reader) {
        self.reader = reader
    }

    var computeFailure: ReaderError? { reader.currentFailure }

    mutating func record() throws -> Record {
        if let made { return made }
        let record = try reader.currentRecord()
        made = record
        return record
    }

    @inline(__always)
    func appendFast(_ fill: AttributeFill, to batch: inout RowBatch) -> Bool {
        guard fill.constant == nil, let field = fill.fieldIndex else { return false }
        return RowMapping.appendFast(reader.fieldView(field), fill, to: &batch)
    }

    @inline(__always)
    func acceptsFast(_ fill: AttributeFill) -> Bool {
        guard fill.constant == nil, let field = fill.fieldIndex else { return false }
        return RowMapping.acceptsFast(reader.fieldView(field), fill)
    }

    @inline(__always)
    func integerKey(field: Int) -> Int64? { NaturalKey.integer(reader.fieldView(field)) }

    func isBlank(field: Int) -> Bool {
        switch reader.fieldView(field) {
        case .null: true
        case .text(let bytes): AttributeFill.isBlank(bytes)
        case .integer, .real, .other: false
        }
    }
}
