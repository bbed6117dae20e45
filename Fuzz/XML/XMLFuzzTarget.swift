import Foundation

/// libFuzzer entry: the input is an XML file read as records `/r/i` with every field shape.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FuzzFile.write(UnsafeBufferPointer(start: data, count: size))
    let fields = [("a", "@a"), ("t", "t"), ("n", "x/y/@z"), ("s", "."), ("p", "../@p")].map { XMLFieldSpec(name: $0.0, path: $0.1) }
    guard let reader = try? XMLRecordReader(path: path, records: "/r/i", fields: fields) else { return 0 }
    var count = 0
    while count < 10_000, let record = try? reader.next() {
        precondition(record.values.count == fields.count)
        count += 1
    }
    return 0
}
