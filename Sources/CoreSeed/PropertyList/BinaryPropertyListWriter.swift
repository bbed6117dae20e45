/// Writes `bplist00` binary property lists deterministically: dictionary keys in UTF-8 byte order,
/// equal scalars stored once, objects numbered depth-first. The same value always gives the same bytes.
///
/// Written by hand because `PropertyListSerialization` on Linux walks dictionaries in `Dictionary`
/// order, which is seeded per process, so its output differs from run to run.
/// Format: header, objects, offset table, 32-byte trailer (CFBinaryPList.c).
enum BinaryPropertyListWriter {
    private enum Object {
        case scalar(PropertyListValue)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    /// The binary plist of `value`.
    static func data(for value: PropertyListValue) -> [UInt8] {
        var objects: [Object] = []
        var unique: [PropertyListValue: Int] = [:]
        _ = flatten(value, into: &objects, unique: &unique)

        let refSize = byteCount(for: UInt64(objects.count))
        var bytes: [UInt8] = Array("bplist00".utf8)
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)
        for object in objects {
            offsets.append(bytes.count)
            encode(object, refSize: refSize, into: &bytes)
        }
        let tableOffset = bytes.count
        let offsetSize = byteCount(for: UInt64(tableOffset))
        for offset in offsets { appendBigEndian(UInt64(offset), size: offsetSize, to: &bytes) }
        bytes += [0, 0, 0, 0, 0, 0]
        bytes.append(UInt8(offsetSize))
        bytes.append(UInt8(refSize))
        appendBigEndian(UInt64(objects.count), size: 8, to: &bytes)
        appendBigEndian(0, size: 8, to: &bytes)
        appendBigEndian(UInt64(tableOffset), size: 8, to: &bytes)
        return bytes
    }

    /// Adds `value` (containers before their children) and returns its object number.
    private static func flatten(_ value: PropertyListValue, into objects: inout [Object],
                                unique: inout [PropertyListValue: Int]) -> Int {
        switch value {
        case .array(let items):
            let index = objects.count
            objects.append(.array([]))
            let refs = items.map { flatten($0, into: &objects, unique: &unique) }
            objects[index] = .array(refs)
            return index
        case .dictionary(let items):
            let index = objects.count
            objects.append(.dictionary(keys: [], values: []))
            let keys = items.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let keyRefs = keys.map { flatten(.string($0), into: &objects, unique: &unique) }
            let valueRefs = keys.map { flatten(items[$0]!, into: &objects, unique: &unique) }
            objects[index] = .dictionary(keys: keyRefs, values: valueRefs)
            return index
        case .real, .date:
            // Not uniqued: NaN is not equal to itself.
            objects.append(.scalar(value))
            return objects.count - 1
        default:
            if let known = unique[value] { return known }
            objects.append(.scalar(value))
            unique[value] = objects.count - 1
            return objects.count - 1
        }
    }

    private static func encode(_ object: Object, refSize: Int, into bytes: inout [UInt8]) {
        switch object {
        case .array(let refs):
            appendMarker(0xA, count: refs.count, to: &bytes)
            for ref in refs { appendBigEndian(UInt64(ref), size: refSize, to: &bytes) }
        case .dictionary(let keys, let values):
            appendMarker(0xD, count: keys.count, to: &bytes)
            for ref in keys + values { appendBigEndian(UInt64(ref), size: refSize, to: &bytes) }
        case .scalar(let value):
            encodeScalar(value, into: &bytes)
        }
    }

    /// One non-container object (shared with `KeyedArchiver`'s writer).
    static func encodeScalar(_ value: PropertyListValue, into bytes: inout [UInt8]) {
        switch value {
        case .boolean(let flag):
            bytes.append(flag ? 0x09 : 0x08)
        case .integer(let number):
            appendInteger(number, to: &bytes)
        case .real(let number):
            bytes.append(0x23)
            appendBigEndian(number.bitPattern, size: 8, to: &bytes)
        case .date(let seconds):
            bytes.append(0x33)
            appendBigEndian(seconds.bitPattern, size: 8, to: &bytes)
        case .data(let data):
            appendMarker(0x4, count: data.count, to: &bytes)
            bytes += data
        case .string(let string):
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(0x5, count: string.utf8.count, to: &bytes)
                bytes += Array(string.utf8)
            } else {
                let units = Array(string.utf16)
                appendMarker(0x6, count: units.count, to: &bytes)
                for unit in units { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
            }
        case .array, .dictionary:
            preconditionFailure("containers are flattened before encoding")
        }
    }

    /// Integers as 1, 2, 4 or 8 big-endian bytes; negative ones always as 8 (as CoreFoundation does).
    static func appendInteger(_ number: Int64, to bytes: inout [UInt8]) {
        if number < 0 {
            bytes.append(0x13)
            appendBigEndian(UInt64(bitPattern: number), size: 8, to: &bytes)
            return
        }
        let size = byteCount(for: UInt64(number))
        let power: UInt8 = switch size { case 1: 0; case 2: 1; case 4: 2; default: 3 }
        bytes.append(0x10 | power)
        appendBigEndian(UInt64(number), size: size, to: &bytes)
    }

    /// A type nibble with its count, the count following as an integer object when it is 15 or more.
    static func appendMarker(_ type: UInt8, count: Int, to bytes: inout [UInt8]) {
        if count < 15 {
            bytes.append(type << 4 | UInt8(count))
        } else {
            bytes.append(type << 4 | 0x0F)
            appendInteger(Int64(count), to: &bytes)
        }
    }

    static func byteCount(for value: UInt64) -> Int {
        if value <= 0xFF { return 1 }
        if value <= 0xFFFF { return 2 }
        if value <= 0xFFFF_FFFF { return 4 }
        return 8
    }

    static func appendBigEndian(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
