import Foundation

/// Reads one `ENTITY.json` that `coreseed export --format json` wrote, a row at a time: the export
/// writes `[`, then one object per line (each but the last ending in `,`), then `]`, so a large
/// store is compared without its export loaded whole.
final class ExportFile {
    /// One exported row: its `pk` (`Z_PK`) and its members in the export's order.
    struct Row {
        let pk: Int64
        let members: [(key: String, value: JSONValue)]
        /// The 1-based line in the file, for messages.
        let line: Int

        subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }
    }

    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var line = 0
    private var sawOpening = false
    private var sawClosing = false

    /// The export's key column, its first: `pk`, unless the entity has a property of that name
    /// (then `_pk` or `Z_PK`); known after the first row.
    private(set) var keyName: String?

    init(path: String) throws(CheckFailure) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .failed("\(path): cannot open the export") }
        self.path = path
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// The next row, or nil after the closing `]`. Throws for a line that is not a row.
    func next() throws(CheckFailure) -> Row? {
        while let text = nextLine() {
            line += 1
            var bytes = text[...]
            while let last = bytes.last, last == 0x20 || last == 0x0D { bytes = bytes.dropLast() }
            if bytes.last == UInt8(ascii: ",") { bytes = bytes.dropLast() }
            if bytes.isEmpty { continue }
            if !sawOpening {
                guard bytes.elementsEqual([UInt8(ascii: "[")]) else { throw .failed("\(path):\(line): the export does not start with '['") }
                sawOpening = true
                continue
            }
            if bytes.elementsEqual([UInt8(ascii: "]")]) { sawClosing = true; return nil }
            let lineText = String(decoding: bytes, as: UTF8.self)
            guard case .object(let members)? = JSONValue.parse(lineText) else {
                throw .failed("\(path):\(line): not one JSON object per line, as export writes rows")
            }
            guard let key = members.first, key.key == (keyName ?? key.key), case .number(let text) = key.value, let pk = Int64(text) else {
                throw .failed("\(path):\(line): the row does not start with its key ('pk', a whole number)")
            }
            keyName = key.key
            return Row(pk: pk, members: members, line: line)
        }
        guard sawClosing else { throw .failed("\(path): the export ends before its closing ']'") }
        return nil
    }

    /// The next line's bytes without its newline; nil at the end of the file.
    private func nextLine() -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let text = Array(buffer[start..<newline])
                start = newline + 1
                return text
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let text = Array(buffer[start...])
                start = buffer.count
                return text
            }
            buffer.removeFirst(start)
            start = 0
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        }
    }

    /// Reads every row, returning how many (the Linux half's check that the export is whole).
    func countRows() throws(CheckFailure) -> Int {
        var count = 0
        var previous: Int64 = .min
        while let row = try next() {
            guard row.pk > previous else { throw .failed("\(path):\(row.line): pk \(row.pk) after \(previous): export writes rows in Z_PK order") }
            previous = row.pk
            count += 1
        }
        return count
    }
}

/// How `coreseed export` writes values (Sources/CoreSeed/Export/ExportValue.swift), read back.
enum ExportText {
    /// Seconds since 1970 of 2001-01-01T00:00:00Z.
    static let referenceOffset: Int64 = 978_307_200

    /// Seconds since 2001-01-01T00:00:00Z of `2010-03-26T04:00:00.125Z` (export's ISO 8601 form,
    /// always UTC, a fraction of up to 9 digits), computed as the build's reader computes it —
    /// whole seconds plus digits / 10^count — so that it equals the stored `Double` exactly.
    static func secondsSinceReference(iso8601 text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.last == UInt8(ascii: "Z"), let t = bytes.firstIndex(of: UInt8(ascii: "T")) else { return nil }
        let datePart = String(decoding: bytes[..<t], as: UTF8.self)
        var timePart = String(decoding: bytes[(t + 1)..<(bytes.count - 1)], as: UTF8.self)
        var fraction = ""
        if let dot = timePart.firstIndex(of: ".") {
            fraction = String(timePart[timePart.index(after: dot)...])
            timePart = String(timePart[..<dot])
        }
        // A negative year has a leading '-': split the last two '-' only.
        var dateFields = datePart.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        if datePart.hasPrefix("-"), dateFields.count == 4 { dateFields = ["-" + dateFields[1], dateFields[2], dateFields[3]] }
        let time = timePart.split(separator: ":").compactMap { Int64($0) }
        guard dateFields.count == 3, let year = Int64(dateFields[0]), let month = Int64(dateFields[1]), let day = Int64(dateFields[2]),
              (1...12).contains(month), (1...31).contains(day), time.count == 3,
              fraction.count <= 9, fraction.allSatisfy(\.isNumber) else { return nil }
        let unix = days(year: year, month: month, day: day) * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]
        let whole = Double(unix - referenceOffset)
        guard !fraction.isEmpty, let digits = Int64(fraction) else { return whole }
        var scale = 1.0
        for _ in 0..<fraction.count { scale *= 10 }
        return whole + Double(digits) / scale
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
