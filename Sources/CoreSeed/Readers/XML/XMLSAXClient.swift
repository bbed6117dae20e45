import CLibXML2

/// What every libxml2 parser in CoreSeed is fed to (the record scanner of the data reader, the
/// element parser of the model reader), and the safety settings they share. The one place that
/// says how an XML document may be read:
///
/// - the network is off (`XML_PARSE_NONET`), no recovery from malformed input, no `XML_PARSE_HUGE`
///   (libxml2's own limits on names, text and nesting stay in force);
/// - entities are never substituted (no `XML_PARSE_NOENT`) and no DTD is loaded or validated (no
///   `XML_PARSE_DTDLOAD`, no `externalSubset`, `resolveEntity` or `reference` handler), so an
///   external DTD named in `DOCTYPE` is neither read nor needed;
/// - the internal subset goes to libxml2's own SAX2 declaration handlers, which build only the
///   DTD, so that errors in its declarations are reported; an entity declaration is refused
///   (``entityDeclared()``), never recorded, so neither "billion laughs" expansion nor an external
///   entity (`SYSTEM "file:///etc/passwd"`) can be read through the document.
///
/// A client is the parser's `_private`, unretained: whoever creates the parser keeps both alive
/// while it runs. Not `Sendable`: it lives inside one parser, on the thread that runs it.
class XMLSAXClient {
    /// The options every parser is created with (see the type's summary).
    static let parserOptions = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)

    /// The DOCTYPE declares an entity: the client refuses the document and stops the parser.
    func entityDeclared() {}

    /// libxml2 reports a problem (warnings too; the client decides which count).
    func libxml2Error(_ error: xmlError) {}

    /// A SAX2 handler with the safety settings filled in: the document type to libxml2's own
    /// handlers, entity declarations to ``entityDeclared()``, errors to ``libxml2Error(_:)``.
    /// The caller adds the element and text callbacks it needs.
    static var safeHandler: xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = coreseed_xml_sax2_magic
        sax.startDocument = xmlSAX2StartDocument
        sax.internalSubset = xmlSAX2InternalSubset
        sax.elementDecl = xmlSAX2ElementDecl
        sax.attributeDecl = xmlSAX2AttributeDecl
        sax.notationDecl = xmlSAX2NotationDecl
        sax.entityDecl = { context, _, _, _, _, _ in withClient(context) { $0.entityDeclared() } }
        sax.unparsedEntityDecl = { context, _, _, _, _ in withClient(context) { $0.entityDeclared() } }
        sax.serror = { context, error in
            if let error { withClient(context) { $0.libxml2Error(error.pointee) } }
        }
        return sax
    }

    /// Frees a parser made with the safe handler, and the document that holds its DTD, if any (the
    /// parser does not free it).
    static func free(_ parser: xmlParserCtxtPtr) {
        if let document = parser.pointee.myDoc { xmlFreeDoc(document) }
        xmlFreeParserCtxt(parser)
    }
}

/// Calls `body` with the client of the parser that libxml2 passes (as its userData) to every
/// callback, neither retained nor released: the parser's owner keeps it alive while it runs.
// SAFETY: libxml2 passes its parser context as userData; `_private` is the client, which the parser's owner keeps alive while the parser runs.
private func withClient(_ context: UnsafeMutableRawPointer?, _ body: (XMLSAXClient) -> Void) {
    let parser = context!.assumingMemoryBound(to: xmlParserCtxt.self)
    Unmanaged<XMLSAXClient>.fromOpaque(parser.pointee._private!)._withUnsafeGuaranteedRef(body)
}
