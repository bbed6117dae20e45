/// Reads records from a JSON document (`records`: a path to the values that are records) or from a
/// JSON Lines file (one value per line), streaming: only the record at hand is held in memory.
///
/// `records` is `/` then object keys, with `*` for every element of an array (or every value of an
/// object): `/*`, `/items/*`, `/countries/*/cities/*`. Fields are paths into a record: `name`,
/// `address.city`, `tags[0]`, `tags` (an array: a list, feeding a to-many relationship), `lines[].sku`
/// (one value per element), `#` (the 1-based position among the records), `$key` (the member's key
/// when records are an object's values), and `../name`, `../#`, `../$key` for the enclosing record of
/// a nested path (its members that come before the nested array). Without `fields`, every key of any
/// record is a field (nested objects as `a.b`; ``keysOfEveryRecord(path:file:records:)``). Numbers keep their text unless they are integers.
///
/// Its mutable properties are `@exclusivity(unchecked)`: the reader is used from one thread and no
/// method of it is re-entered, so Swift's run-time exclusivity checks (a thread-local look-up on every
/// property access, a sixth of a JSON build's time) can never find anything here.
final class JSONRecordReader: RecordReader {
    private(set) var fieldNames: [String] = []
    let scanner: JSONScanner
    /// The records path, nil for JSON Lines.
    let segments: [String]?
    private(set) var fields: [JSONFieldPath] = []
    /// Per `*` of the path: the enclosing record's members seen so far, key and position.
    /// SAFETY: the reader's thread only; no method of it re-enters another while it touches these.
    @exclusivity(unchecked) private(set) var levels: [(members: [String: JSONNode], key: String?, position: Int)]
    /// The in-place path's current record, and its plan (``JSONRecordReader+InPlace``); nil when a
    /// field needs the whole record.
    let raw = JSONRawRecord()
    @exclusivity(unchecked) private(set) var direct: [String: [(field: Int, rest: [JSONFieldPath.Step])]]?
    @exclusivity(unchecked) private var frames: [Frame] = []
    @exclusivity(unchecked) private var started = false
    /// The spec's fields that no record read so far has (their path found nothing), and how many
    /// records were read: at the end, a field no record had is an error (``checkEveryFieldFound()``).
    @exclusivity(unchecked) private(set) var unseen: [Int] = []
    @exclusivity(unchecked) private var recordCount = 0
    private var fieldPaths: [String] = []

    private enum Frame {
        /// Inside an object, looking for member `segment`; `level`: the `*` whose element it is (its
        /// members before the nested path are kept for `../` fields).
        case seek(segment: Int, level: Int?, found: Bool, first: Bool, keys: Set<String>)
        /// Inside the container of a `*`: its members are records (the last `*`) or lead deeper.
        case iterate(segment: Int, level: Int, isArray: Bool, first: Bool)
    }

    /// Opens `path` (`file` names it in messages); `records` nil reads JSON Lines.
    init(path: String, file: String, records: String?, fields: [SourceField]?) throws(ReaderError) {
        scanner = try JSONScanner(path: path, file: file)
        if let records {
            if let problem = JSONRecordReader.recordsProblem(records) {
                throw ReaderError(.invalidOption(problem), at: SourceLocation(file: file))
            }
            segments = records.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        } else {
            segments = nil
        }
        levels = Array(repeating: ([:], nil, 0), count: (segments ?? ["*"]).filter { $0 == "*" }.count)
        if let fields {
            self.fields = try fields.map { field throws(ReaderError) in
                guard let path = JSONFieldPath(field.path) else {
                    throw ReaderError(.jsonUnsupportedPath(field: field.name, path: field.path), at: SourceLocation(file: file))
                }
                return path
            }
            fieldNames = fields.map(\.name)
            fieldPaths = fields.map(\.path)
            direct = JSONRecordReader.directPlan(self.fields)
            unseen = self.fields.indices.filter { if case .steps = self.fields[$0].target { true } else { false } }
        } else {
            // Every record's keys, from a key pass over the file (JSONRecordReader+Keys).
            let names = try JSONRecordReader.keysOfEveryRecord(path: path, file: file, records: records)
            self.fields = names.map { name in JSONFieldPath(steps: name.split(separator: ".").map { .key(String($0)) }) }
            fieldNames = names
            direct = JSONRecordReader.directPlan(self.fields)
        }
    }

    /// What is wrong with a `records` path, or nil when it is one.
    static func recordsProblem(_ records: String) -> String? {
        let parts = records.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard records.hasPrefix("/"), parts.last == "*", !parts.contains("") else {
            return "records path '\(records)' must start with / and end with /* (e.g. /items/* or /*)"
        }
        return nil
    }

    func next() throws(ReaderError) -> Record? {
        guard let found = try nextNode() else {
            try checkEveryFieldFound()
            return nil
        }
        let record = try record(found.node, key: found.key, level: found.level)
        if !unseen.isEmpty { noteFound { (record.fieldLines?[$0] ?? 0) != 0 } }
        return record
    }

    /// Records that the fields for which `found` holds were found in a record.
    func noteFound(_ found: (Int) -> Bool) {
        recordCount += 1
        unseen.removeAll(where: found)
    }

    /// At the end of the records: a field of the spec whose path no record had is an error (a typo in
    /// the path would otherwise give NULL in every row), unless there were no records at all.
    func checkEveryFieldFound() throws(ReaderError) {
        guard let field = unseen.first, recordCount > 0 else { return }
        throw ReaderError(.jsonPathInNoRecord(field: fieldNames[field], path: fieldPaths[field], records: recordCount),
                          at: SourceLocation(file: scanner.file))
    }

    /// The next record's value, with its key (records that are an object's values) and `*` level.
    private func nextNode() throws(ReaderError) -> (node: JSONNode, key: String?, level: Int)? {
        guard let level = try moveToNextRecord() else { return nil }
        let node = try scanner.parseValue()
        if segments == nil { try endLine() }
        return (node, levels[level].key, level)
    }

    /// Moves the cursor to the next record's value; its `*` level, or nil at the end.
    func moveToNextRecord() throws(ReaderError) -> Int? {
        guard let segments else {
            try scanner.skipSpace()
            guard try scanner.peek() != nil else { return nil }
            levels[0].position += 1
            return 0
        }
        if !started {
            started = true
            try descend(0, captureLevel: nil)
        }
        while let top = frames.last {
            switch top {
            case .iterate(let segment, let level, let isArray, let first):
                guard try !closes(isArray ? "]" : "}", first: first) else { frames.removeLast(); continue }
                frames[frames.count - 1] = .iterate(segment: segment, level: level, isArray: isArray, first: false)
                let key = isArray ? nil : try scanner.parseKey()
                levels[level].position += 1
                if segment == segments.count - 1 {
                    levels[level].key = key
                    return level
                }
                levels[level].members = [:]
                levels[level].key = key
                try descend(segment + 1, captureLevel: level)
            case .seek(let segment, let level, let found, let first, var keys):
                guard try !closes("}", first: first) else { frames.removeLast(); continue }
                try scanner.skipSpace()
                let (line, column) = (scanner.line, scanner.column)
                let key = try scanner.parseKey()
                guard keys.insert(key).inserted else { throw ReaderError(.jsonDuplicateKey(key), at: scanner.location(line: line, column: column)) }
                let descends = !found && key == segments[segment]
                frames[frames.count - 1] = .seek(segment: segment, level: level, found: found || descends, first: false, keys: keys)
                if descends {
                    try descend(segment + 1, captureLevel: nil)
                } else if let level, !found {
                    levels[level].members[key] = try scanner.parseValue()
                } else {
                    try scanner.skipValue()
                }
            }
        }
        try scanner.skipSpace()
        guard try scanner.peek() == nil else { throw scanner.error("unexpected \(try scanner.describeCursor()) after the end of the document") }
        return nil
    }

    /// At a container's next member: true (consumed) when it closes instead.
    private func closes(_ close: Character, first: Bool) throws(ReaderError) -> Bool {
        try scanner.skipSpace()
        if first {
            guard try scanner.peek() == UInt8(ascii: close.unicodeScalars.first!) else { return false }
            scanner.advance()
            return true
        }
        return try scanner.endOfMembers(close)
    }

    /// Enters the value at the cursor along `segments[segment]`: a `*` iterates it, a key looks inside
    /// it; any other value has no records and is skipped.
    private func descend(_ segment: Int, captureLevel: Int?) throws(ReaderError) {
        guard let segments else { return }
        try scanner.skipSpace()
        let byte = try scanner.peek()
        if segments[segment] == "*", byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
            guard frames.count < JSONScanner.depthLimit else { throw scanner.error("values nested deeper than \(JSONScanner.depthLimit) levels") }
            scanner.advance()
            let level = segments[..<segment].filter { $0 == "*" }.count
            levels[level].position = 0
            frames.append(.iterate(segment: segment, level: level, isArray: byte == UInt8(ascii: "["), first: true))
        } else if segments[segment] != "*", byte == UInt8(ascii: "{") {
            guard frames.count < JSONScanner.depthLimit else { throw scanner.error("values nested deeper than \(JSONScanner.depthLimit) levels") }
            scanner.advance()
            frames.append(.seek(segment: segment, level: captureLevel, found: false, first: true, keys: []))
        } else {
            try scanner.skipValue()
        }
    }

    /// JSON Lines: after a record, only spaces up to the line break.
    func endLine() throws(ReaderError) {
        try scanner.skipSpace(newlines: false)
        if let byte = try scanner.peek(), byte != 0x0A {
            throw scanner.error("expected a line break after the record, found \(try scanner.describeCursor()) (JSON Lines: one value per line)")
        }
    }

    /// The record of `node`: each field's value, located where it is in the file.
    func record(_ node: JSONNode, key: String?, level: Int) throws(ReaderError) -> Record {
        var values: [FieldValue] = []
        var lines: [Int] = [], columns: [Int] = []
        values.reserveCapacity(fields.count)
        for (index, field) in fields.enumerated() {
            let (value, place) = try field.value(in: node, levels: levels[...level], name: fieldNames[index], file: scanner.file)
            values.append(value)
            lines.append(place?.line ?? 0)
            columns.append(place?.column ?? 0)
        }
        var record = Record(location: SourceLocation(file: scanner.file, line: node.line, column: node.column), values: values)
        record.fieldLines = lines
        record.fieldColumns = columns
        return record
    }
}
