import Foundation

/// libFuzzer entry: the input is an XML file read as records `/r/i` with every field shape, three
/// ways that must agree record for record and end with the same error: with `next()` (the tokenizer
/// first, libxml2 where it hands over), with libxml2 alone, and in place as the build reads it
/// (`nextRaw`, `fieldView`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = FuzzFile.write(UnsafeBufferPointer(start: data, count: size))
    let fields = [("a", "@a"), ("t", "t"), ("n", "x/y/@z"), ("s", "."), ("p", "../@p"), ("o", "#"), ("l", "t[2]")]
        .map { XMLFieldSpec(name: $0.0, path: $0.1) }
    guard let reader = try? XMLRecordReader(path: path, records: "/r/i", fields: fields),
          let libxml2 = try? XMLRecordReader(path: path, records: "/r/i", fields: fields, chunkSize: 256 * 1024, tokenizerFirst: false),
          let inPlace = try? XMLRecordReader(path: path, records: "/r/i", fields: fields) else { return 0 }
    var count = 0
    while count < 10_000 {
        let record: Record?
        do {
            record = try reader.next()
        } catch {
            var alone: ReaderError?
            do throws(ReaderError) { _ = try libxml2.next() } catch { alone = error }
            precondition(alone?.diagnosticLines == error.diagnosticLines, "libxml2 alone: \(String(describing: alone)), tokenizer: \(error)")
            var other: ReaderError?
            do throws(ReaderError) { _ = try inPlace.nextRaw() } catch { other = error }
            precondition(other?.diagnosticLines == error.diagnosticLines, "in place: \(String(describing: other)), next(): \(error)")
            break
        }
        precondition((try? libxml2.next()) == record, "libxml2 alone reads another record")
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
