/// English month and day names, lower-case, as byte arrays built once.
enum EnglishNames {
    /// Per month: the full name first, then the other accepted spellings.
    static let months: [[[UInt8]]] = [
        ["january", "jan"], ["february", "feb"], ["march", "mar"], ["april", "apr"], ["may"], ["june", "jun"],
        ["july", "jul"], ["august", "aug"], ["september", "sept", "sep"], ["october", "oct"],
        ["november", "nov"], ["december", "dec"],
    ].map { $0.map { Array($0.utf8) } }

    /// Sunday first, matching ``CivilTime/weekday(daysSinceEpoch:)``.
    static let weekdays: [[[UInt8]]] = [
        ["sunday", "sun"], ["monday", "mon"], ["tuesday", "tue"], ["wednesday", "wed"],
        ["thursday", "thu"], ["friday", "fri"], ["saturday", "sat"],
    ].map { $0.map { Array($0.utf8) } }

    static let am = Array("am".utf8)
    static let pm = Array("pm".utf8)
    static let gmt = Array("gmt".utf8)
    static let utc = Array("utc".utf8)

    /// Per month: its first three letters, lower-case, packed into one word (what ``matchMonth(_:_:)``
    /// compares first).
    static let monthPrefixes: [UInt32] = months.map { pack($0[0][0], $0[0][1], $0[0][2]) }

    @inline(__always)
    private static func pack(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    /// ``match(_:_:_:)`` for month names, with the same result: every month's spellings share its first
    /// three letters, so those pick the month before any spelling is compared.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func matchMonth(_ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Int? {
        guard bytes.count - index >= 3 else { return nil }
        let key = pack(ASCII.lowercased(bytes[index]), ASCII.lowercased(bytes[index + 1]), ASCII.lowercased(bytes[index + 2]))
        guard let month = monthPrefixes.firstIndex(of: key) else { return nil }
        for spelling in months[month] where ASCII.hasPrefix(bytes, at: index, caseInsensitive: spelling) {
            index += spelling.count
            return month
        }
        return nil
    }

    /// The index of the name at `index` (longest spelling first, any case), advancing past it.
    /// SAFETY: borrows `bytes` for the call and keeps no pointer to it (callers pass a view they hold valid).
    static func match(_ table: [[[UInt8]]], _ bytes: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Int? {
        for (position, spellings) in table.enumerated() {
            for spelling in spellings where ASCII.hasPrefix(bytes, at: index, caseInsensitive: spelling) {
                index += spelling.count
                return position
            }
        }
        return nil
    }
}
