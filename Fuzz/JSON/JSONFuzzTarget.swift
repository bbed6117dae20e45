import Foundation

/// libFuzzer entry: the input is a JSON document read as records `/*` both ways (`next()` and the
/// in place path, which must agree), as records `/r/*/i/*` with every field shape, then as JSON Lines
/// with the first record's keys. The reader must never trap; every error has a
/// place (line and column ≥ 1); and a document Foundation reads as an array of objects with unique
/// keys must read without a syntax error as records `/*`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let path = FuzzFile.write(bytes)
    let fields = [("a", "a"), ("b", "b.c"), ("t", "t[1]"), ("e", "l[].k"), ("p", "../p"), ("n", "#"), ("k", "../$key"), ("s", ".")]
        .map { SourceField(name: $0.0, path: $0.1) }
    // The in-place path (simple key paths) must show the records next() gives and fail alike.
    let simple = [("a", "a"), ("b", "b.c"), ("s", "s")].map { SourceField(name: $0.0, path: $0.1) }
    if let reader = try? JSONRecordReader(path: path, file: "f.json", records: "/*", fields: simple),
       let inPlace = try? JSONRecordReader(path: path, file: "f.json", records: "/*", fields: simple) {
        precondition(inPlace.readsRaw)
        var count = 0
        while count < 10_000 {
            let record: Record?
            do {
                record = try reader.next()
            } catch {
                var other: ReaderError?
                do throws(ReaderError) { while try inPlace.nextRaw() {} } catch { other = error }
                precondition(other?.diagnosticLines == error.diagnosticLines, "in place: \(String(describing: other)), next(): \(error)")
                break
            }
            guard let record else {
                precondition((try? inPlace.nextRaw()) == false, "in place has more records")
                break
            }
            precondition((try? inPlace.nextRaw()) == true, "in place has fewer records")
            precondition((try? inPlace.currentRecord()) == record, "in place shows another record")
            count += 1
        }
    }
    for (records, fields) in [("/r/*/i/*", Optional(fields)), (nil, nil), ("/*", nil)] as [(String?, [SourceField]?)] {
        do throws(ReaderError) {
            let reader = try JSONRecordReader(path: path, file: "f.json", records: records, fields: fields)
            var count = 0
            while let record = try reader.next(), count < 10_000 {
                precondition(record.values.count == reader.fieldNames.count)
                count += 1
            }
        } catch {
            precondition((error.location.line ?? 0) >= 1 && (error.location.column ?? 0) >= 1 || error.location.line == nil,
                         "an error without its place: \(error)")
            guard records == "/*", !bytes.contains(0), !error.message.contains("object, not a value"),
                  !error.message.contains("array of objects"), !error.message.contains("nested deeper"),
                  let object = try? JSONSerialization.jsonObject(with: Data(bytes)), let array = object as? [Any],
                  array.allSatisfy({ $0 is [String: Any] }) else { continue }
            // Foundation keeps the last of a repeated key (the reader refuses it: a guess either way) and
            // on Linux takes a trailing comma (`[1,]`, `{"a": 1,}`), which JSON (RFC 8259) does not.
            guard !error.message.contains("given twice"), !error.message.contains("found '}'"),
                  !error.message.contains("found ']'") else { continue }
            preconditionFailure("valid JSON refused: \(error)")
        }
    }
    return 0
}
