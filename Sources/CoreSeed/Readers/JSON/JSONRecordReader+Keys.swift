import Foundation

/// The fields of a JSON source without `fields`: every key any record has (a nested object's as
/// `a.b`), in the order they first appear, found by a key pass over the file before the records are
/// read. The pass reads keys and skips values (no tree but for arrays), so memory stays bounded by the
/// largest record; its result is kept for the process per file (device, inode, size, modification
/// time), so a build that opens the source again does not repeat it.
extension JSONRecordReader {
    private static let keyCache = KeyCache()

    static func keysOfEveryRecord(path: String, file: String, records: String?) throws(ReaderError) -> [String] {
        let identity = KeyCache.identity(path, records: records)
        if let identity, let cached = keyCache.names(for: identity) { return cached }
        let probe = try JSONRecordReader(path: path, file: file, records: records, fields: [])
        var names: [String] = []
        var seen = Set<String>()
        var flat: [[UInt8]] = []  // the names that are top-level keys with plain values
        while try probe.moveToNextRecord() != nil {
            try probe.scanner.skipSpace()
            // Most records have keys seen already and plain values: skipped in one pass over the buffer.
            let skipped = probe.scanner.readAhead { bytes, line, lineStart, offset in
                JSONRecordReader.skipRecordOfKnownKeys(bytes, known: flat, line, lineStart, offset)
            }
            if !skipped {
                let count = names.count
                try probe.collectKeys(prefix: "", depth: 0, into: &names, seen: &seen, isRecord: true)
                if names.count != count { flat = names.filter { !$0.contains(".") }.map { Array($0.utf8) } }
            }
            if probe.segments == nil { try probe.endLine() }
        }
        if let identity { keyCache.store(names, for: identity) }
        return names
    }

    /// The length of the object at the start of `bytes` (and the lines it passed) when it is wholly
    /// there, its keys are ASCII without escapes and all in `known`, and its values are strings without
    /// escapes, numbers, `true`, `false` or `null`; nil for anything else, which the general path reads
    /// (and checks: this pass only finds names, the reading pass refuses what is wrong).
    /// SAFETY: `bytes` is the scanner's buffer inside its `readAhead`; nothing is kept.
    static func skipRecordOfKnownKeys(_ bytes: UnsafeBufferPointer<UInt8>, known: [[UInt8]], _ startLine: Int, _ startLineStart: Int,
                                      _ offset: Int) -> (taken: Int, line: Int, lineStart: Int)? {
        let n = bytes.count
        guard n > 0, bytes[0] == UInt8(ascii: "{"), let base = bytes.baseAddress, !known.isEmpty else { return nil }
        var i = 1, line = startLine, lineStart = startLineStart, position = 0
        func space() { JSONRawRecord.skipSpace(bytes, &i, &line, &lineStart, offset) }
        func isKnown(_ start: Int, _ count: Int) -> Bool {
            // The key at the same position as in the previous record first, then any.
            // SAFETY: both views are compared inside this call; `count > 0` makes `baseAddress` non-nil.
            func same(_ name: [UInt8]) -> Bool {
                name.count == count && name.withUnsafeBufferPointer { memcmp($0.baseAddress!, base + start, count) == 0 }
            }
            if position < known.count, same(known[position]) { return true }
            return count > 0 && known.contains(where: same)
        }
        space()
        while true {
            space()
            guard i < n, bytes[i] == UInt8(ascii: "\"") else { return nil }
            let keyStart = i + 1
            var j = keyStart
            while j < n, bytes[j] != UInt8(ascii: "\""), bytes[j] != UInt8(ascii: "\\"), bytes[j] >= 0x20, bytes[j] < 0x80 { j += 1 }
            guard j < n, bytes[j] == UInt8(ascii: "\""), isKnown(keyStart, j - keyStart) else { return nil }
            position += 1
            i = j + 1
            space()
            guard i < n, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            space()
            guard i < n else { return nil }
            if bytes[i] == UInt8(ascii: "\"") {
                i += 1
                while i < n, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"), bytes[i] >= 0x20 { i += 1 }
                guard i < n, bytes[i] == UInt8(ascii: "\"") else { return nil }
                i += 1
            } else {
                let start = i
                while i < n, bytes[i] > 0x20, bytes[i] != UInt8(ascii: ","), bytes[i] != UInt8(ascii: "}"), bytes[i] != UInt8(ascii: "{"),
                      bytes[i] != UInt8(ascii: "["), bytes[i] != UInt8(ascii: "]"), bytes[i] != UInt8(ascii: "\"") { i += 1 }
                guard i > start, i < n else { return nil }
            }
            space()
            guard i < n else { return nil }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { return (i + 1, line, lineStart) }
            return nil
        }
    }

    /// Reads the value at the cursor, adding the names ``flatten`` would give it: a non-empty object's
    /// members (recursively), else the value itself, unless it is an array holding objects.
    private func collectKeys(prefix: String, depth: Int, into names: inout [String], seen: inout Set<String>,
                             isRecord: Bool) throws(ReaderError) {
        try scanner.skipSpace()
        let byte = try scanner.peek()
        if byte == UInt8(ascii: "{") {
            guard depth < JSONScanner.depthLimit else { throw scanner.error("values nested deeper than \(JSONScanner.depthLimit) levels") }
            scanner.advance()
            try scanner.skipSpace()
            if try scanner.peek() == UInt8(ascii: "}") {
                scanner.advance()
                if !isRecord, seen.insert(prefix).inserted { names.append(prefix) }
                return
            }
            let inner = isRecord ? "" : prefix + "."
            while true {
                let key = try scanner.parseKey()
                try collectKeys(prefix: inner + key, depth: depth + 1, into: &names, seen: &seen, isRecord: false)
                if try scanner.endOfMembers("}") { break }
            }
            return
        }
        if isRecord {
            try scanner.skipValue()  // not an object: no keys
            return
        }
        if byte == UInt8(ascii: "[") {
            let node = try scanner.parseValue(depth: depth)
            if case .array(let elements) = node.value, elements.contains(where: { if case .object = $0.value { true } else { false } }) {
                return  // objects in an array are reached by a path such as "lines[].sku"
            }
        } else {
            try scanner.skipValue()
        }
        if seen.insert(prefix).inserted { names.append(prefix) }
    }
}

/// The key pass's results, per file. Thread-safe: builds may open sources from several threads.
// SAFETY: its one mutable property, `entries`, is only read or written with `lock` held.
final class KeyCache: @unchecked Sendable {
    struct Identity: Hashable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int64, nanoseconds: Int64
        var records: String?
    }

    private let lock = NSLock()
    private var entries: [Identity: [String]] = [:]

    static func identity(_ path: String, records: String?) -> Identity? {
        guard let info = try? FileSystem.status(FilePath(path)) else { return nil }
        return Identity(device: info.device, inode: info.inode, size: Int64(info.size),
                        seconds: Int64(info.modified.seconds), nanoseconds: Int64(info.modified.nanoseconds), records: records)
    }

    func names(for identity: Identity) -> [String]? {
        lock.lock()
        defer { lock.unlock() }
        return entries[identity]
    }

    func store(_ names: [String], for identity: Identity) {
        lock.lock()
        defer { lock.unlock() }
        entries[identity] = names
    }
}
