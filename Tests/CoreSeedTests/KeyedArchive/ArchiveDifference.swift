@testable import CoreSeed

/// The first difference between two keyed archives, object by object in `$objects` order, for a
/// report a person can act on ("object 17: expected {…}, got {…}").
enum ArchiveDifference {
    /// nil when the bytes are equal; else where they first differ.
    static func first(expected: [UInt8], actual: [UInt8]) -> String? {
        guard expected != actual else { return nil }
        guard let want = try? KeyedUnarchiver.header(expected), let have = try? KeyedUnarchiver.header(actual) else {
            return "one of the archives is unreadable"
        }
        for index in 0..<min(want.1.count, have.1.count) {
            let left = render(want.0, want.1[index])
            let right = render(have.0, have.1[index])
            if left != right { return "object \(index): expected \(left), got \(right)" }
        }
        if want.1.count != have.1.count { return "\(want.1.count) objects expected, \(have.1.count) written" }
        return "same objects; a dictionary's keys in another order (\(expected.count) vs \(actual.count) bytes, first byte at \(firstByte(expected, actual)))"
    }

    static func firstByte(_ left: [UInt8], _ right: [UInt8]) -> Int {
        (0..<min(left.count, right.count)).first { left[$0] != right[$0] } ?? min(left.count, right.count)
    }

    /// One object, its references as `@uid`, dictionary keys sorted.
    static func render(_ plist: PlistReader, _ index: Int, depth: Int = 0) -> String {
        guard let object = try? plist.object(index) else { return "<unreadable>" }
        switch object {
        case .string(let text): return "\"\(text)\""
        case .integer(let number): return "\(number)"
        case .real(let number), .date(let number): return "\(number)"
        case .boolean(let flag): return "\(flag)"
        case .data(let bytes): return "<\(bytes.count) bytes>"
        case .uid(let number): return "@\(number)"
        case .array(let items):
            return "[" + items.map { render(plist, $0, depth: depth + 1) }.joined(separator: ", ") + "]"
        case .dictionary(let entries):
            guard depth < 3 else { return "{…}" }
            return "{" + entries.keys.sorted().map { "\($0): \(render(plist, entries[$0]!, depth: depth + 1))" }.joined(separator: ", ") + "}"
        }
    }
}
