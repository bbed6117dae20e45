/// An `NSKeyedArchiver` for graphs of objects with identity and back references (a managed object
/// model): what ``KeyedArchiver`` does for plain values, plus `encodeConditionalObject:`.
///
/// As Foundation does: an object's `$objects` slot is taken when it is first referenced, conditionally
/// or not; its fields are filled when it is first encoded unconditionally, children depth first in the
/// order its `encodeWithCoder:` writes them; its class dictionary follows its whole subgraph. Strings
/// are one object per value unless given an identity of their own (a copy); numbers (32- and 64-bit
/// apart) and booleans are one plist object per value, as tagged pointers and CF's cached numbers are.
/// An object's keys are in the order of ``CFBasicHashOrder``, inserted in the order its class gives
/// (`keyOrder`, which may place `$class`), else in encoding order, `$class` last. Each rule is checked
/// against the corpus's model caches (docs/LAYOUT.md, "Z_MODELCACHE"; `ModelArchiverCorpusTests`).
///
/// Not `Sendable`: the mutable state of one archive being written.
final class ObjectArchiver {
    typealias Node = KeyedArchiver.Node

    /// One object's fields in encoding order.
    struct Fields {
        fileprivate(set) var entries: [(key: String, value: Node)] = []
        /// Adds a field (a value from the archiver: a reference, a number, a boolean).
        mutating func add(_ key: String, _ value: Node) { entries.append((key, value)) }
    }

    private var objects: [Node?] = []
    private var slots: [String: Int] = [:]
    private var encoded: Set<String> = []
    private var nodes: [String: Node] = [:]
    private var classSlots: [String: Int] = [:]

    init() { objects.append(constant("$null")) }

    /// The slot the next new object takes.
    var nextSlot: Int { objects.count }

    /// `$null`: a nil object.
    var null: Node { uid(0) }

    /// One shared node per key: the plist writer writes a node once, so equal keys are one object.
    private func shared(_ key: String, _ make: () -> Node.Kind) -> Node {
        if let node = nodes[key] { return node }
        let node = Node(make())
        nodes[key] = node
        return node
    }

    func uid(_ number: Int) -> Node { shared("u\(number)") { .uid(number) } }

    /// A key, class name or other string written once per value in the property list.
    func constant(_ text: String) -> Node { shared("s" + text) { .string(text) } }

    /// `encodeInt:`/`encodeInt32:` and an `NSNumber` of an integer: one node per value; `wide` for
    /// `encodeInteger:`/`encodeInt64:`, whose numbers are other (64-bit) objects than the 32-bit ones
    /// of the same value (the plist then holds the value twice).
    func integer(_ value: Int64, wide: Bool = false) -> Node { shared((wide ? "l" : "i") + "\(value)") { .integer(value) } }

    func real(_ value: Double) -> Node { shared("r\(value.bitPattern)") { .real(value) } }

    /// `encodeBool:`: CoreFoundation's two boolean objects.
    func boolean(_ flag: Bool) -> Node { shared("b\(flag)") { .boolean(flag) } }

    private func slot(for identity: String) -> Int {
        if let slot = slots[identity] { return slot }
        let slot = objects.count
        objects.append(nil)
        slots[identity] = slot
        return slot
    }

    /// `encodeObject:` of a string: the string's slot (one per value, or one per `identity` when the
    /// string is a distinct object of equal value), `$null` for nil.
    func string(_ text: String?, identity given: String? = nil) -> Node {
        guard let text else { return null }
        let identity = given.map { "s#" + $0 } ?? ("s:" + text)
        let slot = slot(for: identity)
        // A string of its own identity is a heap object even when short (a copy, not a tagged pointer).
        if encoded.insert(identity).inserted { objects[slot] = given == nil && KeyedArchiver.isTagged(text) ? constant(text) : Node(.string(text)) }
        return uid(slot)
    }

    /// `encodeObject:` of an `NSNumber` (or boolean) in `$objects`: one slot per value.
    func number(_ node: Node) -> Node {
        let identity: String
        switch node.kind {
        case .integer(let value): identity = "n:i\(value)"
        case .real(let value): identity = "n:r\(value.bitPattern)"
        case .boolean(let flag): identity = "n:b\(flag)"
        default: preconditionFailure("not a number")
        }
        let slot = slot(for: identity)
        if encoded.insert(identity).inserted { objects[slot] = node }
        return uid(slot)
    }

    /// `encodeConditionalObject:`: the object's slot, taken now if it has none; its fields come when
    /// it is encoded.
    func conditional(_ identity: String?) -> Node {
        guard let identity else { return null }
        return uid(slot(for: identity))
    }

    /// `encodeObject:` of the object `identity` of class `classes[0]` (its chain up to `NSObject`):
    /// `encode` writes its fields, once; later references get its slot.
    func object(_ identity: String, classes: [String], keyOrder: [String]? = nil, _ encode: (inout Fields) -> Void) -> Node {
        let slot = slot(for: identity)
        guard encoded.insert(identity).inserted else { return uid(slot) }
        var fields = Fields()
        encode(&fields)
        let classNode = classReference(classes)
        let byKey = Dictionary(fields.entries.map { ($0.key, $0.value) } + [("$class", classNode)]) { first, _ in first }
        var insertion = fields.entries.map(\.key) + ["$class"]
        if let keyOrder {
            let rank = Dictionary(keyOrder.enumerated().map { ($1, $0) }) { first, _ in first }
            insertion = insertion.enumerated().sorted { (rank[$0.element] ?? keyOrder.count + $0.offset, $0.offset) < (rank[$1.element] ?? keyOrder.count + $1.offset, $1.offset) }.map(\.element)
        }
        let keys = CFBasicHashOrder.ordered(inserting: insertion)
        objects[slot] = Node(.dictionary(keys.map { (constant($0), byKey[$0]!) }))
        return uid(slot)
    }

    /// An unshared collection object (`NSArray`, `NSSet`, … of `classes`) of `members`, encoded in order.
    func collection(_ identity: String? = nil, classes: [String], _ members: () -> [Node]) -> Node {
        object(identity ?? "c:\(objects.count)", classes: classes) { fields in
            fields.add("NS.objects", Node(.array(members())))
        }
    }

    /// An `NSDictionary` (of `classes`) whose keys are strings: keys encoded first, then values.
    func dictionary(_ identity: String? = nil, classes: [String], keys: [String], value: (String) -> Node) -> Node {
        object(identity ?? "c:\(objects.count)", classes: classes) { fields in
            let keyNodes = keys.map { string($0) }
            let valueNodes = keys.map { value($0) }
            fields.add("NS.keys", Node(.array(keyNodes)))
            fields.add("NS.objects", Node(.array(valueNodes)))
        }
    }

    /// Whether Foundation's own class names are one string each across the archive (seen in some
    /// stores of every era from 1044: a platform's constant class-name strings), not only tagged ones.
    var sharesFoundationClassNames = false

    static let foundationClasses: Set<String> = [
        "NSObject", "NSArray", "NSMutableArray", "NSDictionary", "NSMutableDictionary", "NSSet", "NSMutableSet",
        "NSString", "NSMutableString",
    ]

    private func className(_ name: String) -> Node {
        if KeyedArchiver.isTagged(name) || (sharesFoundationClassNames && Self.foundationClasses.contains(name)) { return constant(name) }
        return Node(.string(name))
    }

    private func classReference(_ names: [String]) -> Node {
        let key = names.joined(separator: ",")
        if let slot = classSlots[key] { return uid(slot) }
        let slot = objects.count
        classSlots[key] = slot
        let list = names.map { className($0) }
        let name = className(names[0])
        objects.append(Node(.dictionary([(constant("$classname"), name), (constant("$classes"), Node(.array(list)))])))
        return uid(slot)
    }

    /// The archive's bytes, `root` its `$top` root. `hashedTop`: the top dictionary's keys in
    /// ``CFBasicHashOrder`` (frameworks before 1044), else `$version, $archiver, $top, $objects`.
    func finish(root: Node, hashedTop: Bool) -> [UInt8] {
        let top = Node(.dictionary([(constant("root"), root)]))
        let entries: [String: Node] = [
            "$version": integer(100000), "$archiver": constant("NSKeyedArchiver"), "$top": top,
            "$objects": Node(.array(objects.map { $0 ?? constant("$null") })),
        ]
        let fixed = ["$version", "$archiver", "$top", "$objects"]
        let keys = hashedTop ? CFBasicHashOrder.ordered(inserting: fixed) : fixed
        return KeyedArchiver.PlistWriter.write(Node(.dictionary(keys.map { (constant($0), entries[$0]!) })))
    }
}
