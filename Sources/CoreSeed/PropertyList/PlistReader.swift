/// A binary plist (`bplist00`) read object by object, with every offset and reference checked.
struct PlistReader {
    enum Object {
        case string(String), integer(Int64), real(Double), boolean(Bool), data([UInt8]), uid(Int)
        /// Seconds since 2001-01-01T00:00:00Z.
        case date(Double)
        case array([Int]), dictionary([String: Int])
    }

    let bytes: [UInt8]
    let offsets: [Int]
    let referenceSize: Int
    let top: Int

    init(_ bytes: [UInt8]) throws(KeyedUnarchiver.Failure) {
        let bad = KeyedUnarchiver.Failure(message: "not a binary property list")
        guard bytes.count >= 40, Array(bytes[0..<8]) == Array("bplist00".utf8) else { throw bad }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        let count = PlistReader.number(bytes, trailer + 8, 8), top = PlistReader.number(bytes, trailer + 16, 8)
        let table = PlistReader.number(bytes, trailer + 24, 8)
        // Each number is bounded by the file's size before any arithmetic on it, so none can overflow.
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count < UInt64(trailer),
              top < count, table >= 8, table < UInt64(trailer),
              count * UInt64(offsetSize) <= UInt64(trailer) - table else { throw bad }
        self.bytes = bytes
        self.referenceSize = referenceSize
        self.top = Int(top)
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let offset = PlistReader.number(bytes, Int(table) + index * offsetSize, offsetSize)
            guard offset >= 8, offset < table else { throw bad }
            offsets.append(Int(offset))
        }
        self.offsets = offsets
    }

    static func number(_ bytes: [UInt8], _ start: Int, _ size: Int) -> UInt64 {
        bytes[start..<start + size].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Object `index`.
    func object(_ index: Int) throws(KeyedUnarchiver.Failure) -> Object {
        let bad = KeyedUnarchiver.Failure(message: "a malformed binary property list")
        guard index >= 0, index < offsets.count else { throw bad }
        var position = offsets[index]
        let end = bytes.count - 32
        func take(_ count: Int) throws(KeyedUnarchiver.Failure) -> ArraySlice<UInt8> {
            guard count >= 0, position + count <= end else { throw bad }
            defer { position += count }
            return bytes[position..<position + count]
        }
        let marker = try take(1).first!
        let low = Int(marker & 0x0F)
        func length() throws(KeyedUnarchiver.Failure) -> Int {
            guard low == 15 else { return low }
            let intMarker = try take(1).first!
            guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else { throw bad }
            let value = try take(1 << Int(intMarker & 0x0F)).reduce(0) { $0 << 8 | UInt64($1) }
            guard value < UInt64(end) else { throw bad }
            return Int(value)
        }
        func references(_ count: Int) throws(KeyedUnarchiver.Failure) -> [Int] {
            var result: [Int] = []
            for _ in 0..<count {
                let reference = try take(referenceSize).reduce(0) { $0 << 8 | UInt64($1) }
                guard reference < UInt64(offsets.count) else { throw bad }
                result.append(Int(reference))
            }
            return result
        }
        switch marker >> 4 {
        case 0x0 where marker == 0x08: return .boolean(false)
        case 0x0 where marker == 0x09: return .boolean(true)
        case 0x1:
            guard low <= 3 else { throw bad }
            let raw = try take(1 << low).reduce(0) { $0 << 8 | UInt64($1) }
            return .integer(low == 3 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2:
            guard low == 2 || low == 3 else { throw bad }
            let raw = try take(1 << low).reduce(0) { $0 << 8 | UInt64($1) }
            return .real(low == 2 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
        case 0x3:
            guard marker == 0x33 else { throw bad }
            return .date(Double(bitPattern: try take(8).reduce(0) { $0 << 8 | UInt64($1) }))
        case 0x4: return .data(Array(try take(try length())))
        case 0x5:
            let text = try take(try length())
            guard text.allSatisfy({ $0 < 0x80 }) else { throw bad }
            return .string(String(decoding: text, as: UTF8.self))
        case 0x6:
            let raw = try take(try length() * 2)
            let units = stride(from: raw.startIndex, to: raw.endIndex, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
            guard let text = String(validating: units, as: UTF16.self) else { throw bad }
            return .string(text)
        case 0x8: return .uid(Int(try take(low + 1).reduce(0) { $0 << 8 | UInt64($1) } & 0x7FFF_FFFF))
        case 0xA: return .array(try references(try length()))
        case 0xD:
            let count = try length()
            let refs = try references(count * 2)
            var result: [String: Int] = [:]
            for (key, value) in zip(refs[..<count], refs[count...]) {
                // Keys must be strings: checked by marker first, so a key cannot lead back into this dictionary.
                guard [0x5, 0x6].contains(bytes[offsets[key]] >> 4), case .string(let name) = try object(key) else { throw bad }
                result[name] = value
            }
            return .dictionary(result)
        default: throw bad
        }
    }
}

extension PlistReader.Object {
    /// A real or a date (both 8-byte floats in the file) as `.real`; anything else unchanged.
    var asReal: PlistReader.Object {
        if case .date(let seconds) = self { return .real(seconds) }
        return self
    }
}
