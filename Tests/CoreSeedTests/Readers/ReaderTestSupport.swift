import Foundation
@testable import CoreSeed

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
