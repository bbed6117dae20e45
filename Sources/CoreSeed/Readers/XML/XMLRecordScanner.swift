import CLibXML2

/// Turns libxml2's SAX events into records: matches elements against the record path and the
/// field paths by interned name, keeps text only where a field takes it, and adds each record to
/// the batch in progress when its end tag is seen; full batches go to `deliver`. The callbacks in
/// `XMLRecordScanner+SAX.swift` feed it.
///
/// Text follows CoreSeed's whitespace rule (docs/SPEC.md, "Whitespace"), judged from the events
/// alone: character data is read in runs that tags and CDATA sections end (comments and processing
/// instructions do not); a run of whitespace only (space, tab, CR, LF) is ignored, unless
/// `xml:space="preserve"` is in force; any other run, and every CDATA section, is kept exactly as
/// libxml2 hands it over. Wanted text is copied straight from libxml2 into a reusable byte buffer
/// (a run found to be whitespace only is cut off again), and into the batch's bytes when its
/// element ends: no `String` is made here (see ``XMLRecordBatch``).
///
/// Not `Sendable`: it lives inside one parser, on the parsing thread. Its state is touched only
/// from that parser's callbacks, one at a time, so the per-access exclusivity checks (a third of
/// the scanner's cost when measured) are turned off for it. The state touched per event is plain
/// memory (no Swift arrays), so that an event retains and releases nothing.
final class XMLRecordScanner: XMLSAXClient {
    private let parser: xmlParserCtxtPtr
    private let plan: XMLRecordPlan
    private let file: String
    private let depthLimit: Int
    private let fieldCount: Int

    /// Open elements, `elements[0]` the root; `depth` of them.
    /// SAFETY: allocated in init (depthLimit + 1, the most open elements), freed in deinit; touched only by this scanner.
    private let elements: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private var depth = 0
    /// How many of the open elements, from the root, lie on the record path.
    @exclusivity(unchecked) private var matched = 0
    /// The depth of the record element while inside one, else -1.
    @exclusivity(unchecked) private var recordDepth = -1
    @exclusivity(unchecked) private var recordLine = 0

    /// Per path level: elements seen on that path so far (for `#`).
    /// SAFETY: allocated and initialized in init, freed in deinit; touched only by this scanner.
    private let levelCounts: UnsafeMutablePointer<Int>
    /// Per field: its value from the current element at its level (level fields only).
    private let levelValues: UnsafeMutablePointer<FieldValue?>
    /// The child element whose text a `../name` field may take: its depth, and the level (-1:
    /// none, its parent is not on the record path) and name it fills.
    @exclusivity(unchecked) private var childText: (depth: Int, level: Int, name: XMLInternedName)?
    @exclusivity(unchecked) private var childTextBytes = XMLByteBuffer()

    /// The text of the current record's captured elements, each element's from its `textStart`
    /// (a nested capture's text lies inside its parent's); a value is copied out when its element ends.
    /// SAFETY: the parsing thread only, from its parser's callbacks one at a time; no callback re-enters another.
    @exclusivity(unchecked) private var deepText = XMLByteBuffer()
    /// The current record's own direct text.
    @exclusivity(unchecked) private var ownText = XMLByteBuffer()

    /// Where the current run of text was kept (`keptIn*` flags), and how many bytes of it; cut off
    /// again if it ends whitespace only.
    /// SAFETY: the parsing thread only, from its parser's callbacks one at a time; no callback re-enters another.
    @exclusivity(unchecked) private var runTargets: UInt8 = 0
    @exclusivity(unchecked) private var runKept = 0
    /// Whether the current run is kept whatever it holds: it has a character other than whitespace,
    /// or it is under `xml:space="preserve"`.
    @exclusivity(unchecked) private var runIsKept = false
    /// The length of the current run, wanted or not (see ``maximumTextLength``).
    @exclusivity(unchecked) private var runLength = 0

    /// The current record's values and the batch it joins.
    /// SAFETY: the parsing thread only, from its parser's callbacks one at a time; no callback re-enters another.
    @exclusivity(unchecked) private var record: XMLRecordAssembly
    /// Where full batches go; false: nobody reads them any more (the parser is stopped).
    private let deliver: (XMLRecordBatch) -> Bool
    /// The first problem; events after it are ignored.
    @exclusivity(unchecked) private(set) var failure: ReaderError? {
        didSet { failed = true }
    }
    /// `failure != nil`, cheap to test on every event (an optional error is not); also set once
    /// the batches have nobody to go to. The reader then stops feeding the parser.
    @exclusivity(unchecked) private(set) var failed = false

    /// The longest run of text accepted, in bytes: 64 MiB, as a CSV record (`CSVReader.maximumRecordSize`).
    /// libxml2's SAX parser hands text over in
    /// pieces and sets no limit of its own there (its tree builder's 10 MB one does not apply), so this
    /// is what stops an endless run. A CDATA section is limited by libxml2 to 10 MB: without
    /// `XML_PARSE_HUGE`, which would also let one attribute value or name grow to 1 GB in its buffers.
    static let maximumTextLength = 64 << 20

    private struct Element {
        // SAFETY: names from the parser's dictionary (libxml2 interns every name it reports): valid as long as the parser, which outlives the scanner's use.
        var local: UnsafePointer<xmlChar>?
        var prefix: UnsafePointer<xmlChar>?
        /// The descendant plan node inside a record, -1 when no field path goes on here.
        var node: Int
        var flags: UInt8
        /// Where this element's text starts in `deepText`, when it is captured.
        var textStart = 0
        /// Where its text starts in the document, when it is captured.
        var position = XMLRecordBatch.Position()
    }

    // Element flags: whether its text is wanted, and whether `xml:space="preserve"` is in force.
    private static let wantsDeepText: UInt8 = 1, wantsOwnText: UInt8 = 2, preservesSpace: UInt8 = 4
    // Run targets: the buffers that kept the current run of text.
    private static let keptInDeep: UInt8 = 1, keptInOwn: UInt8 = 2, keptInChild: UInt8 = 4

    /// `plan` becomes the scanner's, freed with it. `picks`: per field, the 1-based value it picks.
    init(parser: xmlParserCtxtPtr, plan: consuming XMLRecordPlan, picks: [Int?], file: String, depthLimit: Int,
         deliver: @escaping (XMLRecordBatch) -> Bool) {
        self.parser = parser
        let pathCount = plan.recordPath.count
        self.plan = plan
        self.file = file
        self.depthLimit = depthLimit
        self.deliver = deliver
        fieldCount = picks.count
        record = XMLRecordAssembly(picks: picks)
        elements = .allocate(capacity: depthLimit + 1)
        levelCounts = .allocate(capacity: pathCount)
        levelCounts.initialize(repeating: 0, count: pathCount)
        levelValues = .allocate(capacity: max(fieldCount, 1))
        levelValues.initialize(repeating: nil, count: fieldCount)
        super.init()
    }

    deinit {
        levelValues.deinitialize(count: fieldCount)
        levelValues.deallocate()
        levelCounts.deallocate()
        elements.deallocate()
    }

    /// Hands the records completed so far over (if any); after the end of the document or a failure,
    /// so that the records before an error are read before it.
    func deliverBatch() {
        guard let batch = record.takeBatch() else { return }
        if !deliver(batch), !failed {
            // The reader is gone: ignore the rest.
            failed = true
            xmlStopParser(parser)
        }
    }

    // MARK: Failures

    /// Records the first error-level problem libxml2 reports.
    override func libxml2Error(_ error: xmlError) {
        guard !failed, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = error.message.map { String(cString: $0) } ?? "unknown error"
        while message.last?.isWhitespace == true { message.removeLast() }
        failure = ReaderError(.xmlSyntax(message), at: SourceLocation(file: file, line: Int(error.line), column: error.int2 > 0 ? Int(error.int2) : nil))
    }

    /// Refuses the document once its DOCTYPE declares an entity, whatever happened before.
    override func entityDeclared() {
        failure = ReaderError(.xmlEntitiesDeclared, at: SourceLocation(file: file))
        xmlStopParser(parser)
    }

    /// Records `reason` at the parser's position (`column`: with its column) and stops the parser.
    private func fail(_ reason: ReaderError.Reason, column: Bool = false) {
        let line = Int(xmlSAX2GetLineNumber(parser))
        failure = ReaderError(reason, at: SourceLocation(file: file, line: line, column: column ? Int(xmlSAX2GetColumnNumber(parser)) : nil))
        xmlStopParser(parser)
    }

    // MARK: Events

    // SAFETY: dictionary names, kept (in `elements`) only while the parser lives; `tag` is read during the callback only.
    func startElement(local: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, tag: XMLStartTag) {
        guard !failed else { return }
        flushRun()
        let level = depth
        if level >= depthLimit {
            fail(.xmlTooDeep(depthLimit))
            return
        }
        var element = Element(local: local, prefix: prefix, node: -1, flags: 0)
        let parentFlags = level > 0 ? elements[level - 1].flags : 0
        if recordDepth >= 0 {
            startDescendant(&element, parent: elements[level - 1], tag: tag)
        } else {
            startOutside(&element, level: level, parentFlags: parentFlags, tag: tag)
        }
        var preserves = parentFlags & Self.preservesSpace
        if tag.attributeCount > 0, let space = tag.preservesSpace(plan.xmlSpace) { preserves = space ? Self.preservesSpace : 0 }
        element.flags |= preserves
        elements[level] = element
        depth = level + 1
    }

    private func startDescendant(_ element: inout Element, parent: Element, tag: XMLStartTag) {
        element.flags = parent.flags & Self.wantsDeepText
        guard parent.node >= 0 else { return }
        for child in plan.children[parent.node] where child.name.matches(element.local, element.prefix) {
            element.node = child.node
            let hasAttributes = !plan.attributeFields[child.node].isEmpty
            if !plan.textFields[child.node].isEmpty || hasAttributes { element.position = currentPosition() }
            if !plan.textFields[child.node].isEmpty {
                element.textStart = deepText.count
                element.flags |= Self.wantsDeepText
            }
            for (field, name) in plan.attributeFields[child.node] { record.addAttribute(name, of: tag, to: field, at: element.position) }
            return
        }
    }

    private func startOutside(_ element: inout Element, level: Int, parentFlags: UInt8, tag: XMLStartTag) {
        element.flags = parentFlags & Self.wantsDeepText
        let parentOnPath = matched >= level
        if level == matched, level < plan.recordPath.count, plan.recordPath[level].matches(element.local, element.prefix) {
            matched = level + 1
            startLevel(level, tag: tag)
            if matched == plan.recordPath.count {
                startRecord(&element, level: level, tag: tag)
                return
            }
        }
        if level > 0, !plan.childTextNames.isEmpty, let name = plan.childTextNames.first(where: { $0.matches(element.local, element.prefix) }) {
            // Like the tree-walking reader, a nested element of such a name takes over (and loses) the text.
            childText = (level, parentOnPath ? level - 1 : -1, name)
            childTextBytes.count = 0
            element.flags |= Self.wantsDeepText
        }
    }

    private func startLevel(_ level: Int, tag: XMLStartTag) {
        levelCounts[level] += 1
        // The record's own attributes go straight into the record (see `startRecord`).
        let recordLevel = level == plan.recordPath.count - 1
        for (field, source) in plan.levels[level] {
            switch source {
            case .attribute(let name): levelValues[field] = recordLevel ? nil : tag.value(of: name).map(FieldValue.text)
            case .ordinal: levelValues[field] = .integer(Int64(levelCounts[level]))
            case .childText: levelValues[field] = nil
            }
        }
    }

    /// The line and column libxml2 is at (just after the start tag being handled).
    @inline(__always)
    private func currentPosition() -> XMLRecordBatch.Position {
        XMLRecordBatch.Position(line: Int32(clamping: xmlSAX2GetLineNumber(parser)), column: Int32(clamping: xmlSAX2GetColumnNumber(parser)))
    }

    private func startRecord(_ element: inout Element, level: Int, tag: XMLStartTag) {
        recordDepth = level
        recordLine = Int(xmlSAX2GetLineNumber(parser))
        record.startRecord()
        // No field has a value yet: `endRecord` took them all. The record's own level values are
        // taken too; those of the elements above stay for the records after it.
        for pathLevel in 0...level {
            for (field, source) in plan.levels[pathLevel] {
                if pathLevel == level, case .attribute(let name) = source {
                    record.addAttribute(name, of: tag, to: field, at: currentPosition())
                } else if pathLevel == level {
                    if let value = (levelValues + field).move() { record.add(value, to: field) }
                    (levelValues + field).initialize(to: nil)
                } else if let value = levelValues[field] {
                    record.add(value, to: field)
                }
            }
        }
        deepText.count = 0
        ownText.count = 0
        element.node = 0
        element.flags = plan.ownTextFields.isEmpty ? 0 : Self.wantsOwnText
    }

    func endElement() {
        guard !failed else { return }
        flushRun()
        depth -= 1
        let level = depth
        let element = elements[level]
        if recordDepth >= 0 {
            if element.node > 0 {
                for field in plan.textFields[element.node] {
                    record.addText(deepText, from: element.textStart, count: deepText.count - element.textStart, to: field,
                                   at: element.position)
                }
            }
            if level == recordDepth { endRecord() }
        } else if let capture = childText, capture.depth == level {
            if capture.level >= 0 {
                for (field, source) in plan.levels[capture.level] {
                    if case .childText(let name) = source, name == capture.name, levelValues[field] == nil {
                        levelValues[field] = .text(childTextBytes.string(from: 0))
                    }
                }
            }
            childText = nil
        }
        if matched > level { matched = level }
    }

    private func endRecord() {
        recordDepth = -1
        for field in plan.ownTextFields { record.addText(ownText, from: 0, count: ownText.count, to: field) }
        if record.endRecord(line: recordLine) { deliverBatch() }
    }

    /// Character data: text, or a character or predefined entity reference (libxml2 hands a run
    /// over in pieces); the whitespace rule applies to the run.
    /// SAFETY: libxml2's buffer, valid during the callback only: copied (`keep`) before it returns.
    func text(_ bytes: UnsafePointer<xmlChar>, count: Int) {
        guard !failed, depth > 0 else { return }
        runLength += count
        if runLength > Self.maximumTextLength {
            fail(.xmlTextTooLong(Self.maximumTextLength), column: true)
            return
        }
        let flags = elements[depth - 1].flags
        guard flags & (Self.wantsDeepText | Self.wantsOwnText) != 0 else { return }
        if !runIsKept && (flags & Self.preservesSpace != 0 || !Self.isBlank(bytes, count: count)) { runIsKept = true }
        let targets = keep(bytes, count: count, flags: flags)
        if targets != 0 {
            runTargets = targets
            runKept += count
        }
    }

    /// A CDATA section: it ends the run of text before it, and is kept as it is, whitespace only or not.
    /// SAFETY: libxml2's buffer, valid during the callback only: copied (`keep`) before it returns.
    func cdata(_ bytes: UnsafePointer<xmlChar>, count: Int) {
        guard !failed, depth > 0 else { return }
        flushRun()
        let flags = elements[depth - 1].flags
        guard flags & (Self.wantsDeepText | Self.wantsOwnText) != 0 else { return }
        _ = keep(bytes, count: count, flags: flags)
    }

    func endDocument() {
        guard !failed else { return }
        flushRun()
    }

    // MARK: Text

    /// Copies text of the current element (`flags`) into whichever buffers take it: a capture's
    /// inside a record, the record's own, or a `../name` child's outside one. Returns those
    /// buffers (`keptIn*` flags).
    @inline(__always)
    // SAFETY: copies `bytes` into the scanner's buffers during the call.
    private func keep(_ bytes: UnsafePointer<xmlChar>, count: Int, flags: UInt8) -> UInt8 {
        var targets: UInt8 = 0
        if recordDepth >= 0 {
            // Inside a record an element wants deep text exactly while a capture is open.
            if flags & Self.wantsDeepText != 0 {
                deepText.append(bytes, count: count)
                targets = Self.keptInDeep
            }
            if depth - 1 == recordDepth, !plan.ownTextFields.isEmpty {
                ownText.append(bytes, count: count)
                targets |= Self.keptInOwn
            }
        } else if childText != nil {
            childTextBytes.append(bytes, count: count)
            targets = Self.keptInChild
        }
        return targets
    }

    /// Ends the current run of text: whitespace only, it is cut off the buffers that kept it.
    @inline(__always)
    private func flushRun() {
        runLength = 0
        if runKept > 0 {
            if !runIsKept {
                if runTargets & Self.keptInDeep != 0 { deepText.count -= runKept }
                if runTargets & Self.keptInOwn != 0 { ownText.count -= runKept }
                if runTargets & Self.keptInChild != 0 { childTextBytes.count -= runKept }
            }
            runKept = 0
            runTargets = 0
        }
        runIsKept = false
    }

    /// Whether `count` bytes are all whitespace as the rule counts it: space, tab, CR, LF.
    @inline(__always)
    // SAFETY: reads `count` bytes during the call only.
    private static func isBlank(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        for index in 0..<count where !isBlank(bytes[index]) { return false }
        return true
    }

    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }
}
