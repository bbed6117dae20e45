import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams records from an XML file with libxml2's SAX2 push parser: one record per element at
/// the record path (e.g. `/serviceproviders/country/provider`), never a tree of the whole file.
/// The file is read and parsed a chunk at a time (256 KB); the records a chunk completes wait in a
/// queue, so memory stays bounded by the chunk and the largest record.
///
/// Safe by construction: the network is off (`XML_PARSE_NONET`), entities are not substituted
/// and no DTD is loaded or validated (so an external DTD named in `DOCTYPE` is neither read nor
/// needed), no recovery from malformed input, no `XML_PARSE_HUGE`. A document whose DOCTYPE
/// declares entities is refused outright, the parser stopped at the first declaration, so neither
/// "billion laughs" expansion nor an external entity (`SYSTEM "file:///etc/passwd"`) can be read
/// through it. Nesting is limited to `maximumDepth` levels, at most 256 (libxml2's own limit
/// without `XML_PARSE_HUGE`).
///
/// Values: a field that matches once is a scalar `.text`, several times a `.list` in document
/// order, never `.null`. Whitespace-only text nodes are ignored. A record's location is its start
/// tag's line (where the tag ends); parse errors carry line and column. Records before an error
/// are returned, then the error.
///
/// Not `Sendable`: it owns a libxml2 parser, which is not thread-safe.
public final class XMLRecordReader: RecordReader {
    public let fieldNames: [String]
    /// The file as given, used in every location.
    public let path: String
    /// The deepest nesting accepted, in elements.
    public let maximumDepth: Int

    /// libxml2's reader of the file (plain, or gzip/xz compressed), used for its bytes only.
    private let input: xmlParserInputBufferPtr
    private let parser: xmlParserCtxtPtr
    private let scanner: XMLRecordScanner
    private let chunk: UnsafeMutableRawBufferPointer
    /// How many bytes go to the parser at once (smaller than `chunk` only in tests).
    private let pushSize: Int
    private var finished = false
    /// The error `next()` threw, thrown again by every later call.
    private var failure: ReaderError?

    /// Opens `path` for records at `records` (an absolute element path) with the given fields.
    public convenience init(path: String, records: String, fields: [XMLFieldSpec], maximumDepth: Int = 256) throws(ReaderError) {
        try self.init(path: path, records: records, fields: fields, maximumDepth: maximumDepth, chunkSize: 256 * 1024)
    }

    /// `chunkSize`: the bytes read from the file and pushed to the parser at once.
    init(path: String, records: String, fields: [XMLFieldSpec], maximumDepth: Int = 256, chunkSize: Int) throws(ReaderError) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        self.path = path
        self.maximumDepth = maximumDepth
        let fileLocation = SourceLocation(file: path)
        let parts = records.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard records.hasPrefix("/"), parts.count >= 2, parts.dropFirst().allSatisfy({ !$0.isEmpty && !$0.contains("@") }) else {
            throw ReaderError(.invalidOption("records path '\(records)' must be an absolute element path like /root/item"), at: fileLocation)
        }
        var compiled: [XMLFieldPath] = []
        var picks: [Int?] = []
        for field in fields {
            guard let (path, index) = XMLFieldPath.splitIndex(field.path), let fieldPath = XMLFieldPath(path) else {
                throw ReaderError(.xmlUnsupportedPath(field: field.name, path: field.path), at: fileLocation)
            }
            compiled.append(fieldPath)
            picks.append(index)
        }
        fieldNames = fields.map(\.name)

        if access(path, R_OK) != 0 {
            throw ReaderError(errno == ENOENT || errno == ENOTDIR ? .fileNotFound : .cannotOpen(String(cString: strerror(errno))), at: fileLocation)
        }
        guard let input = xmlParserInputBufferCreateFilename(path, XML_CHAR_ENCODING_NONE) else {
            throw ReaderError(.cannotOpen("libxml2 could not open it"), at: fileLocation)
        }
        var handler = XMLRecordScanner.handler
        guard let parser = xmlCreatePushParserCtxt(&handler, nil, nil, 0, path) else {
            xmlFreeParserInputBuffer(input)
            throw ReaderError(.cannotOpen("libxml2 could not open it"), at: fileLocation)
        }
        xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue))
        self.input = input
        self.parser = parser
        let plan = XMLRecordPlan(recordPath: Array(parts.dropFirst()), fields: compiled, dictionary: parser.pointee.dict)
        scanner = XMLRecordScanner(parser: parser, plan: plan, picks: picks, file: path, depthLimit: min(maximumDepth, 256))
        parser.pointee._private = Unmanaged.passUnretained(scanner).toOpaque()
        pushSize = chunkSize
        chunk = .allocate(byteCount: max(chunkSize, 4096), alignment: 1)
    }

    deinit {
        // The document holds only the DTD, if any; the parser does not free it.
        if let document = parser.pointee.myDoc { xmlFreeDoc(document) }
        xmlFreeParserCtxt(parser)
        xmlFreeParserInputBuffer(input)
        chunk.deallocate()
    }

    public func next() throws(ReaderError) -> Record? {
        if let failure { throw failure }
        while true {
            if scanner.hasReady { return scanner.takeReady() }
            if let error = failure ?? scanner.failure {
                failure = error
                throw error
            }
            if finished { return nil }
            readChunk()
        }
    }

    /// Reads the next chunk of the file and parses it, or ends the document at the end of the file.
    private func readChunk() {
        guard let read = input.pointee.readcallback else {
            finished = true
            return
        }
        let count = Int(read(input.pointee.context, chunk.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(chunk.count)))
        if count < 0 {
            finished = true
            failure = ReaderError(.xmlSyntax("the document could not be read"), at: SourceLocation(file: path))
            return
        }
        if count == 0 {
            finished = true
            xmlParseChunk(parser, nil, 0, 1)
            scanner.endDocument()
            return
        }
        var offset = 0
        while offset < count, scanner.failure == nil {
            let size = min(pushSize, count - offset)
            xmlParseChunk(parser, chunk.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self), Int32(size), 0)
            offset += size
        }
    }
}
