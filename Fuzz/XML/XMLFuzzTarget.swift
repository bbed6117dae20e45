import Foundation

/// libFuzzer entry: the input is an XML file read as records `/r/i` with every field shape, twice:
/// with `next()`, and in place as the build reads it (`nextRaw`, `fieldView`), which must show the
/// same records and end with the same error. Both are libxml2's SAX2 parser feeding the scanner;
/// a crash, a sanitizer finding or a failed precondition is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FuzzFile.write(UnsafeBufferPointer(start: data, count: size))
    let fields = [("a", "@a"), ("t", "t"), ("n", "x/y/@z"), ("s", "."), ("p", "../@p"), ("o", "#"), ("l", "t[2]")]
        .map { SourceField(name: $0.0, path: $0.1) }
    guard let reader = try? XMLRecordReader(path: path, records: "/r/i", fields: fields),
          let inPlace = try? XMLRecordReader(path: path, records: "/r/i", fields: fields) else { return 0 }
    var count = 0
    while count < 10_000 {
        let record: Record?
        do {
            record = try reader.next()
        } catch {
            var other: ReaderError?
            do throws(ReaderError) { _ = try inPlace.nextRaw() } catch { other = error }
            precondition(other?.diagnosticLines == error.diagnosticLines, "in place: \(String(describing: other)), next(): \(error)")
            break
        }
        guard let record else {
            precondition((try? inPlace.nextRaw()) == false, "in place has more records")
            break
        }
        precondition(record.values.count == fields.count)
        precondition((try? inPlace.nextRaw()) == true, "in place has fewer records")
        precondition(inPlace.currentRecord() == record)
        for (index, value) in record.values.enumerated() {
            switch (inPlace.fieldView(index), value) {
            case (.text(let bytes), .text(let text)): precondition(bytes.elementsEqual(text.utf8), "text differs")
            case (.integer(let number), .integer(let expected)): precondition(number == expected)
            case (.null, .null), (.other, .list): break
            default: preconditionFailure("field \(index) shows otherwise than \(value)")
            }
        }
        count += 1
    }
    return 0
}
