/// Reads an `NSKeyedArchiver` binary plist back into an ``ArchivedValue`` (what `export` writes as
/// JSON): dictionaries with string keys, arrays, strings, numbers, booleans, data, `NSDate`, `NSUUID`
/// and `NSURL` without a base — the values ``KeyedArchiver`` writes. Anything else (an app's own
/// classes, sets, a URL with a base) is refused with what it holds, never guessed.
public enum KeyedUnarchiver {
    public struct Failure: Error, Sendable, Equatable {
        public let message: String
    }

    /// An archive's plist, its `$objects` table and the UID of its root: what every reader of a keyed
    /// archive starts from. An error when `bytes` is not an `NSKeyedArchiver` archive.
    static func header(_ bytes: [UInt8]) throws(Failure) -> (plist: PlistReader, objects: [Int], root: Int) {
        let plist = try PlistReader(bytes)
        guard case .dictionary(let top) = try plist.object(plist.top),
              let archiver = top["$archiver"], case .string("NSKeyedArchiver") = try plist.object(archiver),
              let topReference = top["$top"], case .dictionary(let roots) = try plist.object(topReference),
              let rootReference = roots["root"], case .uid(let root) = try plist.object(rootReference),
              let objectsReference = top["$objects"], case .array(let objects) = try plist.object(objectsReference) else {
            throw Failure(message: "not an NSKeyedArchiver archive")
        }
        return (plist, objects, root)
    }

    /// The value archived in `bytes`.
    public static func value(_ bytes: [UInt8]) throws(Failure) -> ArchivedValue {
        let (plist, objects, root) = try header(bytes)
        var depth = 0
        func decode(_ uid: Int) throws(Failure) -> ArchivedValue {
            guard uid > 0, uid < objects.count else { throw Failure(message: "an archived nil or a reference outside the archive") }
            depth += 1
            defer { depth -= 1 }
            guard depth < 256 else { throw Failure(message: "nested more than 256 levels deep (a cycle?)") }
            switch try plist.object(objects[uid]) {
            case .string(let text): return .string(text)
            case .integer(let number): return .integer(number)
            case .real(let number): return .real(number)
            case .boolean(let flag): return .boolean(flag)
            case .data(let data): return .data(data)
            case .uid, .array: throw Failure(message: "a malformed archive (a bare reference or array among its objects)")
            case .dictionary(let fields):
                guard let classReference = fields["$class"], case .uid(let classUID) = try plist.object(classReference),
                      classUID < objects.count, case .dictionary(let classFields) = try plist.object(objects[classUID]),
                      let nameReference = classFields["$classname"], case .string(let name) = try plist.object(nameReference) else {
                    throw Failure(message: "an archived object without a class")
                }
                func field(_ key: String) throws(Failure) -> PlistReader.Object? { try fields[key].map { reference throws(Failure) in try plist.object(reference) } }
                func references(_ key: String) throws(Failure) -> [Int] {
                    guard case .array(let items)? = try field(key) else { throw Failure(message: "\(name) without \(key)") }
                    var result: [Int] = []
                    for item in items {
                        guard case .uid(let uid) = try plist.object(item) else { throw Failure(message: "\(name): \(key) holds a value that is not a reference") }
                        result.append(uid)
                    }
                    return result
                }
                switch name {
                case "NSDictionary", "NSMutableDictionary":
                    let keys = try references("NS.keys"), values = try references("NS.objects")
                    guard keys.count == values.count else { throw Failure(message: "\(name) with \(keys.count) keys and \(values.count) values") }
                    var entries: [ArchivedValue.Entry] = []
                    for (key, value) in zip(keys, values) {
                        guard case .string(let text) = try decode(key) else { throw Failure(message: "\(name) with a key that is not text") }
                        entries.append(.init(key: text, value: try decode(value)))
                    }
                    return .dictionary(entries)
                case "NSArray", "NSMutableArray":
                    var items: [ArchivedValue] = []
                    for uid in try references("NS.objects") { items.append(try decode(uid)) }
                    return .array(items)
                case "NSDate":
                    guard case .real(let seconds)? = try field("NS.time") else { throw Failure(message: "NSDate without NS.time") }
                    return .date(seconds)
                case "NSUUID":
                    guard case .data(let bytes)? = try field("NS.uuidbytes"), bytes.count == 16 else { throw Failure(message: "NSUUID without 16 NS.uuidbytes") }
                    return .uuid(bytes)
                case "NSURL":
                    guard case .uid(0)? = try field("NS.base"), case .uid(let relative)? = try field("NS.relative"),
                          case .string(let text) = try decode(relative) else { throw Failure(message: "an NSURL with a base URL") }
                    return .url(text)
                default:
                    throw Failure(message: "an object of class \(name), which has no JSON form")
                }
            }
        }
        return try decode(root)
    }
}

/// A binary plist (`bplist00`) read object by object, with every offset and reference checked.
struct PlistReader {
    enum Object {
        case string(String), integer(Int64), real(Double), boolean(Bool), data([UInt8]), uid(Int)
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
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count < UInt64(bytes.count),
              top < count, table >= 8, table + count * UInt64(offsetSize) <= UInt64(trailer) else { throw bad }
        self.bytes = bytes
        self.referenceSize = referenceSize
        self.top = Int(top)
        var offsets: [Int] = []
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
            return .real(Double(bitPattern: try take(8).reduce(0) { $0 << 8 | UInt64($1) }))
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
