/// A run of converted rows on their way from the reading thread to the SQLite thread (through a
/// `BatchHandoff`): `values` holds each row's parameters back to back; text and blob bytes live in
/// `bytes`, so that SQLite can bind them in place (`SQLITE_STATIC`) while the batch is alive, with no
/// string to allocate, copy or release per value on the SQLite thread.
///
/// A value bound for an external file travels as its bytes (``Value/external(start:count:file:)``):
/// the SQLite side writes the file and binds the reference (``RowWriter``), so the reading thread
/// does no file I/O.
struct RowBatch: Sendable {
    enum Value: Sendable {
        case null
        case integer(Int64)
        case real(Double)
        case text(start: Int32, count: Int32)
        case blob(start: Int32, count: Int32)
        /// Bytes above an attribute's `externalAbove`: stored in a file named after `files[file]`,
        /// the column holding Core Data's reference to it.
        case external(start: Int32, count: Int32, file: Int32)
    }

    /// Where an external value's file goes: its UUID is derived from the table, column, `Z_PK` and bytes.
    struct ExternalFile: Sendable {
        let table: String
        let column: String
        let primaryKey: Int64
    }

    /// Per row: which statement, how many values.
    var rows: [(statement: Int32, count: Int32)] = []
    var values: [Value] = []
    var bytes: [UInt8] = []
    /// The files of the batch's ``Value/external(start:count:file:)`` values.
    var files: [ExternalFile] = []

    init(capacity: Int = 0) {
        rows.reserveCapacity(capacity)
        values.reserveCapacity(capacity * 8)
        bytes.reserveCapacity(capacity * 64)
    }

    /// Appends text given as UTF-8 bytes (copied into `bytes`).
    @inline(__always)
    // SAFETY: copies `text` into `bytes` during the call; keeps no pointer to it.
    mutating func appendText(_ text: UnsafeBufferPointer<UInt8>) {
        let start = bytes.count
        bytes.append(contentsOf: text)
        values.append(.text(start: Int32(start), count: Int32(text.count)))
    }

    @inline(__always)
    mutating func append(_ value: SQLiteValue) {
        switch value {
        case .null: values.append(.null)
        case .integer(let number): values.append(.integer(number))
        case .real(let number): values.append(.real(number))
        case .text(var text):
            let start = bytes.count
            // SAFETY: the UTF-8 view is copied into `bytes` inside the closure.
            text.withUTF8 { bytes.append(contentsOf: $0) }
            values.append(.text(start: Int32(start), count: Int32(bytes.count - start)))
        case .blob(let blob):
            let start = bytes.count
            bytes.append(contentsOf: blob)
            values.append(.blob(start: Int32(start), count: Int32(blob.count)))
        }
    }

    /// Appends an external-storage Binary's bytes inline, after Core Data's `0x01` marker.
    @inline(__always)
    mutating func appendInline(_ blob: [UInt8]) {
        let start = bytes.count
        bytes.append(ExternalBinary.inlineMarker)
        bytes.append(contentsOf: blob)
        values.append(.blob(start: Int32(start), count: Int32(blob.count + 1)))
    }

    /// Appends bytes bound for an external file (written by the SQLite side, ``RowWriter``).
    mutating func appendExternal(_ blob: [UInt8], file: ExternalFile) {
        let start = bytes.count
        bytes.append(contentsOf: blob)
        values.append(.external(start: Int32(start), count: Int32(blob.count), file: Int32(files.count)))
        files.append(file)
    }
}
