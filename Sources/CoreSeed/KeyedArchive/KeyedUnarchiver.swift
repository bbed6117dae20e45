/// Reads an `NSKeyedArchiver` binary plist back into an ``ArchivedValue`` (what `export` writes as
/// JSON): dictionaries with string keys, arrays, strings, numbers, booleans, data, `NSDate`, `NSUUID`
/// and `NSURL` without a base — the values ``KeyedArchiver`` writes. Anything else (an app's own
/// classes, sets, a URL with a base) is refused with what it holds, never guessed.
public enum KeyedUnarchiver {
    public struct Failure: Error, Sendable, Equatable {
        public let message: String
        /// The archive (or plist) passed one of ``PlistExpansion``'s limits: it may be well formed, but
        /// is more than CoreSeed reads, so a caller that would fall back for a value it cannot read
        /// reports it instead.
        public var isLimit = false
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
        guard objects.count <= KeyedArchiveGraph.objectLimit else {
            throw Failure(message: "an archive of \(objects.count) objects, more than \(KeyedArchiveGraph.objectLimit) (CoreSeed's limit)", isLimit: true)
        }
        return (plist, objects, root)
    }

    /// The value archived in `bytes`. Each object is decoded once and shared however often it is
    /// referred to, and the tree counted against ``PlistExpansion``'s limits (an error with `isLimit`).
    public static func value(_ bytes: [UInt8]) throws(Failure) -> ArchivedValue {
        let (plist, objects, root) = try header(bytes)
        let expansion = PlistExpansion(what: "archive", inputSize: bytes.count)
        var decoded: [Int: (value: ArchivedValue, size: PlistExpansion.Size)] = [:]
        var open = Set<Int>()
        var depth = 0
        /// The value at `uid`, its tree's size added to `total`.
        func decode(_ uid: Int, into total: inout PlistExpansion.Size) throws(Failure) -> ArchivedValue {
            guard uid > 0, uid < objects.count else { throw Failure(message: "an archived nil or a reference outside the archive") }
            if let known = decoded[uid] {
                total = try expansion.adding(known.size, to: total)
                return known.value
            }
            try expansion.enter(depth)
            guard open.insert(uid).inserted else { throw expansion.cycle }
            depth += 1
            defer { depth -= 1; open.remove(uid) }
            var size = PlistExpansion.Size.leaf()
            let value = try object(uid, size: &size)
            decoded[uid] = (value, size)
            total = try expansion.adding(size, to: total)
            return value
        }
        /// Object `uid` decoded, the sizes of its parts added to `size`.
        func object(_ uid: Int, size: inout PlistExpansion.Size) throws(Failure) -> ArchivedValue {
            switch try plist.object(objects[uid]) {
            case .string(let text):
                size.bytes = text.utf8.count
                return .string(text)
            case .integer(let number): return .integer(number)
            case .real(let number), .date(let number): return .real(number)
            case .boolean(let flag): return .boolean(flag)
            case .data(let data):
                size.bytes = data.count
                return .data(data)
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
                        guard case .string(let text) = try decode(key, into: &size) else { throw Failure(message: "\(name) with a key that is not text") }
                        entries.append(.init(key: text, value: try decode(value, into: &size)))
                    }
                    return .dictionary(entries)
                case "NSArray", "NSMutableArray":
                    var items: [ArchivedValue] = []
                    for uid in try references("NS.objects") { items.append(try decode(uid, into: &size)) }
                    return .array(items)
                case "NSDate":
                    guard let time = try field("NS.time"), case .real(let seconds) = time.asReal else { throw Failure(message: "NSDate without NS.time") }
                    return .date(seconds)
                case "NSUUID":
                    guard case .data(let bytes)? = try field("NS.uuidbytes"), bytes.count == 16 else { throw Failure(message: "NSUUID without 16 NS.uuidbytes") }
                    size.bytes = 16
                    return .uuid(bytes)
                case "NSURL":
                    guard case .uid(0)? = try field("NS.base"), case .uid(let relative)? = try field("NS.relative"),
                          case .string(let text) = try decode(relative, into: &size) else { throw Failure(message: "an NSURL with a base URL") }
                    return .url(text)
                default:
                    throw Failure(message: "an object of class \(name), which has no JSON form")
                }
            }
        }
        var total = PlistExpansion.Size(values: 0, bytes: 0)
        return try decode(root, into: &total)
    }
}
