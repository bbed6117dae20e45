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
        while try probe.moveToNextRecord() != nil {
            try probe.collectKeys(prefix: "", depth: 0, into: &names, seen: &seen, isRecord: true)
            if probe.segments == nil { try probe.endLine() }
        }
        if let identity { keyCache.store(names, for: identity) }
        return names
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
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                        seconds: Int64(info.st_mtim.tv_sec), nanoseconds: Int64(info.st_mtim.tv_nsec), records: records)
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
