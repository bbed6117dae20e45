extension KeyedArchiver {
    /// CoreFoundation's binary plist writer (`__CFBinaryPlistWriteOrPresize` in `CFBinaryPList.c`) for a
    /// tree of ``Node``s: objects in flatten order (depth first; a dictionary's keys, then its values),
    /// uniqued by identity for strings, numbers and data only, so a repeated UID or boolean is written
    /// again and left unreferenced (references keep the first copy); offset table; 32-byte trailer. Objects
    /// are encoded as ``BinaryPropertyListWriter`` encodes them (the metadata's writer, which uniques by value).
    enum PlistWriter {
        /// The object encoding both writers share.
        private typealias Plist = BinaryPropertyListWriter

        static func write(_ root: Node) -> [UInt8] {
            var order: [Node] = []
            var index: [ObjectIdentifier: Int] = [:]
            var uniqued = Set<ObjectIdentifier>()
            func flatten(_ node: Node) {
                let id = ObjectIdentifier(node)
                if node.isUniqued {
                    guard uniqued.insert(id).inserted else { return }
                }
                if index[id] == nil { index[id] = order.count }
                order.append(node)
                switch node.kind {
                case .dictionary(let entries):
                    for entry in entries { flatten(entry.key) }
                    for entry in entries { flatten(entry.value) }
                case .array(let items):
                    for item in items { flatten(item) }
                default: break
                }
            }
            flatten(root)

            let referenceSize = Plist.byteCount(for: UInt64(order.count))
            var bytes = Array("bplist00".utf8)
            var offsets: [Int] = []
            offsets.reserveCapacity(order.count)
            func reference(_ node: Node) {
                Plist.appendBigEndian(UInt64(index[ObjectIdentifier(node)]!), size: referenceSize, to: &bytes)
            }
            for node in order {
                offsets.append(bytes.count)
                switch node.kind {
                case .string(let text): Plist.encodeScalar(.string(text), into: &bytes)
                case .integer(let number): Plist.encodeScalar(.integer(number), into: &bytes)
                case .real(let number): Plist.encodeScalar(.real(number), into: &bytes)
                case .boolean(let flag): Plist.encodeScalar(.boolean(flag), into: &bytes)
                case .data(let data): Plist.encodeScalar(.data(data), into: &bytes)
                case .uid(let number):
                    let size = Plist.byteCount(for: UInt64(number))
                    bytes.append(0x80 | UInt8(size - 1))
                    Plist.appendBigEndian(UInt64(number), size: size, to: &bytes)
                case .array(let items):
                    Plist.appendMarker(0xA, count: items.count, to: &bytes)
                    for item in items { reference(item) }
                case .dictionary(let entries):
                    Plist.appendMarker(0xD, count: entries.count, to: &bytes)
                    for entry in entries { reference(entry.key) }
                    for entry in entries { reference(entry.value) }
                }
            }
            let tableOffset = bytes.count
            let offsetSize = Plist.byteCount(for: UInt64(tableOffset))
            for offset in offsets { Plist.appendBigEndian(UInt64(offset), size: offsetSize, to: &bytes) }
            bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            Plist.appendBigEndian(UInt64(order.count), size: 8, to: &bytes)
            Plist.appendBigEndian(0, size: 8, to: &bytes)
            Plist.appendBigEndian(UInt64(tableOffset), size: 8, to: &bytes)
            return bytes
        }
    }
}
