import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The namespaces and attributes of one start tag, as libxml2's SAX2 `startElementNs` passes
/// them; valid only during that callback.
struct XMLStartTag {
    /// `prefix, URI` pairs.
    /// SAFETY: libxml2's arrays for this start tag, valid during `startElementNs` only: the tag is never stored, values are copied out.
    let namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let namespaceCount: Int
    /// `localname, prefix, URI, value, end` quintuples; attributes defaulted from the DTD are left
    /// out, as the tree builder leaves them out without `XML_PARSE_DTDATTR`.
    /// SAFETY: as `namespaces`: read during the callback only.
    let attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let attributeCount: Int

    /// Every attribute by its qualified name (`prefix:local`, or `local` without a prefix), its
    /// value decoded as ``value(of:)`` decodes it; namespace declarations are not attributes here.
    func attributeValues() -> [String: String] {
        guard let attributes, attributeCount > 0 else { return [:] }
        var values: [String: String] = [:]
        var buffer = XMLByteBuffer(capacity: 64)
        for index in 0..<attributeCount {
            let entry = attributes + 5 * index
            guard let local = entry[0] else { continue }
            buffer.count = 0
            if let prefix = entry[1] {
                buffer.append(prefix, count: Int(strlen(prefix)))
                buffer.append(":")
            }
            buffer.append(local, count: Int(strlen(local)))
            let name = buffer.string(from: 0)
            buffer.count = 0
            // SAFETY: a view of the attribute value, copied into `buffer` during the callback.
            if let start = entry[3], let end = entry[4] { Self.appendAttributeValue(UnsafeBufferPointer(start: start, count: end - start), to: &buffer) }
            values[name] = buffer.string(from: 0)
        }
        return values
    }

    /// Without entity substitution libxml2 hands an attribute value over with each `&` (from
    /// `&amp;` or `&#38;`) written as `&#38;`, for the tree builder to decode; so does this.
    /// SAFETY: copies `bytes` into `buffer` during the call.
    static func appendAttributeValue(_ bytes: UnsafeBufferPointer<UInt8>, to buffer: inout XMLByteBuffer) {
        guard let base = bytes.baseAddress else { return }
        guard bytes.contains(UInt8(ascii: "&")) else {
            buffer.append(base, count: bytes.count)
            return
        }
        let escape = Array("&#38;".utf8)
        var index = 0
        var ampersand = UInt8(ascii: "&")
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "&"), index + escape.count <= bytes.count, bytes[index..<(index + escape.count)].elementsEqual(escape) {
                buffer.append(&ampersand, count: 1)
                index += escape.count
            } else {
                buffer.append(base + index, count: 1)
                index += 1
            }
        }
    }
}
