import Foundation

/// libFuzzer entry: the input is a database file; reads table `t` and a query over it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSQLite(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FuzzFile.write(UnsafeBufferPointer(start: data, count: size))
    for selection in [SourceSpec.SQLiteSelection.table("t"), .query("SELECT * FROM t ORDER BY 1")] {
        guard let reader = try? SQLiteRecordReader(path: path, selection: selection) else { continue }
        var count = 0
        while count < 10_000, let record = try? reader.next() {
            precondition(record.values.count == reader.fieldNames.count)
            count += 1
        }
    }
    return 0
}
