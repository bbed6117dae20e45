import CLibXML2

extension XMLRecordScanner {
    /// The SAX2 callbacks of a record scanner: the safe handler (``XMLSAXClient/safeHandler``: the
    /// document type built by libxml2 alone, entity declarations refused, nothing external
    /// resolved) and the scanner's element and text events. libxml2 copies the table into each
    /// parser, whose `_private` holds the scanner (unretained: the reader owns both). Comments and
    /// processing instructions are skipped, and do not end a run of text; comments still have a
    /// handler, for libxml2 then quotes a malformed one in its message ("Double hyphen within
    /// comment: <!-- a").
    static var handler: xmlSAXHandler {
        var sax = safeHandler
        sax.startElementNs = { context, local, prefix, _, namespaceCount, namespaces, attributeCount, defaulted, attributes in
            let tag = XMLStartTag(namespaces: namespaces, namespaceCount: Int(namespaceCount),
                                  attributes: attributes, attributeCount: Int(attributeCount - defaulted))
            withScanner(context) { $0.startElement(local: local, prefix: prefix, tag: tag) }
        }
        sax.endElementNs = { context, _, _, _ in withScanner(context) { $0.endElement() } }
        let characters: charactersSAXFunc = { context, bytes, count in
            if let bytes, count > 0 { withScanner(context) { $0.text(bytes, count: Int(count)) } }
        }
        sax.characters = characters
        // The same function: libxml2 then hands every whitespace over as characters, without judging
        // it (`areBlanks` in parser.c), and the scanner applies CoreSeed's rule to all text alike.
        sax.ignorableWhitespace = characters
        sax.cdataBlock = { context, bytes, count in
            if let bytes, count > 0 { withScanner(context) { $0.cdata(bytes, count: Int(count)) } }
        }
        sax.comment = { _, _ in }
        return sax
    }

}

/// Calls `body` with the scanner of the parser that libxml2 passes (as its userData) to every
/// callback, neither retained nor released: the reader keeps it alive while the parser runs.
@inline(__always)
// SAFETY: libxml2 passes its parser context as userData; `_private` is the scanner, which `Parsing` keeps alive (strongly) while the parser runs.
private func withScanner(_ context: UnsafeMutableRawPointer?, _ body: (XMLRecordScanner) -> Void) {
    let parser = context!.assumingMemoryBound(to: xmlParserCtxt.self)
    Unmanaged<XMLRecordScanner>.fromOpaque(parser.pointee._private!)._withUnsafeGuaranteedRef(body)
}
