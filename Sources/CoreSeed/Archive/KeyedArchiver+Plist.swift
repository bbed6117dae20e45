extension KeyedArchiver {
    /// CoreFoundation's binary plist writer (`__CFBinaryPlistWriteOrPresize` in `CFBinaryPList.c`) for a
    /// tree of ``Node``s: objects in flatten order (depth first; a dictionary's keys, then its values),
    /// uniqued by identity for strings, numbers and data only, so a repeated UID or boolean is written
    /// again and left unreferenced (references keep the first copy); offset table; 32-byte trailer.
    enum PlistWriter {
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

            let referenceSize = byteCount(UInt64(order.count))
            var bytes = Array("bplist00".utf8)
            var offsets: [Int] = []
            offsets.reserveCapacity(order.count)
            func reference(_ node: Node) {
                appendBigEndian(UInt64(index[ObjectIdentifier(node)]!), size: referenceSize, to: &bytes)
            }
            for node in order {
                offsets.append(bytes.count)
                switch node.kind {
                case .string(let text):
                    if text.unicodeScalars.allSatisfy(\.isASCII) {
                        marker(0x50, count: text.utf8.count, to: &bytes)
                        bytes += text.utf8
                    } else {
                        let units = Array(text.utf16)
                        marker(0x60, count: units.count, to: &bytes)
                        for unit in units { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
                    }
                case .integer(let number): appendInteger(number, to: &bytes)
                case .real(let number):
                    bytes.append(0x23)
                    appendBigEndian(number.bitPattern, size: 8, to: &bytes)
                case .boolean(let flag): bytes.append(flag ? 0x09 : 0x08)
                case .data(let data):
                    marker(0x40, count: data.count, to: &bytes)
                    bytes += data
                case .uid(let number):
                    let size = number <= 0xFF ? 1 : number <= 0xFFFF ? 2 : number <= 0xFFFF_FFFF ? 4 : 8
                    bytes.append(0x80 | UInt8(size - 1))
                    appendBigEndian(UInt64(number), size: size, to: &bytes)
                case .array(let items):
                    marker(0xA0, count: items.count, to: &bytes)
                    for item in items { reference(item) }
                case .dictionary(let entries):
                    marker(0xD0, count: entries.count, to: &bytes)
                    for entry in entries { reference(entry.key) }
                    for entry in entries { reference(entry.value) }
                }
            }
            let tableOffset = bytes.count
            let offsetSize = byteCount(UInt64(tableOffset))
            for offset in offsets { appendBigEndian(UInt64(offset), size: offsetSize, to: &bytes) }
            bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            appendBigEndian(UInt64(order.count), size: 8, to: &bytes)
            appendBigEndian(0, size: 8, to: &bytes)
            appendBigEndian(UInt64(tableOffset), size: 8, to: &bytes)
            return bytes
        }

        /// CF's `_byteCount`: the bytes needed for `count`, rounded up to 1, 2, 4 or 8.
        static func byteCount(_ count: UInt64) -> Int {
            var size = 0
            var rest = count
            while rest != 0 { size += 1; rest >>= 8 }
            return size <= 1 ? 1 : size <= 2 ? 2 : size <= 4 ? 4 : 8
        }

        static func appendBigEndian(_ value: UInt64, size: Int, to bytes: inout [UInt8]) {
            for shift in stride(from: (size - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }

        /// An integer: 1, 2, 4 or 8 bytes by its unsigned size; a negative one in 8 (two's complement).
        static func appendInteger(_ number: Int64, to bytes: inout [UInt8]) {
            let value = UInt64(bitPattern: number)
            let size = value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
            bytes.append(0x10 | UInt8(size.trailingZeroBitCount))
            appendBigEndian(value, size: size, to: &bytes)
        }

        /// A type marker with its count: in the low nibble below 15, else 0xF and an integer object.
        static func marker(_ type: UInt8, count: Int, to bytes: inout [UInt8]) {
            if count < 15 {
                bytes.append(type | UInt8(count))
            } else {
                bytes.append(type | 0x0F)
                appendInteger(Int64(count), to: &bytes)
            }
        }
    }
}
