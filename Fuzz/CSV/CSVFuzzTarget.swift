import Foundation

/// libFuzzer entry: the input is a CSV file; its first byte picks the options.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = bytes.first ?? 0
    let encodings: [CSVEncoding] = [.utf8, .utf16LE, .utf16BE, .windows1252, .isoLatin1]
    let options = CSVOptions(delimiter: selector & 1 == 0 ? UInt8(ascii: ",") : 9,
                             header: selector & 2 == 0,
                             encoding: encodings[Int(selector >> 2) % encodings.count],
                             trim: selector & 0x40 == 0 ? .none : .both)
    let path = FuzzFile.write(bytes.dropFirst())
    // A tiny buffer exercises refills and record growth on every input.
    guard let reader = try? CSVReader(path: path, options: options, bufferSize: 64) else { return 0 }
    var count = 0
    while count < 10_000, let record = try? reader.next() {
        precondition(record.values.count == reader.fieldNames.count)
        count += 1
    }
    return 0
}
