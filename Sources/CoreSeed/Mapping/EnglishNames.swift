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

    /// The index of the name at `index` (longest spelling first, any case), advancing past it.
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
