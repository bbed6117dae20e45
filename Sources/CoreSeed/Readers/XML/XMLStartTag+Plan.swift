import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The record scanner's look-ups in a start tag: by the interned names of its plan.
extension XMLStartTag {
    /// The value of the attribute (or namespace declaration) `name`, or nil when absent.
    func value(of name: XMLAttributeName) -> String? {
        var buffer = XMLByteBuffer(capacity: 64)
        return appendValue(of: name, to: &buffer) ? buffer.string(from: 0) : nil
    }

    /// Appends the value of the attribute (or namespace declaration) `name` to `buffer`; false when absent.
    func appendValue(of name: XMLAttributeName, to buffer: inout XMLByteBuffer) -> Bool {
        switch name {
        case .attribute(let name):
            guard let attributes else { return false }
            for index in 0..<attributeCount {
                let entry = attributes + 5 * index
                guard name.matches(entry[0], entry[1]) else { continue }
                // SAFETY: a view of the attribute value, copied into `buffer` during the callback.
                if let start = entry[3], let end = entry[4] { Self.appendAttributeValue(UnsafeBufferPointer(start: start, count: end - start), to: &buffer) }
                return true
            }
        case .namespace(let prefix):
            guard let namespaces else { return false }
            for index in 0..<namespaceCount where namespaces[2 * index] == prefix {
                if let uri = namespaces[2 * index + 1] { buffer.append(uri, count: Int(strlen(uri))) }
                return true
            }
        }
        return false
    }

    /// What the tag's `xml:space` attribute (`name`) says: true for `preserve`, false for
    /// `default`, nil when the tag has none (or another value, which libxml2 warns about).
    func preservesSpace(_ name: XMLInternedName) -> Bool? {
        guard let attributes else { return nil }
        for index in 0..<attributeCount {
            let entry = attributes + 5 * index
            guard name.matches(entry[0], entry[1]), let start = entry[3], let end = entry[4] else { continue }
            // SAFETY: a view of the attribute value, compared during the callback only.
            let value = UnsafeBufferPointer(start: start, count: end - start)
            if value.elementsEqual("preserve".utf8) { return true }
            if value.elementsEqual("default".utf8) { return false }
            return nil
        }
        return nil
    }
}
