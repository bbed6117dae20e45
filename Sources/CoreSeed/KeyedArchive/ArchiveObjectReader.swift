/// Typed reads over a ``KeyedArchiveGraph`` for decoding framework objects (a compiled model): each
/// read names what it expected, and every object's keys can be checked against the keys its decoder
/// knows, so a key or class CoreSeed has never seen is an error instead of a silent gap.
struct ArchiveObjectReader {
    typealias Node = KeyedArchiveGraph.Node
    typealias Failure = CompiledModelReader.Failure

    let graph: KeyedArchiveGraph

    /// The deepest nesting of expressions, predicates and entity chains a decoder follows.
    static let depthLimit = 64

    static func lift<T>(_ body: () throws(KeyedUnarchiver.Failure) -> T) throws(Failure) -> T {
        do { return try body() } catch { throw Failure(message: error.message) }
    }

    func node(_ uid: Int) throws(Failure) -> Node { try Self.lift { () throws(KeyedUnarchiver.Failure) in try graph.node(uid) } }

    func field(_ uid: Int, _ key: String) throws(Failure) -> Node? {
        try Self.lift { () throws(KeyedUnarchiver.Failure) in try graph.field(uid, key) }
    }

    /// Fails naming the first key of object `uid` (class `className`, described by `what`) that is in
    /// neither `known` nor `ignored`.
    func checkKeys(_ uid: Int, _ className: String, _ what: String, known: Set<String>) throws(Failure) {
        let keys = try Self.lift { () throws(KeyedUnarchiver.Failure) in try graph.keys(uid) }
        if let unknown = keys.first(where: { !known.contains($0) }) {
            throw Failure(message: "\(what): the \(className) has the archive key '\(unknown)', which CoreSeed does not know; it cannot tell whether it changes the store, so it reads no model from this archive")
        }
    }

    /// A string field: a plain string, an `NSString`/`NSMutableString` object, or nil when absent or `$null`.
    func string(_ uid: Int, _ key: String, _ what: String) throws(Failure) -> String? {
        try string(try field(uid, key), "\(what) \(key)")
    }

    func string(_ node: Node?, _ what: String) throws(Failure) -> String? {
        switch node {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case .object(let className, let uid)? where className == "NSString" || className == "NSMutableString":
            guard case .string(let text)? = try field(uid, "NS.string") else { throw Failure(message: "\(what): an \(className) without NS.string") }
            return text
        case let other?: throw Failure(message: "\(what) is \(Self.describe(other)), not a string")
        }
    }

    /// A boolean field (a plist boolean or integer); false when absent.
    func bool(_ uid: Int, _ key: String, _ what: String) throws(Failure) -> Bool {
        switch try field(uid, key) {
        case nil, .null?: return false
        case .boolean(let flag)?: return flag
        case .integer(let number)?: return number != 0
        case let other?: throw Failure(message: "\(what) \(key) is \(Self.describe(other)), not a boolean")
        }
    }

    /// An integer field; nil when absent.
    func integer(_ uid: Int, _ key: String, _ what: String) throws(Failure) -> Int64? {
        switch try field(uid, key) {
        case nil, .null?: return nil
        case .integer(let number)?: return number
        case .boolean(let flag)?: return flag ? 1 : 0
        case let other?: throw Failure(message: "\(what) \(key) is \(Self.describe(other)), not an integer")
        }
    }

    /// The members of an array or set object (nil or `$null`: none).
    func members(_ node: Node?, _ what: String) throws(Failure) -> [Node] {
        switch node {
        case nil, .null?: return []
        case .object(let className, let uid)?:
            guard ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet"].contains(className) else {
                throw Failure(message: "\(what) is an object of class \(className), not an array or set")
            }
            try checkKeys(uid, className, what, known: ["NS.objects"])
            return try Self.lift { () throws(KeyedUnarchiver.Failure) in try graph.members(uid) }
        case let other?: throw Failure(message: "\(what) is \(Self.describe(other)), not an array or set")
        }
    }

    /// The entries of a dictionary object with string keys, in archive order (nil or `$null`: none).
    func entries(_ node: Node?, _ what: String) throws(Failure) -> [(key: String, value: Node)] {
        switch node {
        case nil, .null?: return []
        case .object(let className, let uid)?:
            var keys: [Node], values: [Node]
            switch className {
            case "NSDictionary", "NSMutableDictionary":
                try checkKeys(uid, className, what, known: ["NS.keys", "NS.objects"])
                keys = try Self.lift { () throws(KeyedUnarchiver.Failure) in try graph.members(uid, keys: true) }
                values = try Self.lift { () throws(KeyedUnarchiver.Failure) in try graph.members(uid) }
            case "NSKnownKeysDictionary1":
                // Its values are an NSArray in the order of its search mapping's keys.
                try checkKeys(uid, className, what, known: ["emptyToken", "searchMapping", "values", "version"])
                guard case .object("NSKnownKeysMappingStrategy1", let mapping)? = try field(uid, "searchMapping") else {
                    throw Failure(message: "\(what): an NSKnownKeysDictionary1 without its searchMapping")
                }
                try checkKeys(mapping, "NSKnownKeysMappingStrategy1", what, known: ["keys", "length", "version"])
                keys = try members(try field(mapping, "keys"), "\(what) keys")
                values = try members(try field(uid, "values"), "\(what) values")
            default: throw Failure(message: "\(what) is an object of class \(className), not a dictionary")
            }
            guard keys.count == values.count else { throw Failure(message: "\(what): \(keys.count) keys and \(values.count) values") }
            var result: [(key: String, value: Node)] = []
            for (key, value) in zip(keys, values) {
                guard let name = try string(key, "\(what) key") else { throw Failure(message: "\(what): a nil key") }
                result.append((name, value))
            }
            return result
        case let other?: throw Failure(message: "\(what) is \(Self.describe(other)), not a dictionary")
        }
    }

    /// A user info dictionary: string keys and values (numbers and booleans as their text, as a model
    /// file writes them).
    func userInfo(_ uid: Int, _ what: String) throws(Failure) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in try entries(try field(uid, "NSUserInfo"), "\(what) NSUserInfo") {
            switch value {
            case .integer(let number): result[key] = String(number)
            case .real(let number): result[key] = String(number)
            case .boolean(let flag): result[key] = flag ? "YES" : "NO"
            default:
                guard let text = try string(value, "\(what) NSUserInfo '\(key)'") else {
                    throw Failure(message: "\(what) NSUserInfo '\(key)' is nil")
                }
                result[key] = text
            }
        }
        return result
    }

    /// The name of the entity object `node` refers to.
    func entityName(_ node: Node?, _ what: String) throws(Failure) -> String? {
        switch node {
        case nil, .null?: return nil
        case .object("NSEntityDescription", let uid)?: return try string(uid, "NSEntityName", what)
        case let other?: throw Failure(message: "\(what) is \(Self.describe(other)), not an entity")
        }
    }

    static func describe(_ node: Node) -> String {
        switch node {
        case .null: "nil"
        case .string(let text): "the string \"\(text.prefix(40))\""
        case .integer(let number): "the integer \(number)"
        case .real(let number): "the number \(number)"
        case .boolean(let flag): "the boolean \(flag)"
        case .data(let bytes): "\(bytes.count) bytes of data"
        case .object(let className, _): "an object of class \(className)"
        }
    }
}
