import CLibXML2

/// The namespaces and attributes of one start tag, as libxml2's SAX2 `startElementNs` passes
/// them; valid only during that callback.
struct XMLStartTag {
    /// `prefix, URI` pairs.
    let namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let namespaceCount: Int
    /// `localname, prefix, URI, value, end` quintuples; attributes defaulted from the DTD are left
    /// out, as the tree builder leaves them out without `XML_PARSE_DTDATTR`.
    let attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let attributeCount: Int

    /// The value of the attribute (or namespace declaration) `name`, or nil when absent.
    func value(of name: XMLAttributeName) -> String? {
        switch name {
        case .attribute(let name):
            guard let attributes else { return nil }
            for index in 0..<attributeCount {
                let entry = attributes + 5 * index
                guard name.matches(entry[0], entry[1]) else { continue }
                guard let start = entry[3], let end = entry[4] else { return "" }
                return Self.attributeValue(UnsafeBufferPointer(start: start, count: end - start))
            }
        case .namespace(let prefix):
            guard let namespaces else { return nil }
            for index in 0..<namespaceCount where namespaces[2 * index] == prefix {
                return namespaces[2 * index + 1].map { String(cString: $0) } ?? ""
            }
        }
        return nil
    }

    /// Without entity substitution libxml2 hands an attribute value over with each `&` (from
    /// `&amp;` or `&#38;`) written as `&#38;`, for the tree builder to decode; so does this.
    private static func attributeValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        let escape = Array("&#38;".utf8)
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), index + escape.count <= bytes.count, bytes[index..<(index + escape.count)].elementsEqual(escape) {
                decoded.append(UInt8(ascii: "&"))
                index += escape.count
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}
