import Foundation
import CoreSeed

/// A binary property list written with shared references, as a hostile store holds them: a node used
/// twice is one object referred to twice. CoreSeed's own writers write trees, so the tests that need a
/// DAG (issue 24, item 9) build it here.
final class SharedPlistNode {
    enum Kind {
        case string(String), integer(Int64), data([UInt8]), uid(Int)
        case array([SharedPlistNode]), dictionary([(String, SharedPlistNode)])
    }
    let kind: Kind
    init(_ kind: Kind) { self.kind = kind }

    /// A tree of property-list values as nodes (dictionary keys sorted).
    convenience init(value: PropertyListValue) {
        switch value {
        case .string(let text): self.init(.string(text))
        case .integer(let number): self.init(.integer(number))
        case .boolean(let flag): self.init(.integer(flag ? 1 : 0))
        case .real(let number), .date(let number): self.init(.integer(Int64(number)))
        case .data(let bytes): self.init(.data(bytes))
        case .array(let items): self.init(.array(items.map { SharedPlistNode(value: $0) }))
        case .dictionary(let items): self.init(.dictionary(items.keys.sorted().map { ($0, SharedPlistNode(value: items[$0]!)) }))
        }
    }
}

enum SharedPlist {
    /// `depth` arrays, each holding the next twice, ending in `leaf`: 2^depth paths in 2·depth references.
    static func doubling(depth: Int, leaf: SharedPlistNode = SharedPlistNode(.string("x"))) -> SharedPlistNode {
        var node = leaf
        for _ in 0..<depth { node = SharedPlistNode(.array([node, node])) }
        return node
    }

    /// A `Z_PLIST`: `metadata` with one more key holding `hostile`.
    static func metadata(_ metadata: StoreMetadata, adding hostile: SharedPlistNode) -> [UInt8] {
        guard case .dictionary(var items) = metadata.propertyListValue else { return [] }
        items.removeValue(forKey: "Hostile")
        guard case .dictionary(let entries) = SharedPlistNode(value: .dictionary(items)).kind else { return [] }
        return bytes(SharedPlistNode(.dictionary(entries + [("Hostile", hostile)])))
    }

    /// An `NSKeyedArchiver` archive whose root is `depth` NSArrays, each holding the next twice.
    static func doublingArchive(depth: Int) -> [UInt8] {
        archive(arrays: (0..<depth).map { [$0 + 2, $0 + 2] }, leaf: "leaf")
    }

    /// An archive of NSArrays (UID 1 the root): `arrays[i]` lists the UIDs array i + 1 holds; then
    /// the string `leaf` at UID `arrays.count + 1`.
    static func archive(arrays: [[Int]], leaf: String) -> [UInt8] {
        let classUID = arrays.count + 2
        let names = SharedPlistNode(.array([SharedPlistNode(.string("NSArray")), SharedPlistNode(.string("NSObject"))]))
        var objects: [SharedPlistNode] = [SharedPlistNode(.string("$null"))]
        for members in arrays {
            objects.append(SharedPlistNode(.dictionary([("$class", SharedPlistNode(.uid(classUID))),
                                                        ("NS.objects", SharedPlistNode(.array(members.map { SharedPlistNode(.uid($0)) })))])))
        }
        objects.append(SharedPlistNode(.string(leaf)))
        objects.append(SharedPlistNode(.dictionary([("$classes", names), ("$classname", SharedPlistNode(.string("NSArray")))])))
        return bytes(SharedPlistNode(.dictionary([
            ("$archiver", SharedPlistNode(.string("NSKeyedArchiver"))), ("$objects", SharedPlistNode(.array(objects))),
            ("$top", SharedPlistNode(.dictionary([("root", SharedPlistNode(.uid(1)))]))), ("$version", SharedPlistNode(.integer(100000))),
        ])))
    }

    /// The `bplist00` bytes of `top`; each node is written once, however often it is referred to.
    static func bytes(_ top: SharedPlistNode) -> [UInt8] {
        var order: [SharedPlistNode] = []
        var numbers: [ObjectIdentifier: Int] = [:]
        var keys: [String: SharedPlistNode] = [:]
        func key(_ text: String) -> SharedPlistNode {
            if let known = keys[text] { return known }
            let node = SharedPlistNode(.string(text))
            keys[text] = node
            return node
        }
        func visit(_ node: SharedPlistNode) {
            guard numbers[ObjectIdentifier(node)] == nil else { return }
            numbers[ObjectIdentifier(node)] = order.count
            order.append(node)
            switch node.kind {
            case .array(let items): items.forEach(visit)
            case .dictionary(let entries): entries.forEach { visit(key($0.0)); visit($0.1) }
            default: break
            }
        }
        visit(top)
        let referenceSize = order.count < 256 ? 1 : 2
        func big(_ value: Int, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        func marker(_ type: UInt8, _ count: Int) -> [UInt8] { count < 15 ? [type << 4 | UInt8(count)] : [type << 4 | 0x0F, 0x12] + big(count, 4) }
        func reference(_ node: SharedPlistNode) -> [UInt8] { big(numbers[ObjectIdentifier(node)]!, referenceSize) }
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for node in order {
            offsets.append(bytes.count)
            switch node.kind {
            case .string(let text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) {
                    bytes += marker(0x5, text.utf8.count) + Array(text.utf8)
                } else {
                    bytes += marker(0x6, text.utf16.count) + text.utf16.flatMap { big(Int($0), 2) }
                }
            case .integer(let number): bytes += [0x13] + big(Int(number), 8)
            case .data(let data): bytes += marker(0x4, data.count) + data
            case .uid(let uid): bytes += [0x81] + big(uid, 2)
            case .array(let items): bytes += marker(0xA, items.count) + items.flatMap(reference)
            case .dictionary(let entries):
                bytes += marker(0xD, entries.count) + entries.flatMap { reference(key($0.0)) } + entries.flatMap { reference($0.1) }
            }
        }
        let table = bytes.count
        for offset in offsets { bytes += big(offset, 4) }
        return bytes + [0, 0, 0, 0, 0, 0, 4, UInt8(referenceSize)] + big(order.count, 8) + big(0, 8) + big(table, 8)
    }
}
