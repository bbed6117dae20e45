import CLibXML2
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams records from an XML file, parsed on a thread of its own: one record per element at the
/// record path (e.g. `/serviceproviders/country/provider`), never a tree of the whole file. The
/// file is read a chunk at a time and the records handed over in batches (``XMLRecordBatch``)
/// through a bounded queue, so memory stays bounded by a few batches and the largest record, and
/// parsing runs on one core while the caller uses the other. The thread starts with the first
/// record asked for, and is stopped and waited for on `deinit`.
///
/// libxml2's SAX2 parser reads every document, through its public API only, and judges and
/// words every error. Safe by construction, with the settings every XML input is read with
/// (``XMLSAXClient``): no network, no entity substituted, no DTD loaded, no recovery, no
/// `XML_PARSE_HUGE`; a document whose DOCTYPE declares entities is refused outright, the parser
/// stopped at the first declaration. Nesting is limited to `maximumDepth`
/// levels, at most 256 (libxml2's own limit without `XML_PARSE_HUGE`).
///
/// Values: a field that matches once is a scalar `.text`, several times a `.list` in document
/// order, never `.null`. Text is kept as written, CDATA included, except that whitespace-only runs
/// of text between tags are ignored (docs/SPEC.md, "Whitespace"; ``XMLRecordScanner``). A record's
/// location is its start tag's line (where the tag ends); parse errors carry line and column.
/// Records before an error are returned, then the error.
///
/// Not `Sendable`: its records are taken by one caller at a time.
public final class XMLRecordReader: RecordReader {
    public let fieldNames: [String]
    /// The file as given, used in every location.
    public let path: String
    /// The deepest nesting accepted, in elements.
    public let maximumDepth: Int

    private let fileLocation: SourceLocation
    private let parsing: Parsing
    private let handoff = BatchHandoff<XMLRecordBatch, ReaderError>(capacity: 8)
    private var started = false
    /// The batch being read, the current record's index in it, and (for ``fieldView(_:)``, which
    /// reads them for every field) that record's slots and the batch's text. Exclusivity checks stay
    /// on: turning them off bought nothing measurable (BENCHMARKS.md, issue 30).
    private var batch: XMLRecordBatch?
    private var position = 0
    // SAFETY: `row` and `text` point into `batch`, set with it in `nextRaw`; read only while it holds that batch.
    private var row = UnsafePointer<XMLRecordBatch.Slot>(bitPattern: 8)!
    private var text = UnsafePointer<UInt8>(bitPattern: 8)!
    private var finished = false
    /// The error `next()` threw, thrown again by every later call.
    private var failure: ReaderError?

    /// Opens `path` for records at `records` (an absolute element path) with the given fields.
    public convenience init(path: String, records: String, fields: [SourceField], maximumDepth: Int = 256) throws(ReaderError) {
        try self.init(path: path, records: records, fields: fields, maximumDepth: maximumDepth, chunkSize: 256 * 1024)
    }

    /// What is wrong with a `records` path, or nil when it is one.
    static func recordsProblem(_ records: String) -> String? {
        let parts = records.split(separator: "/", omittingEmptySubsequences: false)
        guard records.hasPrefix("/"), parts.count >= 2, parts.dropFirst().allSatisfy({ !$0.isEmpty && !$0.contains("@") }) else {
            return "records path '\(records)' must be an absolute element path like /root/item"
        }
        return nil
    }

    /// `chunkSize`: the most bytes read from the file at once (the parser gets as many as it asks for).
    init(path: String, records: String, fields: [SourceField], maximumDepth: Int = 256, chunkSize: Int) throws(ReaderError) {
        precondition(chunkSize > 0, "chunkSize must be positive")
        self.path = path
        self.maximumDepth = maximumDepth
        fileLocation = SourceLocation(file: path)
        if let problem = XMLRecordReader.recordsProblem(records) {
            throw ReaderError(.invalidOption(problem), at: fileLocation)
        }
        let parts = records.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
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

        do {
            try FileSystem.checkReadable(FilePath(path))
        } catch {
            throw ReaderError(error == .noSuchFileOrDirectory || error == .notDirectory ? .fileNotFound : .cannotOpen(error.description), at: fileLocation)
        }
        guard let input = xmlParserInputBufferCreateFilename(path, XML_CHAR_ENCODING_NONE) else {
            throw ReaderError(.cannotOpen("libxml2 could not open it"), at: fileLocation)
        }
        let parsing = Parsing(input: input, readSize: chunkSize, file: path)
        var handler = XMLRecordScanner.handler
        // SAFETY: the read callback gets `parsing` unretained: the reader owns it and frees the parser with it.
        guard let parser = xmlCreateIOParserCtxt(&handler, nil, Parsing.read, nil, Unmanaged.passUnretained(parsing).toOpaque(),
                                                 XML_CHAR_ENCODING_NONE) else {
            throw ReaderError(.cannotOpen("libxml2 could not open it"), at: fileLocation)
        }
        xmlCtxtUseOptions(parser, XMLSAXClient.parserOptions)
        let plan = XMLRecordPlan(recordPath: Array(parts.dropFirst()), fields: compiled, dictionary: parser.pointee.dict)
        let handoff = self.handoff
        let scanner = XMLRecordScanner(parser: parser, plan: plan, picks: picks, file: path, depthLimit: min(maximumDepth, 256),
                                       deliver: { handoff.put($0) })
        // SAFETY: `_private` is the scanner unretained; `Parsing.scanner` keeps it alive as long as the parser.
        parser.pointee._private = Unmanaged.passUnretained(scanner).toOpaque()
        parsing.parser = parser
        parsing.scanner = scanner
        self.parsing = parsing
    }

    /// Stops the parsing thread (it may be waiting for room in the queue) and waits for it.
    deinit {
        if started { handoff.cancelAndWait() }
    }

    public func next() throws(ReaderError) -> Record? {
        guard try nextRaw() else { return nil }
        // SAFETY: `nextRaw()` returned true, so `batch` is set.
        return batch.unsafelyUnwrapped.record(position, file: fileLocation)
    }

    private func start() {
        started = true
        handoff.producerStarting()
        // Not retained by the thread: the reader frees the parser, after `deinit` has waited for the
        // thread to be done with it, never the thread (which may still be running when the process exits).
        // SAFETY: the thread uses `parsing` unretained: `deinit` waits for the thread (cancelAndWait) before the reader frees it.
        let parsing = Unmanaged.passUnretained(self.parsing)
        let handoff = self.handoff
        let thread = Thread { parsing._withUnsafeGuaranteedRef { $0.run(handoff) } }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The parser, the file it reads and the scanner it feeds: set up by the reader, then used by
    /// the parsing thread alone until it finishes, and freed by the reader.
    /// `@unchecked Sendable`: handed to the parsing thread before it starts, not touched by the reader after.
    /// SAFETY: the reader sets it up, then only the parsing thread touches it until `finish`; the reader frees it after waiting.
    private final class Parsing: @unchecked Sendable {
        /// libxml2's reader of the file (plain, or gzip/xz compressed), used for its bytes only.
        let input: xmlParserInputBufferPtr
        let readSize: Int
        let file: String
        var parser: xmlParserCtxtPtr?
        /// The scanner the parser feeds (its `_private`).
        var scanner: XMLRecordScanner?
        private var readFailed = false

        init(input: xmlParserInputBufferPtr, readSize: Int, file: String) {
            self.input = input
            self.readSize = readSize
            self.file = file
        }

        deinit {
            if let parser { XMLSAXClient.free(parser) }
            xmlFreeParserInputBuffer(input)
        }

        /// The thread: the whole document, its batches handed over, then the end or the first error.
        func run(_ handoff: BatchHandoff<XMLRecordBatch, ReaderError>) {
            guard let parser, let scanner else { return handoff.finish(nil) }
            xmlParseDocument(parser)
            if !scanner.failed { scanner.endDocument() }
            scanner.deliverBatch()
            if readFailed {
                // libxml2's reader of the file gives no reason.
                handoff.finish(ReaderError(.xmlSyntax("the document could not be read"), at: SourceLocation(file: file)))
            } else {
                handoff.finish(scanner.failure)
            }
        }

        /// libxml2's read callback: the file's next bytes, none once the scanner has failed or been
        /// cancelled (the parser then ends at once, and its complaints about the cut are not reported).
        static let read: xmlInputReadCallback = { context, buffer, length in
            // SAFETY: the context is the `Parsing` that runs this parser, alive while it runs.
            Unmanaged<Parsing>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.read(buffer, length) }
        }

        /// Fills the parser's request, from reads of at most `readSize` bytes: libxml2's parser
        /// takes a short read for less of the document than there is (it looks for the encoding and
        /// the XML declaration in the first bytes it gets).
        /// SAFETY: libxml2's buffer of `length` bytes, written during the call only.
        private func read(_ buffer: UnsafeMutablePointer<CChar>?, _ length: Int32) -> Int32 {
            if scanner?.failed ?? true { return 0 }
            guard let buffer, let readFile = input.pointee.readcallback else { return 0 }
            var filled: Int32 = 0
            while filled < length {
                let count = readFile(input.pointee.context, buffer + Int(filled), min(length - filled, Int32(clamping: readSize)))
                if count < 0 {
                    readFailed = true
                    return -1
                }
                if count == 0 { break }
                filled += count
            }
            return filled
        }
    }
}

extension XMLRecordReader: FieldViewReader {
    var readsRaw: Bool { true }

    func nextRaw() throws(ReaderError) -> Bool {
        if let batch, position + 1 < batch.count {
            position += 1
            row += batch.fieldCount
            return true
        }
        if let failure { throw failure }
        if finished { return false }
        if !started { start() }
        do {
            // A batch is never empty.
            batch = try handoff.take()
        } catch {
            batch = nil
            failure = error
            throw error
        }
        position = 0
        guard let batch else {
            finished = true
            return false
        }
        row = batch.row(0)
        text = batch.text
        return true
    }

    @inline(__always)
    func fieldView(_ index: Int) -> FieldView {
        XMLRecordBatch.view(row[index], text: text)
    }

    func currentRecord() -> Record {
        // SAFETY: only called on a record (`nextRaw()` returned true), so `batch` is set.
        batch.unsafelyUnwrapped.record(position, file: fileLocation)
    }
}
