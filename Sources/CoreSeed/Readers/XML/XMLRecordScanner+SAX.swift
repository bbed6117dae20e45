import CLibXML2

extension XMLRecordScanner {
    /// The SAX2 callbacks of a record scanner; libxml2 copies the table into each parser, whose
    /// `_private` holds the scanner (unretained: the reader owns both).
    ///
    /// The document type goes to libxml2's own SAX2 handlers, which build only the DTD (no nodes):
    /// element declarations decide which whitespace the tree builder drops, and declaration errors
    /// are reported as before. Entity declarations are refused, never recorded, and no external
    /// subset or entity is resolved (no `externalSubset`, `resolveEntity` or `reference` handler).
    static var handler: xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = coreseed_xml_sax2_magic
        sax.startDocument = xmlSAX2StartDocument
        sax.internalSubset = xmlSAX2InternalSubset
        sax.elementDecl = xmlSAX2ElementDecl
        sax.attributeDecl = xmlSAX2AttributeDecl
        sax.notationDecl = xmlSAX2NotationDecl
        sax.entityDecl = { context, _, _, _, _, _ in withScanner(context) { $0.entityDeclared() } }
        sax.unparsedEntityDecl = { context, _, _, _, _ in withScanner(context) { $0.entityDeclared() } }
        sax.startElementNs = { context, local, prefix, _, namespaceCount, namespaces, attributeCount, defaulted, attributes in
            let tag = XMLStartTag(namespaces: namespaces, namespaceCount: Int(namespaceCount),
                                  attributes: attributes, attributeCount: Int(attributeCount - defaulted))
            withScanner(context) { $0.startElement(local: local, prefix: prefix, tag: tag) }
        }
        sax.endElementNs = { context, _, _, _ in withScanner(context) { $0.endElement() } }
        sax.characters = { context, bytes, count in
            if let bytes, count > 0 { withScanner(context) { $0.text(bytes, count: Int(count), cdata: false) } }
        }
        // Distinct from `characters`, so that libxml2 keeps its xml:space marks (see `dropsBlanks`);
        // it never calls it, having no tree to judge whitespace by.
        sax.ignorableWhitespace = { _, _, _ in }
        sax.cdataBlock = { context, bytes, count in
            if let bytes, count > 0 { withScanner(context) { $0.text(bytes, count: Int(count), cdata: true) } }
        }
        sax.comment = { context, _ in withScanner(context) { $0.otherMarkup() } }
        sax.processingInstruction = { context, _, _ in withScanner(context) { $0.otherMarkup() } }
        sax.serror = { context, error in
            if let error { withScanner(context) { $0.libxml2Error(error.pointee) } }
        }
        return sax
    }

}

/// Calls `body` with the scanner of the parser that libxml2 passes (as its userData) to every
/// callback, neither retained nor released: the reader keeps it alive while the parser runs.
@inline(__always)
private func withScanner(_ context: UnsafeMutableRawPointer?, _ body: (XMLRecordScanner) -> Void) {
    let parser = context!.assumingMemoryBound(to: xmlParserCtxt.self)
    Unmanaged<XMLRecordScanner>.fromOpaque(parser.pointee._private!)._withUnsafeGuaranteedRef(body)
}
