import Foundation
@testable import CoreSeed

/// Small files for reader tests, written into a temporary directory.
final class Scratch {
    let directory: URL

    init() throws { directory = try TestPaths.temporaryDirectory() }
    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Writes `bytes` to `name` and returns its path.
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    func file(_ name: String, _ text: String) throws -> String {
        try file(name, Array(text.utf8))
    }
}

extension RecordReader {
    /// Every record, as values.
    func all() throws(ReaderError) -> [Record] {
        var records: [Record] = []
        while let record = try next() { records.append(record) }
        return records
    }
}

/// The error a throwing call produced, or nil.
func readerError(_ body: () throws -> Void) -> ReaderError? {
    do { try body(); return nil } catch { return error as? ReaderError }
}
