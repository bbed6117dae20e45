import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams records from an XML file with libxml2's `xmlTextReader`: one record per element at
/// the record path (e.g. `/serviceproviders/country/provider`), never a tree of the whole file.
///
/// Safe by construction: the network is off (`XML_PARSE_NONET`), entities are not substituted
/// and no DTD is loaded or validated (so an external DTD named in `DOCTYPE` is neither read nor
/// needed), no recovery from malformed input, no `XML_PARSE_HUGE`. A document whose DOCTYPE
/// declares entities is refused outright, so neither "billion laughs" expansion nor an external
/// entity (`SYSTEM "file:///etc/passwd"`) can be read through it. Nesting is limited to
/// `maximumDepth` levels (and by libxml2 itself to 256 without `XML_PARSE_HUGE`).
///
/// Values: a field that matches once is a scalar `.text`, several times a `.list` in document
/// order, never `.null`. Whitespace-only text nodes are ignored. A record's location is its start
/// tag's line (libxml2 keeps no column for nodes); parse errors carry line and column.
///
/// Not `Sendable`: it owns a libxml2 reader, which is not thread-safe.
public final class XMLRecordReader: RecordReader {
    public let fieldNames: [String]
    /// The file as given, used in every location.
    public let path: String
    /// The deepest nesting accepted, in elements.
    public let maximumDepth: Int

    private let reader: xmlTextReaderPtr
    private let errors: XMLErrorCollector
    private let recordPath: [String]
    private let fields: [XMLFieldPath]

    /// Open elements from the root: names, and attributes of those above the record.
    private var names: [String] = []
    private var attributes: [[String: String]] = []
    /// Per open element above the record: the text of those child elements named by `../name` fields.
    private var ancestorTexts: [[String: String]] = []
    private let ancestorChildNames: Set<String>
    /// Per field: which of repeated values to keep (`name[1]`), or nil for all (a list when repeated).
    private let picks: [Int?]
    /// Per open element above the record: its position among elements of the same path.
    private var ordinals: [Int] = []
    private var pathCounts: [[String]: Int] = [:]
    /// A child element of an ancestor whose text is being read (outside any record).
    private var ancestorCapture: (depth: Int, name: String, text: String)?
    /// The depth of the record element while inside one.
    private var recordDepth: Int?
    private var recordLine = 0
    private var values: [[FieldValue]]
    private var captures: [Capture] = []
    private var checkedDoctype = false
    /// A document obtained with `xmlTextReaderCurrentDoc`, which the reader then no longer frees.
    private var ownedDocument: xmlDocPtr?
    private var failure: ReaderError?
    private var finished = false

    private struct Capture {
        var field: Int
        var depth: Int
        var deep: Bool
        var text: String
    }

    /// Opens `path` for records at `records` (an absolute element path) with the given fields.
    public init(path: String, records: String, fields: [XMLFieldSpec], maximumDepth: Int = 256) throws(ReaderError) {
        self.path = path
        self.maximumDepth = maximumDepth
        let fileLocation = SourceLocation(file: path)
        let parts = records.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard records.hasPrefix("/"), parts.count >= 2, parts.dropFirst().allSatisfy({ !$0.isEmpty && !$0.contains("@") }) else {
            throw ReaderError(.invalidOption("records path '\(records)' must be an absolute element path like /root/item"), at: fileLocation)
        }
        recordPath = Array(parts.dropFirst())
        var compiled: [XMLFieldPath] = []
        var picks: [Int?] = []
        for field in fields {
            guard let (path, index) = XMLFieldPath.splitIndex(field.path), let fieldPath = XMLFieldPath(path) else {
                throw ReaderError(.xmlUnsupportedPath(field: field.name, path: field.path), at: fileLocation)
            }
            compiled.append(fieldPath)
            picks.append(index)
        }
        self.picks = picks
        self.fields = compiled
        ancestorChildNames = Set(compiled.compactMap { field in
            if case .ancestorText(_, let element) = field { return element }
            return nil
        })
        fieldNames = fields.map(\.name)
        values = Array(repeating: [], count: fields.count)

        if access(path, R_OK) != 0 {
            throw ReaderError(errno == ENOENT || errno == ENOTDIR ? .fileNotFound : .cannotOpen(String(cString: strerror(errno))), at: fileLocation)
        }
        // NOBLANKS drops whitespace-only text between elements: fewer nodes to walk, same values.
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_NOBLANKS.rawValue)
        guard let reader = xmlReaderForFile(path, nil, options) else {
            throw ReaderError(.cannotOpen("libxml2 could not open it"), at: fileLocation)
        }
        self.reader = reader
        errors = XMLErrorCollector()
        xmlTextReaderSetStructuredErrorHandler(reader, { context, error in
            guard let context, let error else { return }
            Unmanaged<XMLErrorCollector>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
        }, Unmanaged.passUnretained(errors).toOpaque())
    }

    deinit {
        xmlFreeTextReader(reader)
        if let ownedDocument { xmlFreeDoc(ownedDocument) }
    }

    public func next() throws(ReaderError) -> Record? {
        if let failure { throw failure }
        if finished { return nil }
        do throws(ReaderError) {
            while true {
                let status = xmlTextReaderRead(reader)
                if let error = errors.first {
                    // libxml2 may trip over an entity (its loop and amplification checks) before
                    // the DOCTYPE reaches us: the refusal is the clearer message then.
                    try checkEntities(nodeType: -1)
                    throw syntaxError(error)
                }
                if status == 0 {
                    finished = true
                    return nil
                }
                if status < 0 {
                    throw ReaderError(.xmlSyntax("the document could not be read"), at: SourceLocation(file: path))
                }
                if let record = try step() { return record }
            }
        } catch {
            failure = error
            throw error
        }
    }

    private func syntaxError(_ error: XMLErrorCollector.Entry) -> ReaderError {
        ReaderError(.xmlSyntax(error.message), at: SourceLocation(file: path, line: error.line, column: error.column > 0 ? error.column : nil))
    }

    private var currentLine: Int {
        Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader)))
    }

    /// Handles the node the reader is on; returns a record when one has just ended.
    private func step() throws(ReaderError) -> Record? {
        let type = xmlTextReaderNodeType(reader)
        if !checkedDoctype { try checkEntities(nodeType: type) }
        switch type {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            let depth = Int(xmlTextReaderDepth(reader))
            if depth >= maximumDepth {
                throw ReaderError(.xmlTooDeep(maximumDepth), at: SourceLocation(file: path, line: currentLine))
            }
            let name = Self.string(xmlTextReaderConstName(reader))
            let isEmpty = xmlTextReaderIsEmptyElement(reader) == 1
            names.append(name)
            if let recordDepth {
                startDescendant(depth: depth, recordDepth: recordDepth)
            } else {
                attributes.append(readAttributes())
                ancestorTexts.append([:])
                let position = (pathCounts[names] ?? 0) + 1
                pathCounts[names] = position
                ordinals.append(position)
                if names == recordPath {
                    startRecord(depth: depth)
                } else if depth > 0, ancestorChildNames.contains(name) {
                    ancestorCapture = (depth, name, "")
                }
            }
            if isEmpty { return try endElement(depth: depth) }
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            return try endElement(depth: Int(xmlTextReaderDepth(reader)))
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
            if recordDepth == nil, ancestorCapture != nil {
                ancestorCapture?.text += Self.string(xmlTextReaderConstValue(reader))
                break
            }
            guard recordDepth != nil, !captures.isEmpty else { break }
            let depth = Int(xmlTextReaderDepth(reader))
            let text = Self.string(xmlTextReaderConstValue(reader))
            for index in captures.indices where captures[index].deep || captures[index].depth + 1 == depth {
                captures[index].text += text
            }
        default:
            break
        }
        return nil
    }

    /// Refuses a document type that declares entities; runs until the first element is seen.
    private func checkEntities(nodeType: Int32) throws(ReaderError) {
        // Through the current node when there is one: xmlTextReaderCurrentDoc makes the reader
        // keep the document on free, so a document taken that way is freed in deinit.
        if ownedDocument == nil && xmlTextReaderCurrentNode(reader) == nil { ownedDocument = xmlTextReaderCurrentDoc(reader) }
        if let doc = xmlTextReaderCurrentNode(reader)?.pointee.doc ?? ownedDocument, let subset = doc.pointee.intSubset,
           subset.pointee.entities != nil || subset.pointee.pentities != nil {
            throw ReaderError(.xmlEntitiesDeclared, at: SourceLocation(file: path))
        }
        if nodeType == Int32(XML_READER_TYPE_ELEMENT.rawValue) { checkedDoctype = true }
    }

    private func startRecord(depth: Int) {
        recordDepth = depth
        recordLine = currentLine
        for index in values.indices { values[index].removeAll(keepingCapacity: true) }
        captures.removeAll(keepingCapacity: true)
        for (index, field) in fields.enumerated() {
            switch field {
            case .ownText:
                captures.append(Capture(field: index, depth: depth, deep: false, text: ""))
            case .attribute(let elements, let name) where elements.isEmpty:
                if let value = attributes[depth][name] { values[index].append(.text(value)) }
            case .ancestorAttribute(let levels, let name):
                if depth - levels >= 0, let value = attributes[depth - levels][name] { values[index].append(.text(value)) }
            case .ordinal(let levels):
                if depth - levels >= 0 { values[index].append(.integer(Int64(ordinals[depth - levels]))) }
            case .ancestorText(let levels, let element):
                if depth - levels >= 0, let value = ancestorTexts[depth - levels][element] { values[index].append(.text(value)) }
            default:
                break
            }
        }
    }

    private func startDescendant(depth: Int, recordDepth: Int) {
        let relative = names[(recordDepth + 1)...]
        let name = relative.last
        for (index, field) in fields.enumerated() {
            switch field {
            // The last name first: most elements match no field, and that test is cheap.
            case .text(let elements) where elements.count == relative.count && elements.last == name && elements.elementsEqual(relative):
                captures.append(Capture(field: index, depth: depth, deep: true, text: ""))
            case .attribute(let elements, let name) where !elements.isEmpty && elements.count == relative.count && elements.last == relative.last && elements.elementsEqual(relative):
                if xmlTextReaderMoveToAttribute(reader, name) == 1 {
                    values[index].append(.text(Self.string(xmlTextReaderConstValue(reader))))
                    xmlTextReaderMoveToElement(reader)
                }
            default:
                break
            }
        }
    }

    private func endElement(depth: Int) throws(ReaderError) -> Record? {
        var index = captures.count - 1
        while index >= 0 {
            if captures[index].depth == depth {
                let capture = captures.remove(at: index)
                values[capture.field].append(.text(capture.text))
            }
            index -= 1
        }
        if let capture = ancestorCapture, capture.depth == depth {
            if ancestorTexts[depth - 1][capture.name] == nil { ancestorTexts[depth - 1][capture.name] = capture.text }
            ancestorCapture = nil
        }
        names.removeLast()
        if recordDepth.map({ depth <= $0 }) ?? true {
            attributes.removeLast()
            ancestorTexts.removeLast()
            ordinals.removeLast()
        }
        guard depth == recordDepth else { return nil }
        recordDepth = nil
        let fieldValues: [FieldValue] = zip(values, picks).map { found, pick in
            if let pick { return pick <= found.count ? found[pick - 1] : .null }
            switch found.count {
            case 0: return .null
            case 1: return found[0]
            default: return .list(found)
            }
        }
        return Record(location: SourceLocation(file: path, line: recordLine), values: fieldValues)
    }

    private func readAttributes() -> [String: String] {
        var result: [String: String] = [:]
        while xmlTextReaderMoveToNextAttribute(reader) == 1 {
            result[Self.string(xmlTextReaderConstName(reader))] = Self.string(xmlTextReaderConstValue(reader))
        }
        xmlTextReaderMoveToElement(reader)
        return result
    }

    /// Copies libxml2's string at once: its pointers never outlive the node they came from.
    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}

/// Keeps the first error libxml2 reports for one reader (its structured handler's context).
///
/// Not `Sendable`: written from libxml2's callback on the reader's thread only.
final class XMLErrorCollector {
    struct Entry {
        var message: String
        var line: Int
        var column: Int
    }

    private(set) var first: Entry?

    func record(_ error: xmlError) {
        guard first == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = error.message.map { String(cString: $0) } ?? "unknown error"
        while message.last?.isWhitespace == true { message.removeLast() }
        first = Entry(message: message, line: Int(error.line), column: Int(error.int2))
    }
}
