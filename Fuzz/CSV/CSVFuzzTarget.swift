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
    // The build's in-place path over the same file must see the same fields, records and error.
    guard let raw = try? CSVReader(path: path, options: options, bufferSize: 64) else { preconditionFailure("second open failed") }
    var count = 0
    while count < 10_000 {
        let record: Record?
        do { record = try reader.next() } catch {
            if raw.readsRaw || count > 0 {
                var rawError: ReaderError?
                do { while try raw.nextRaw() {} } catch { rawError = error }
                precondition(rawError?.diagnosticLines == error.diagnosticLines, "in-place reading fails differently")
            }
            break
        }
        guard let record else { break }
        precondition(record.values.count == reader.fieldNames.count)
        if raw.readsRaw || count > 0, options.header {
            precondition((try? raw.nextRaw()) == true, "in-place reading ends early")
            precondition((try? raw.currentRecord()) == record, "in-place record differs")
            for (index, value) in record.values.enumerated() {
                let view = raw.fieldView(index)
                switch (view, value) {
                case (.null, .null): break
                case (.text(let bytes), .text(let text)): precondition(Array(bytes) == Array(text.utf8), "field bytes differ")
                default: preconditionFailure("field \(index) differs")
                }
            }
        }
        count += 1
    }
    return 0
}
