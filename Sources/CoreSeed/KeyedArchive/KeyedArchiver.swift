import Foundation

/// Writes an ``ArchivedValue`` as the `NSKeyedArchiver` binary property list Apple's Foundation
/// writes (DESIGN §4b.11; the rules and their evidence in docs/SPEC.md, "Transformable values"):
///
/// - the archive: `$objects[0]` is `"$null"`, an object's slot is taken before its children, children
///   follow depth-first (a dictionary's keys, then its values), a class dictionary follows its first
///   instance's whole subgraph and is shared by later ones; equal numbers, booleans and strings short
///   enough for Apple's tagged pointers are one object; every dictionary's keys are in the order of
///   CoreFoundation's hash table (fixed orders for the few dictionaries an archive of these values has);
/// - the binary plist: objects in CoreFoundation's flatten order, strings, numbers and data shared only
///   when they are one object, a repeated UID or boolean written again unreferenced (as CF does),
///   1/2/4/8-byte integers, ASCII or UTF-16 strings, the 32-byte trailer.
///
/// The real archives in the corpus (`carekit-samplestore2.0`) come out byte for byte. What cannot be
/// known from evidence — the order of a multi-entry dictionary's keys (Swift dictionaries bridged to
/// Foundation enumerate in a per-process random order) — is the JSON's own order here.
public enum KeyedArchiver {
    /// The archive of `value`.
    public static func archive(_ value: ArchivedValue) -> [UInt8] {
        var archiver = Archiver()
        let root = archiver.encode(value)
        return PlistWriter.write(archiver.finish(root: root))
    }

    /// Whether Core Data reads the attribute's values as keyed archives: no transformer named (the
    /// default), or one of Foundation's unarchiving transformers. A custom transformer's bytes are its own.
    static func isReadAsArchive(_ attribute: Attribute) -> Bool {
        guard let name = attribute.valueTransformerName else { return true }
        return ["NSSecureUnarchiveFromData", "NSSecureUnarchiveFromDataTransformer", "NSKeyedUnarchiveFromData"].contains(name)
    }

    /// A binary property list whose top object says `$archiver: NSKeyedArchiver`. Only the top object
    /// is read, so an archive of shared references is not expanded (issue 24, item 9).
    static func isKeyedArchive(_ bytes: [UInt8]) -> Bool {
        guard let plist = try? PlistReader(bytes), case .dictionary(let top)? = try? plist.object(plist.top),
              let archiver = top["$archiver"], case .string("NSKeyedArchiver")? = try? plist.object(archiver) else { return false }
        return true
    }

    /// A node of the binary plist; identity (the class instance) stands for Foundation's pointer identity.
    final class Node {
        enum Kind {
            case string(String), integer(Int64), real(Double), boolean(Bool), data([UInt8]), uid(Int)
            case array([Node]), dictionary([(key: Node, value: Node)])
        }
        var kind: Kind
        init(_ kind: Kind) { self.kind = kind }

        /// Strings, numbers and data are written once per object; the rest once per visit.
        var isUniqued: Bool {
            switch kind {
            case .string, .integer, .real, .data: true
            default: false
            }
        }
    }

    /// The 6-bit alphabet of Apple's tagged-pointer strings (its first 32 characters: the 5-bit one).
    static let taggedAlphabet = Array("eilotrm.apdnsIc ufkMShjTRxgC4013bDNvwyUL2O38-kHGpEFcBA56GzxjqQVW".unicodeScalars)

    /// Whether Apple's Foundation keeps `text` in a tagged pointer, so that equal texts are one object.
    static func isTagged(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        switch scalars.count {
        case 0...7: return scalars.allSatisfy(\.isASCII)
        case 8...9: return scalars.allSatisfy(taggedAlphabet.contains)
        case 10...11: return scalars.allSatisfy(taggedAlphabet[..<32].contains)
        default: return false
        }
    }

    private struct Archiver {
        var objects: [Node?] = []
        private var uids: [Int: Node] = [:]
        private var constants: [String: Node] = [:]
        private var numbers: [String: Node] = [:]
        /// Equal values that are one object to Foundation: their `$objects` slot.
        private var shared: [String: Int] = [:]
        private var classes: [String: Int] = [:]

        init() { objects.append(constant("$null")) }

        mutating func uid(_ number: Int) -> Node {
            if let node = uids[number] { return node }
            let node = Node(.uid(number))
            uids[number] = node
            return node
        }

        mutating func constant(_ text: String) -> Node {
            if let node = constants[text] { return node }
            let node = Node(.string(text))
            constants[text] = node
            return node
        }

        mutating func text(_ text: String) -> Node { KeyedArchiver.isTagged(text) ? constant(text) : Node(.string(text)) }

        mutating func number(_ key: String, _ make: () -> Node) -> Node {
            if let node = numbers[key] { return node }
            let node = make()
            numbers[key] = node
            return node
        }

        /// What makes equal values one object: tagged strings, numbers, booleans.
        func sharingKey(_ value: ArchivedValue) -> String? {
            switch value {
            case .boolean(let flag): "b\(flag)"
            case .integer(let number): "i\(number)"
            case .real(let number): "r\(number.bitPattern)"
            case .string(let text) where KeyedArchiver.isTagged(text): "s" + text
            default: nil
            }
        }

        /// `encodeObject:`: the value's `$objects` slot, as a UID node.
        mutating func encode(_ value: ArchivedValue) -> Node {
            let key = sharingKey(value)
            if let key, let slot = shared[key] { return uid(slot) }
            let slot = objects.count
            objects.append(nil)
            if let key { shared[key] = slot }
            objects[slot] = build(value)
            return uid(slot)
        }

        mutating func build(_ value: ArchivedValue) -> Node {
            switch value {
            case .string(let string): return text(string)
            case .integer(let integer): return number("i\(integer)") { Node(.integer(integer)) }
            case .real(let real): return number("r\(real.bitPattern)") { Node(.real(real)) }
            case .boolean(let flag): return Node(.boolean(flag))
            case .data(let bytes): return Node(.data(bytes))
            case .array(let items):
                let refs = items.map { encode($0) }
                return object([("NS.objects", Node(.array(refs)))], classes: ["NSArray", "NSObject"])
            case .dictionary(let entries):
                let keys = entries.map { encode(.string($0.key)) }
                let values = entries.map { encode($0.value) }
                return object([("NS.keys", Node(.array(keys))), ("NS.objects", Node(.array(values)))], classes: ["NSDictionary", "NSObject"])
            case .date(let seconds):
                return object([("NS.time", number("r\(seconds.bitPattern)") { Node(.real(seconds)) })], classes: ["NSDate", "NSObject"])
            case .uuid(let bytes):
                return object([("NS.uuidbytes", Node(.data(bytes)))], classes: ["NSUUID", "NSObject"])
            case .url(let string):
                let base = uid(0)
                let relative = encode(.string(string))
                return object([("NS.base", base), ("NS.relative", relative)], classes: ["NSURL", "NSObject"])
            }
        }

        /// An object's dictionary: its fields, then `$class` (the hash-table order of these keys: `$class`
        /// sorts after each of them), its class dictionary appended after the fields' objects.
        mutating func object(_ fields: [(String, Node)], classes names: [String]) -> Node {
            let classUID = classReference(names)
            return Node(.dictionary(fields.map { (constant($0.0), $0.1) } + [(constant("$class"), classUID)]))
        }

        mutating func classReference(_ names: [String]) -> Node {
            let key = names.joined(separator: ",")
            if let slot = classes[key] { return uid(slot) }
            let slot = objects.count
            classes[key] = slot
            let list = names.map { text($0) }
            objects.append(Node(.dictionary([(constant("$classname"), text(names[0])), (constant("$classes"), Node(.array(list)))])))
            return uid(slot)
        }

        /// The top dictionary, in its hash-table order: `$version`, `$archiver`, `$top`, `$objects`.
        mutating func finish(root: Node) -> Node {
            let top = Node(.dictionary([(constant("root"), root)]))
            return Node(.dictionary([
                (constant("$version"), Node(.integer(100000))), (constant("$archiver"), constant("NSKeyedArchiver")),
                (constant("$top"), top), (constant("$objects"), Node(.array(objects.map { $0! }))),
            ]))
        }
    }
}
