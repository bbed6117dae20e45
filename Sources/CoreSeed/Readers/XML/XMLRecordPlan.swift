import CLibXML2

/// An element or attribute name as libxml2's parser dictionary interns it: two names are equal
/// exactly when both pointers are, so matching a name costs two pointer compares, not a string
/// compare. Only valid while the parser (which owns the dictionary) lives.
struct XMLInternedName: Equatable {
    // SAFETY: interned in the parser's dictionary: valid while the parser lives, and the plan lives inside the parser's scanner.
    var local: UnsafePointer<xmlChar>
    /// nil for an unprefixed name.
    var prefix: UnsafePointer<xmlChar>?

    /// Interns `qualifiedName` (`name` or `prefix:name`) in `dictionary`.
    init(_ qualifiedName: String, in dictionary: xmlDictPtr) {
        let bytes = Array(qualifiedName.utf8)
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            prefix = Self.intern(bytes[..<colon], in: dictionary)
            local = Self.intern(bytes[(colon + 1)...], in: dictionary)
        } else {
            prefix = nil
            local = Self.intern(bytes[...], in: dictionary)
        }
    }

    @inline(__always)
    // SAFETY: compares addresses only; reads nothing.
    func matches(_ local: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?) -> Bool {
        self.local == local && self.prefix == prefix
    }

    // SAFETY: the name returned is the dictionary's, valid while the parser lives.
    private static func intern(_ bytes: ArraySlice<UInt8>, in dictionary: xmlDictPtr) -> UnsafePointer<xmlChar> {
        // SAFETY: xmlDictLookup copies the bytes into the dictionary inside the closure; the pointer it returns is the dictionary's.
        let pointer = bytes.withUnsafeBufferPointer { xmlDictLookup(dictionary, $0.baseAddress, Int32($0.count)) }
        // xmlDictLookup fails only when out of memory.
        guard let pointer else { preconditionFailure("libxml2 could not intern an XML name") }
        return pointer
    }
}

/// What the record scanner does, compiled from the record path and the field paths once per
/// reader, with every name interned in the parser's dictionary.
///
/// Fields split in two kinds. Level fields (`@a`, `../@a`, `#`, `../#`, `../name`) are read from
/// the record element or the elements above it, which all lie on the record path: their values are
/// kept per path level as those elements start. Descendant fields (`name`, `a/b`, `a/b/@c`) form a
/// tree of element names under the record (node 0 is the record itself); an element whose name
/// continues no field path is skipped with everything inside it.
///
/// Every table is plain memory of plain values, so that the scanner reads them on every SAX event
/// without retaining or releasing anything; freed when the plan goes (`~Copyable`: one owner).
struct XMLRecordPlan: ~Copyable {
    /// What a level field reads from the element at its level.
    enum LevelSource {
        case attribute(XMLAttributeName)
        case ordinal
        /// The text of the first child element with this name (before the record).
        case childText(XMLInternedName)
    }

    /// The element names from the root to the record.
    /// SAFETY: copied in init, freed in deinit (the plan is ~Copyable: one owner).
    let recordPath: UnsafeBufferPointer<XMLInternedName>
    /// Per path level, the fields read at that element.
    let levels: XMLFlatLists<(field: Int, source: LevelSource)>
    /// Per descendant node, its child nodes by element name.
    let children: XMLFlatLists<(name: XMLInternedName, node: Int)>
    /// Per descendant node, the fields taking the text of its element.
    let textFields: XMLFlatLists<Int>
    /// Per descendant node, the fields taking an attribute of its element.
    let attributeFields: XMLFlatLists<(field: Int, name: XMLAttributeName)>
    /// Fields taking the record's own direct text (`.`).
    /// SAFETY: copied in init, freed in deinit.
    let ownTextFields: UnsafeBufferPointer<Int>
    /// Every name used by a `../name` field, at any level.
    let childTextNames: UnsafeBufferPointer<XMLInternedName>
    /// `xml:space`, the attribute that says whether whitespace-only text is kept.
    let xmlSpace: XMLInternedName

    init(recordPath names: [String], fields: [XMLFieldPath], dictionary: xmlDictPtr) {
        let recordLevel = names.count - 1
        var levels = Array(repeating: [(field: Int, source: LevelSource)](), count: names.count)
        var children: [[(name: XMLInternedName, node: Int)]] = [[]]
        var textFields: [[Int]] = [[]]
        var attributeFields: [[(field: Int, name: XMLAttributeName)]] = [[]]
        var ownText: [Int] = []
        var childTextNames: [XMLInternedName] = []

        func node(for elements: [String]) -> Int {
            var current = 0
            for element in elements {
                let name = XMLInternedName(element, in: dictionary)
                if let next = children[current].first(where: { $0.name == name }) {
                    current = next.node
                } else {
                    children[current].append((name, children.count))
                    current = children.count
                    children.append([])
                    textFields.append([])
                    attributeFields.append([])
                }
            }
            return current
        }

        for (field, path) in fields.enumerated() {
            switch path {
            case .ownText:
                ownText.append(field)
            case .text(let elements):
                textFields[node(for: elements)].append(field)
            case .attribute(let elements, let name) where elements.isEmpty:
                levels[recordLevel].append((field, .attribute(XMLAttributeName(name, in: dictionary))))
            case .attribute(let elements, let name):
                let target = node(for: elements)
                attributeFields[target].append((field, XMLAttributeName(name, in: dictionary)))
            case .ancestorAttribute(let up, let name):
                // An ancestor above the root never exists: the field stays NULL.
                if recordLevel - up >= 0 { levels[recordLevel - up].append((field, .attribute(XMLAttributeName(name, in: dictionary)))) }
            case .ordinal(let up):
                if recordLevel - up >= 0 { levels[recordLevel - up].append((field, .ordinal)) }
            case .ancestorText(let up, let element):
                let name = XMLInternedName(element, in: dictionary)
                if !childTextNames.contains(name) { childTextNames.append(name) }
                if recordLevel - up >= 0 { levels[recordLevel - up].append((field, .childText(name))) }
            }
        }
        // SAFETY: these three copies are freed in deinit.
        recordPath = UnsafeBufferPointer(copying: names.map { XMLInternedName($0, in: dictionary) })
        self.levels = XMLFlatLists(levels)
        self.children = XMLFlatLists(children)
        self.textFields = XMLFlatLists(textFields)
        self.attributeFields = XMLFlatLists(attributeFields)
        ownTextFields = UnsafeBufferPointer(copying: ownText)
        self.childTextNames = UnsafeBufferPointer(copying: childTextNames)
        xmlSpace = XMLInternedName("xml:space", in: dictionary)
    }

    deinit {
        recordPath.deallocate()
        ownTextFields.deallocate()
        childTextNames.deallocate()
    }
}

/// An attribute name to look up in a start tag: an ordinary attribute, or a namespace
/// declaration (`xmlns`, `xmlns:p`), which libxml2 reports apart from the attributes.
enum XMLAttributeName {
    case attribute(XMLInternedName)
    /// The declared prefix, nil for the default namespace.
    /// SAFETY: a dictionary name, compared by address; valid while the parser lives.
    case namespace(prefix: UnsafePointer<xmlChar>?)

    init(_ qualifiedName: String, in dictionary: xmlDictPtr) {
        let name = XMLInternedName(qualifiedName, in: dictionary)
        if qualifiedName == "xmlns" {
            self = .namespace(prefix: nil)
        } else if qualifiedName.hasPrefix("xmlns:") {
            self = .namespace(prefix: name.local)
        } else {
            self = .attribute(name)
        }
    }
}
