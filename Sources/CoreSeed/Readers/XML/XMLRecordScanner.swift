import CLibXML2

/// Turns libxml2's SAX events into records: matches elements against the record path and the
/// field paths by interned name, keeps text only where a field takes it, and adds each record to
/// the batch in progress when its end tag is seen; full batches go to `deliver`. The callbacks in
/// `XMLRecordScanner+SAX.swift` feed it.
///
/// Text is read as libxml2's tree builder would have kept it, because that is what the reader
/// returned when it used `xmlTextReader`: runs of text between two pieces of markup are text nodes,
/// a whitespace-only one is ignored, and whitespace that the tree builder drops before markup
/// (`XML_PARSE_NOBLANKS`, see `dropsBlanks`) never joins the text that follows (a CDATA section).
/// Wanted text is copied straight from libxml2 into a reusable byte buffer (a text node found to
/// be whitespace only is cut off again), and into the batch's bytes when its element ends: no
/// `String` is made here (see ``XMLRecordBatch``).
///
/// Not `Sendable`: it lives inside one parser, on the parsing thread. Its state is touched only
/// from that parser's callbacks, one at a time, so the per-access exclusivity checks (a third of
/// the scanner's cost when measured) are turned off for it. The state touched per event is plain
/// memory (no Swift arrays), so that an event retains and releases nothing.
final class XMLRecordScanner {
    private let parser: xmlParserCtxtPtr
    private let plan: XMLRecordPlan
    private let file: String
    private let depthLimit: Int
    private let fieldCount: Int

    /// Open elements, `elements[0]` the root; `depth` of them.
    private let elements: UnsafeMutablePointer<Element>
    @exclusivity(unchecked) private var depth = 0
    /// How many of the open elements, from the root, lie on the record path.
    @exclusivity(unchecked) private var matched = 0
    /// The depth of the record element while inside one, else -1.
    @exclusivity(unchecked) private var recordDepth = -1
    @exclusivity(unchecked) private var recordLine = 0

    /// Per path level: elements seen on that path so far (for `#`).
    private let levelCounts: UnsafeMutablePointer<Int>
    /// Per field: its value from the current element at its level (level fields only).
    private let levelValues: UnsafeMutablePointer<FieldValue?>
    /// The child element whose text a `../name` field may take: its depth, and the level (-1:
    /// none, its parent is not on the record path) and name it fills.
    @exclusivity(unchecked) private var childText: (depth: Int, level: Int, name: XMLInternedName)?
    @exclusivity(unchecked) private var childTextBytes = XMLByteBuffer()

    /// The text of the current record's captured elements, each element's from its `textStart`
    /// (a nested capture's text lies inside its parent's); a value is copied out when its element ends.
    @exclusivity(unchecked) private var deepText = XMLByteBuffer()
    /// The current record's own direct text.
    @exclusivity(unchecked) private var ownText = XMLByteBuffer()

    /// Where the current run of text (a would-be text node) was kept (`keptIn*` flags), and how
    /// many bytes of it; cut off again if it turns out to be whitespace only.
    @exclusivity(unchecked) private var runTargets: UInt8 = 0
    @exclusivity(unchecked) private var runKept = 0
    @exclusivity(unchecked) private var runHasNonBlank = false
    /// The length of the current text node, wanted or not (libxml2's 10 MB text node limit).
    @exclusivity(unchecked) private var runLength = 0
    /// The `xml:space` slot libxml2 marked after whitespace that the tree builder would drop.
    @exclusivity(unchecked) private var spaceSlotToRestore = -1

    /// The current record's values and the batch it joins.
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

    /// The longest text node libxml2's tree builder accepts without `XML_PARSE_HUGE`.
    static let maximumTextLength = 10_000_000

    private struct Element {
        var local: UnsafePointer<xmlChar>?
        var prefix: UnsafePointer<xmlChar>?
        /// The descendant plan node inside a record, -1 when no field path goes on here.
        var node: Int
        var flags: UInt8
        /// Where this element's text starts in `deepText`, when it is captured.
        var textStart = 0
    }

    // Element flags: the tree builder's view of its children, and whether its text is wanted.
    private static let hasChildren: UInt8 = 1, firstChildIsText: UInt8 = 2, lastChildIsText: UInt8 = 4
    private static let wantsDeepText: UInt8 = 8, wantsOwnText: UInt8 = 16
    // Run targets: the buffers that kept the current run of text.
    private static let keptInDeep: UInt8 = 1, keptInOwn: UInt8 = 2, keptInChild: UInt8 = 4

    /// `plan` becomes the scanner's, freed with it. `picks`: per field, the 1-based value it picks.
    init(parser: xmlParserCtxtPtr, plan: XMLRecordPlan, picks: [Int?], file: String, depthLimit: Int,
         deliver: @escaping (XMLRecordBatch) -> Bool) {
        self.parser = parser
        self.plan = plan
        self.file = file
        self.depthLimit = depthLimit
        self.deliver = deliver
        fieldCount = picks.count
        record = XMLRecordAssembly(picks: picks)
        elements = .allocate(capacity: depthLimit + 1)
        levelCounts = .allocate(capacity: plan.recordPath.count)
        levelCounts.initialize(repeating: 0, count: plan.recordPath.count)
        levelValues = .allocate(capacity: max(fieldCount, 1))
        levelValues.initialize(repeating: nil, count: fieldCount)
    }

    deinit {
        levelValues.deinitialize(count: fieldCount)
        levelValues.deallocate()
        levelCounts.deallocate()
        record.deallocate()
        elements.deallocate()
        childTextBytes.deallocate()
        deepText.deallocate()
        ownText.deallocate()
        plan.deallocate()
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
    func libxml2Error(_ error: xmlError) {
        guard !failed, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = error.message.map { String(cString: $0) } ?? "unknown error"
        while message.last?.isWhitespace == true { message.removeLast() }
        failure = ReaderError(.xmlSyntax(message), at: SourceLocation(file: file, line: Int(error.line), column: error.int2 > 0 ? Int(error.int2) : nil))
    }

    /// Refuses the document once its DOCTYPE declares an entity, whatever happened before.
    func entityDeclared() {
        failure = ReaderError(.xmlEntitiesDeclared, at: SourceLocation(file: file))
        xmlStopParser(parser)
    }

    private func fail(_ reason: ReaderError.Reason, column: Bool = false) {
        let input = parser.pointee.input.pointee
        failure = ReaderError(reason, at: SourceLocation(file: file, line: Int(input.line), column: column ? Int(input.col) : nil))
        xmlStopParser(parser)
    }

    // MARK: Events

    func startElement(local: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, tag: XMLStartTag) {
        guard !failed else { return }
        restoreSpace()
        flushRun()
        let level = depth
        if level >= depthLimit {
            fail(.xmlTooDeep(depthLimit))
            return
        }
        var element = Element(local: local, prefix: prefix, node: -1, flags: 0)
        if level > 0 {
            let parent = elements + (level - 1)
            parent.pointee.flags = (parent.pointee.flags | Self.hasChildren) & ~Self.lastChildIsText
            if recordDepth >= 0 {
                startDescendant(&element, parent: parent.pointee, tag: tag)
            } else {
                startOutside(&element, level: level, parentFlags: parent.pointee.flags, tag: tag)
            }
        } else {
            startOutside(&element, level: 0, parentFlags: 0, tag: tag)
        }
        elements[level] = element
        depth = level + 1
    }

    private func startDescendant(_ element: inout Element, parent: Element, tag: XMLStartTag) {
        element.flags = parent.flags & Self.wantsDeepText
        guard parent.node >= 0 else { return }
        for child in plan.children[parent.node] where child.name.matches(element.local, element.prefix) {
            element.node = child.node
            if !plan.textFields[child.node].isEmpty {
                element.textStart = deepText.count
                element.flags |= Self.wantsDeepText
            }
            for (field, name) in plan.attributeFields[child.node] { record.addAttribute(name, of: tag, to: field) }
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

    private func startRecord(_ element: inout Element, level: Int, tag: XMLStartTag) {
        recordDepth = level
        recordLine = Int(parser.pointee.input.pointee.line)
        record.startRecord()
        // No field has a value yet: `endRecord` took them all. The record's own level values are
        // taken too; those of the elements above stay for the records after it.
        for pathLevel in 0...level {
            for (field, source) in plan.levels[pathLevel] {
                if pathLevel == level, case .attribute(let name) = source {
                    record.addAttribute(name, of: tag, to: field)
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
        restoreSpace()
        flushRun()
        depth -= 1
        let level = depth
        let element = elements[level]
        if recordDepth >= 0 {
            if element.node > 0 {
                for field in plan.textFields[element.node] {
                    record.addText(deepText, from: element.textStart, count: deepText.count - element.textStart, to: field)
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

    /// Text from character data, a character or predefined entity reference, or (`cdata`) a CDATA section.
    func text(_ bytes: UnsafePointer<xmlChar>, count: Int, cdata: Bool) {
        guard !failed, depth > 0 else { return }
        restoreSpace()
        let element = elements + (depth - 1)
        guard element.pointee.flags & (Self.wantsDeepText | Self.wantsOwnText) != 0 else {
            runLength += count
            if runLength > Self.maximumTextLength { fail(.xmlSyntax("Memory allocation failed : xmlSAX2Characters: huge text node"), column: true) }
            return
        }
        let blank = UnsafeBufferPointer(start: bytes, count: count).allSatisfy(Self.isBlank)
        if blank && !cdata && dropsBlanks(element.pointee) { return }
        var flags = element.pointee.flags
        if flags & Self.hasChildren == 0 { flags |= Self.firstChildIsText }
        element.pointee.flags = flags | Self.hasChildren | Self.lastChildIsText
        if !blank { runHasNonBlank = true }
        keep(bytes, count: count, flags: flags)
        runLength += count
        if runLength > Self.maximumTextLength { fail(.xmlSyntax("Memory allocation failed : xmlSAX2Characters: huge text node"), column: true) }
    }

    /// A comment or processing instruction: it ends a text node, and is a child that is not text.
    func otherMarkup() {
        guard !failed else { return }
        restoreSpace()
        flushRun()
        if depth > 0 {
            let element = elements + (depth - 1)
            element.pointee.flags = (element.pointee.flags | Self.hasChildren) & ~Self.lastChildIsText
        }
    }

    func endDocument() {
        guard !failed else { return }
        flushRun()
    }

    // MARK: Text

    /// Copies text of the current element (`flags`) into whichever buffers take it: a capture's
    /// inside a record, the record's own, or a `../name` child's outside one.
    @inline(__always)
    private func keep(_ bytes: UnsafePointer<xmlChar>, count: Int, flags: UInt8) {
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
        if targets != 0 {
            runTargets = targets
            runKept += count
        }
    }

    /// Ends the current text node: whitespace-only text is cut off the buffers that kept it.
    private func flushRun() {
        runLength = 0
        if runKept > 0 {
            if !runHasNonBlank {
                if runTargets & Self.keptInDeep != 0 { deepText.count -= runKept }
                if runTargets & Self.keptInOwn != 0 { ownText.count -= runKept }
                if runTargets & Self.keptInChild != 0 { childTextBytes.count -= runKept }
            }
            runKept = 0
            runTargets = 0
        }
        runHasNonBlank = false
    }

    /// Whether libxml2's tree builder, with `XML_PARSE_NOBLANKS`, would drop this whitespace
    /// (its `areBlanks` in parser.c): not under `xml:space="preserve"` nor after text in the element,
    /// declared element-only content in the DTD, or else right before markup other than the end
    /// tag of an empty element, where the element has no text child first or last.
    private func dropsBlanks(_ element: Element) -> Bool {
        let context = parser.pointee
        guard let space = context.space, space.pointee != 1, space.pointee != -2,
              let input = context.input, let cursor = input.pointee.cur, let base = input.pointee.base else { return false }
        // A character reference (`&#32;`) is never dropped; its text ends at the ';' just read.
        if cursor > base && cursor[-1] == UInt8(ascii: ";") { return false }
        var drop: Bool?
        if let document = context.myDoc, document.pointee.intSubset != nil {
            switch mixedContent(element, in: document) {
            case 0: drop = true
            case 1: drop = false
            default: break
            }
        }
        if drop == nil {
            let next = cursor[0]
            if next != UInt8(ascii: "<") && next != 0x0D {
                drop = false
            } else if element.flags & Self.hasChildren == 0 {
                drop = !(next == UInt8(ascii: "<") && cursor[1] == UInt8(ascii: "/"))
            } else {
                drop = element.flags & (Self.firstChildIsText | Self.lastChildIsText) == 0
            }
        }
        guard drop == true else { return false }
        // libxml2 marks the element as having had text once characters() returns (-1 → -2);
        // the tree builder would not have, so the mark is undone at the next event.
        if space.pointee == -1 { spaceSlotToRestore = Int(context.spaceNr) - 1 }
        return true
    }

    private func mixedContent(_ element: Element, in document: xmlDocPtr) -> Int32 {
        guard let local = element.local else { return -1 }
        guard let prefix = element.prefix else { return xmlIsMixedElement(document, local) }
        var name = Array(UnsafeBufferPointer(start: prefix, count: xmlStrlen(prefix).asCount))
        name.append(UInt8(ascii: ":"))
        name.append(contentsOf: UnsafeBufferPointer(start: local, count: xmlStrlen(local).asCount))
        name.append(0)
        return xmlIsMixedElement(document, name)
    }

    private func restoreSpace() {
        guard spaceSlotToRestore >= 0 else { return }
        if spaceSlotToRestore < Int(parser.pointee.spaceNr), let slots = parser.pointee.spaceTab, slots[spaceSlotToRestore] == -2 {
            slots[spaceSlotToRestore] = -1
        }
        spaceSlotToRestore = -1
    }

    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }
}

private extension Int32 {
    var asCount: Int { Int(self) }
}
