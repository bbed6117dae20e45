extension DateParser {
    /// `yyyy-MM-dd`, then optionally `T` (or a space) `HH:mm[:ss[.f…]]`, then optionally an offset.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    func parseISO8601(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var fields = Fields()
        var index = 0
        guard let year = DateParser.digits(bytes, &index, min: 4, max: 4),
              DateParser.expect(bytes, &index, UInt8(ascii: "-")),
              let month = DateParser.digits(bytes, &index, min: 2, max: 2),
              DateParser.expect(bytes, &index, UInt8(ascii: "-")),
              let day = DateParser.digits(bytes, &index, min: 2, max: 2)
        else { return nil }
        fields.year = year
        fields.month = month
        fields.day = day
        if index < bytes.count {
            guard bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t") || bytes[index] == UInt8(ascii: " ")
            else { return nil }
            index += 1
            guard let hour = DateParser.digits(bytes, &index, min: 2, max: 2),
                  DateParser.expect(bytes, &index, UInt8(ascii: ":")),
                  let minute = DateParser.digits(bytes, &index, min: 2, max: 2)
            else { return nil }
            fields.hour = hour
            fields.minute = minute
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                guard let second = DateParser.digits(bytes, &index, min: 2, max: 2) else { return nil }
                fields.second = second
                if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    guard let fraction = DateParser.fraction(bytes, &index) else { return nil }
                    fields.fraction = fraction
                }
            }
            if index < bytes.count {
                guard let offset = DateParser.offset(bytes, &index) else { return nil }
                fields.offset = offset
            }
        }
        guard index == bytes.count else { return nil }
        return resolve(fields)
    }

    @inline(__always)
    // SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    private static func expect(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int, _ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }
}
