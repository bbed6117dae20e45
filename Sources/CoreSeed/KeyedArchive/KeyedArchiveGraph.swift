/// An `NSKeyedArchiver` archive read as its object graph, for archives of framework classes such as
/// a compiled model (`NSManagedObjectModel`), where objects refer back to each other. Each object is
/// reached by its UID; nothing is decoded until asked for, and every reference is checked. Each call
/// reads one object (or one collection's members), never a subtree, so shared references cannot make
/// it expand a graph (issue 24, item 9).
public struct KeyedArchiveGraph {
    /// One archived value: a plain value, or an object of a class with its fields (UIDs or values).
    public enum Node: Equatable {
        case null
        case string(String), integer(Int64), real(Double), boolean(Bool), data([UInt8])
        case object(className: String, uid: Int)
    }

    let plist: PlistReader
    let objects: [Int]
    /// The UID of the root object.
    public let root: Int

    /// The most objects an archive may hold (a compiled model of hundreds of entities holds tens of
    /// thousands); more is refused rather than read, here and by ``KeyedUnarchiver``.
    public static let objectLimit = 1_000_000

    /// Reads the archive's header and object table; an error when `bytes` is not a keyed archive.
    public init(_ bytes: [UInt8]) throws(KeyedUnarchiver.Failure) {
        let (plist, objects, root) = try KeyedUnarchiver.header(bytes)
        self.plist = plist
        self.objects = objects
        self.root = root
    }

    /// The value at `uid` (UID 0 is nil).
    public func node(_ uid: Int) throws(KeyedUnarchiver.Failure) -> Node {
        guard uid != 0 else { return .null }
        guard uid > 0, uid < objects.count else { throw KeyedUnarchiver.Failure(message: "a reference outside the archive") }
        switch try plist.object(objects[uid]) {
        case .string(let text): return text == "$null" ? .null : .string(text)
        case .integer(let number): return .integer(number)
        case .real(let number), .date(let number): return .real(number)
        case .boolean(let flag): return .boolean(flag)
        case .data(let data): return .data(data)
        case .uid, .array: throw KeyedUnarchiver.Failure(message: "a malformed archive (a bare reference or array among its objects)")
        case .dictionary(let fields):
            guard let classReference = fields["$class"], case .uid(let classUID) = try plist.object(classReference),
                  classUID > 0, classUID < objects.count, case .dictionary(let classFields) = try plist.object(objects[classUID]),
                  let nameReference = classFields["$classname"], case .string(let name) = try plist.object(nameReference) else {
                throw KeyedUnarchiver.Failure(message: "an archived object without a class")
            }
            return .object(className: name, uid: uid)
        }
    }

    /// The keys of object `uid`'s fields, without `$class`.
    public func keys(_ uid: Int) throws(KeyedUnarchiver.Failure) -> [String] {
        guard case .dictionary(let fields) = try plist.object(objects[uid]) else { return [] }
        return fields.keys.filter { $0 != "$class" }.sorted()
    }

    /// Field `key` of object `uid`, resolved one level: a reference becomes the node it names.
    public func field(_ uid: Int, _ key: String) throws(KeyedUnarchiver.Failure) -> Node? {
        guard uid > 0, uid < objects.count, case .dictionary(let fields) = try plist.object(objects[uid]),
              let reference = fields[key] else { return nil }
        switch try plist.object(reference) {
        case .uid(let target): return try node(target)
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .real(let number), .date(let number): return .real(number)
        case .boolean(let flag): return .boolean(flag)
        case .data(let data): return .data(data)
        case .array, .dictionary: throw KeyedUnarchiver.Failure(message: "\(key) holds an inline collection")
        }
    }

    /// The members of a collection object (`NSArray`, `NSSet`, `NSDictionary` values, and their mutable
    /// kinds), as nodes; with `keys`, a dictionary's keys instead.
    public func members(_ uid: Int, keys: Bool = false) throws(KeyedUnarchiver.Failure) -> [Node] {
        guard case .dictionary(let fields) = try plist.object(objects[uid]),
              let reference = fields[keys ? "NS.keys" : "NS.objects"], case .array(let items) = try plist.object(reference) else {
            throw KeyedUnarchiver.Failure(message: "a collection without \(keys ? "NS.keys" : "NS.objects")")
        }
        var result: [Node] = []
        for item in items {
            guard case .uid(let target) = try plist.object(item) else {
                throw KeyedUnarchiver.Failure(message: "a collection member that is not a reference")
            }
            result.append(try node(target))
        }
        return result
    }
}
