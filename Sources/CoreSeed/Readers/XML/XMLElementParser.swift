import CLibXML2

/// Takes the elements of a document from ``XMLElementParser``, one start and one end at a time.
protocol XMLElementHandler: AnyObject {
    /// An element starts: its qualified name (`prefix:local` or `local`), its attributes by
    /// qualified name, and the line its start tag ends on. False stops the parse there.
    func startElement(_ name: String, attributes: [String: String], line: Int) -> Bool
    /// The element `name` ends.
    func endElement(_ name: String)
}

/// Why a document could not be read to its end.
enum XMLDocumentProblem: Error, Equatable {
    /// Not well-formed XML: libxml2's error code (`xmlParserErrors` in xmlerror.h) and the line it names.
    case malformed(code: Int, line: Int)
    /// The DOCTYPE declares an entity (refused: ``XMLSAXClient``), on this line.
    case entityDeclared(line: Int)
}

/// Reads a whole document held in memory, such as a model's `contents`, with libxml2's SAX2 parser
/// and the safety settings of every XML input (``XMLSAXClient``: no network, no DTD loaded, no
/// entity substituted or declared, no recovery), and hands its elements to a handler as plain
/// Swift values. Text, comments and processing instructions are skipped. Not `Sendable`: one
/// parse, on the calling thread.
final class XMLElementParser: XMLSAXClient {
    private let handler: any XMLElementHandler
    private var parser: xmlParserCtxtPtr?
    private var problem: XMLDocumentProblem?
    /// Set once the parse is stopped (a problem, or the handler said so): later events are ignored.
    private var stopped = false

    private init(handler: any XMLElementHandler) {
        self.handler = handler
    }

    /// Parses `bytes`, handing each element to `handler`; nil when the document was read to its
    /// end or the handler stopped it, else the first problem. An empty document has no elements.
    static func parse(_ bytes: [UInt8], handler: any XMLElementHandler) -> XMLDocumentProblem? {
        guard !bytes.isEmpty else { return nil }
        let client = XMLElementParser(handler: handler)
        var sax = elementHandler
        guard let parser = xmlCreatePushParserCtxt(&sax, nil, nil, 0, nil) else {
            return .malformed(code: Int(XML_ERR_NO_MEMORY.rawValue), line: 1)
        }
        defer { XMLSAXClient.free(parser) }
        xmlCtxtUseOptions(parser, parserOptions)
        client.parser = parser
        // SAFETY: `_private` is the client unretained; `client` lives until this function returns, after the parse.
        parser.pointee._private = Unmanaged.passUnretained(client).toOpaque()
        _ = withExtendedLifetime(client) {
            // SAFETY: libxml2 copies what it needs of the bytes during the call.
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { xmlParseChunk(parser, $0.baseAddress, Int32(clamping: $0.count), 1) }
            }
        }
        if let problem = client.problem { return problem }
        if !client.stopped, parser.pointee.wellFormed == 0 {
            return .malformed(code: Int(parser.pointee.errNo), line: Int(xmlSAX2GetLineNumber(parser)))
        }
        return nil
    }

    override func entityDeclared() {
        fail(.entityDeclared(line: line))
    }

    override func libxml2Error(_ error: xmlError) {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        fail(.malformed(code: Int(error.code), line: Int(error.line)))
    }

    private var line: Int {
        parser.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0
    }

    private func fail(_ problem: XMLDocumentProblem) {
        guard !stopped else { return }
        self.problem = problem
        stop()
    }

    private func stop() {
        stopped = true
        if let parser { xmlStopParser(parser) }
    }

    /// The safe handler with element events; text, comments and processing instructions have none.
    private static var elementHandler: xmlSAXHandler {
        var sax = safeHandler
        sax.startElementNs = { context, local, prefix, _, namespaceCount, namespaces, attributeCount, defaulted, attributes in
            // Attributes defaulted from the DTD are left out, as the data reader leaves them out.
            let tag = XMLStartTag(namespaces: namespaces, namespaceCount: Int(namespaceCount),
                                  attributes: attributes, attributeCount: Int(attributeCount - defaulted))
            withElementParser(context) { $0.start(local: local, prefix: prefix, tag: tag) }
        }
        sax.endElementNs = { context, local, prefix, _ in
            withElementParser(context) { $0.end(local: local, prefix: prefix) }
        }
        return sax
    }

    // SAFETY: libxml2's names for this event, copied into a String during the call.
    private static func qualifiedName(local: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) -> String {
        let name = local.map { String(cString: $0) } ?? ""
        guard let prefix else { return name }
        return String(cString: prefix) + ":" + name
    }

    // SAFETY: `tag` is read during the callback only.
    private func start(local: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, tag: XMLStartTag) {
        guard !stopped else { return }
        let name = Self.qualifiedName(local: local, prefix: prefix)
        if !handler.startElement(name, attributes: tag.attributeValues(), line: line) { stop() }
    }

    // SAFETY: libxml2's names for this event, read during the call only.
    private func end(local: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?) {
        guard !stopped else { return }
        handler.endElement(Self.qualifiedName(local: local, prefix: prefix))
    }
}

/// Calls `body` with the element parser of the parser context libxml2 passes to a callback.
// SAFETY: libxml2 passes its parser context as userData; `_private` is the element parser, alive for the whole of `parse`.
private func withElementParser(_ context: UnsafeMutableRawPointer?, _ body: (XMLElementParser) -> Void) {
    let parser = context!.assumingMemoryBound(to: xmlParserCtxt.self)
    Unmanaged<XMLElementParser>.fromOpaque(parser.pointee._private!)._withUnsafeGuaranteedRef(body)
}
