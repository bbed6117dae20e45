import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Parses one `.xcdatamodel/contents` file into a `Model`.
///
/// Uses Foundation's `XMLParser` with external entities never resolved; names are validated the way
/// Core Data's SQL layer needs them (letters, digits, underscore) before anything reaches SQL text.
enum ModelParser {
    static func parse(contentsOf path: String, versionName: String) throws(FileError) -> Model {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(.unreadableInput, path: path, message: "cannot read the model file")
        }
        return try parse(data: data, path: path, versionName: versionName)
    }

    static func parse(data: Data, path: String, versionName: String) throws(FileError) -> Model {
        // Foundation's XMLParser traps on a name that is not valid UTF-8 (found by fuzzing): check the
        // bytes first. Xcode writes models in UTF-8; a UTF-16 file (with its BOM) is left to the parser.
        if !(data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF])), let line = firstInvalidUTF8Line(data) {
            throw FileError(.unreadableInput, path: path, line: line,
                            message: "not a valid model file: the text is not valid UTF-8 (Xcode writes models in UTF-8)")
        }
        // Foundation's XMLParser crashes (strlen of NULL) on a processing instruction with no data,
        // `<?name?>` (found by fuzzing): refuse one first.
        if let (line, name) = firstProcessingInstructionWithoutData(data) {
            throw FileError(.unreadableInput, path: path, line: line,
                            message: "not a valid model file: a processing instruction without data (<?\(name)?>), which Xcode never writes and Foundation's XML parser cannot read")
        }
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        let delegate = ModelParserDelegate(path: path, versionName: versionName)
        parser.delegate = delegate
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        guard ok, parser.parserError == nil else {
            let reason = parser.parserError.map { ModelParser.words(for: $0) } ?? "malformed XML"
            throw FileError(.unreadableInput, path: path, line: parser.lineNumber, message: "not a valid model file: \(reason)")
        }
        guard let model = delegate.model else {
            throw FileError(.unreadableInput, path: path, line: 1, message: "no <model> element: this is not a Core Data model")
        }
        try ModelValidator.validate(model)
        return model
    }

    /// Foundation's XML error in words ("the document ends before its elements are closed", not
    /// "NSXMLParserErrorDomain error 5"). The codes are libxml2's (`xmlParserErrors` in xmlerror.h),
    /// which Foundation passes on.
    static func words(for error: any Error) -> String {
        let nsError = error as NSError
        guard nsError.domain == XMLParser.errorDomain else { return nsError.localizedDescription }
        let words: [Int: String] = [
            4: "the file is empty", 5: "the document ends before its elements are closed",
            9: "a character XML does not allow", 26: "an entity that is not declared",
            38: "'<' inside an attribute value", 39: "an attribute value without quotes",
            41: "an attribute without a value", 42: "an attribute given twice",
            68: "a name is missing", 73: "'>' is missing", 76: "an end tag does not match its start tag",
            77: "an element is not finished", 85: "elements are not nested properly",
            86: "extra content after the document's end", 89: "an entity refers to itself",
        ]
        return words[nsError.code] ?? "malformed XML (libxml2 error \(nsError.code))"
    }
}

/// The 1-based line of the first byte sequence that is not valid UTF-8, or nil when all of it is.
private func firstInvalidUTF8Line(_ data: Data) -> Int? {
    var line = 1
    var iterator = data.makeIterator()
    var decoder = UTF8()
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): if scalar == "\n" { line += 1 }
        case .emptyInput: return nil
        case .error: return line
        }
    }
}

/// The line and target of the first `<?target?>` (a processing instruction with no data), if any.
private func firstProcessingInstructionWithoutData(_ data: Data) -> (Int, String)? {
    let bytes = [UInt8](data)
    var line = 1
    var index = 0
    while index + 1 < bytes.count {
        if bytes[index] == UInt8(ascii: "\n") { line += 1 }
        if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") {
            var end = index + 2
            while end < bytes.count, bytes[end] > 0x20, bytes[end] != UInt8(ascii: "?") { end += 1 }
            if end + 1 < bytes.count, end > index + 2, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") {
                return (line, String(decoding: bytes[(index + 2)..<end], as: UTF8.self))
            }
        }
        index += 1
    }
    return nil
}

/// Builds the model element by element. Not `Sendable`: lives only during one parse.
private final class ModelParserDelegate: NSObject, XMLParserDelegate {
    let path: String
    let versionName: String
    var model: Model?
    var error: FileError?

    private var entities: [Entity] = []
    private var configurations: [Model.Configuration] = []
    private var composites: [String: [Attribute]] = [:]
    private var currentEntity: Entity?
    private var currentComposite: (name: String, attributes: [Attribute])?
    private var currentAttribute: Attribute?
    private var currentRelationship: Relationship?
    private var currentConfiguration: Model.Configuration?
    private var currentFetchIndex: Entity.FetchIndex?
    private var currentUniqueness: [String]?
    private var currentCompound: [String]?
    private var versionIdentifier = ""
    private var sawModel = false
    private var depth = 0

    init(path: String, versionName: String) {
        self.path = path
        self.versionName = versionName
    }

    private func fail(_ parser: XMLParser, _ message: String) {
        if error == nil { error = FileError(.unreadableInput, path: path, line: parser.lineNumber, message: message) }
        parser.abortParsing()
    }

    private func flag(_ attributes: [String: String], _ key: String) -> Bool {
        attributes[key] == "YES"
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        depth += 1
        guard depth < 64 else { return fail(parser, "elements nested too deeply") }
        let line = parser.lineNumber
        switch element {
        case "model":
            guard depth == 1 else { return fail(parser, "unexpected nested <model>") }
            sawModel = true
            versionIdentifier = attributes["userDefinedModelVersionIdentifier"] ?? ""
        case "entity":
            guard let name = attributes["name"] else { return fail(parser, "<entity> without a name") }
            currentEntity = Entity(
                name: name, parentName: attributes["parentEntity"], isAbstract: flag(attributes, "isAbstract"),
                representedClassName: attributes["representedClassName"],
                versionHashModifier: attributes["versionHashModifier"], renamingIdentifier: attributes["elementID"],
                line: line)
        case "composite":
            guard let name = attributes["name"] else { return fail(parser, "<composite> without a name") }
            currentComposite = (name, [])
        case "attribute":
            guard let name = attributes["name"] else { return fail(parser, "<attribute> without a name") }
            let typeName = attributes["attributeType"] ?? "Undefined"
            guard let type = AttributeType(rawValue: typeName) else {
                return fail(parser, "attribute '\(name)' has unsupported attributeType '\(typeName)'")
            }
            currentAttribute = Attribute(
                name: name, type: type, isOptional: flag(attributes, "optional"), isTransient: flag(attributes, "transient"),
                derivationExpression: flag(attributes, "derived") ? (attributes["derivationExpression"] ?? "") : nil,
                isIndexed: flag(attributes, "indexed"), defaultValueString: attributes["defaultValueString"],
                minValueString: attributes["minValueString"], maxValueString: attributes["maxValueString"],
                allowsExternalBinaryDataStorage: flag(attributes, "allowsExternalBinaryDataStorage"),
                preserveAfterDeletion: flag(attributes, "preserveAfterDeletion"),
                versionHashModifier: attributes["versionHashModifier"], renamingIdentifier: attributes["elementID"],
                valueTransformerName: attributes["valueTransformerName"], customClassName: attributes["customClassName"],
                usesScalarValueType: attributes["usesScalarValueType"].map { $0 == "YES" },
                compositeName: attributes["composite"], line: line)
            currentAttribute?.regularExpressionString = attributes["regularExpressionString"]
            currentAttribute?.minDateTimeInterval = attributes["minDateTimeInterval"]
            currentAttribute?.maxDateTimeInterval = attributes["maxDateTimeInterval"]
        case "relationship":
            guard let name = attributes["name"] else { return fail(parser, "<relationship> without a name") }
            guard let destination = attributes["destinationEntity"] else {
                return fail(parser, "relationship '\(name)' has no destinationEntity")
            }
            let toMany = flag(attributes, "toMany")
            var maxCount: Int? = nil
            if let text = attributes["maxCount"] {
                guard let value = Int(text), value >= 0 else { return fail(parser, "relationship '\(name)' has maxCount '\(text)'") }
                maxCount = value
            }
            var minCount = 0
            if let text = attributes["minCount"] {
                guard let value = Int(text), value >= 0 else { return fail(parser, "relationship '\(name)' has minCount '\(text)'") }
                minCount = value
            }
            let rule = Relationship.DeleteRule(rawValue: attributes["deletionRule"] ?? "Nullify") ?? .nullify
            currentRelationship = Relationship(
                name: name, destinationEntity: destination, inverseName: attributes["inverseName"],
                inverseEntity: attributes["inverseEntity"], isToMany: toMany, isOrdered: flag(attributes, "ordered"),
                isOptional: flag(attributes, "optional"), isTransient: flag(attributes, "transient"),
                maxCount: toMany ? (maxCount ?? 0) : 1, minCount: minCount, deleteRule: rule,
                versionHashModifier: attributes["versionHashModifier"], renamingIdentifier: attributes["elementID"],
                line: line)
        case "fetchedProperty":
            if let name = attributes["name"] { currentEntity?.fetchedPropertyNames.append(name) }
        case "entry":
            guard let key = attributes["key"] else { return fail(parser, "userInfo <entry> without a key") }
            let value = attributes["value"] ?? ""
            if currentAttribute != nil { currentAttribute?.userInfo[key] = value }
            else if currentRelationship != nil { currentRelationship?.userInfo[key] = value }
            else if currentEntity != nil { currentEntity?.userInfo[key] = value }
        case "uniquenessConstraint": currentUniqueness = []
        case "constraint":
            if let value = attributes["value"] { currentUniqueness?.append(value) }
        case "compoundIndex": currentCompound = []
        case "index":
            if let value = attributes["value"] { currentCompound?.append(value) }
        case "fetchIndex":
            currentFetchIndex = Entity.FetchIndex(name: attributes["name"] ?? "", elements: [])
        case "fetchIndexElement":
            currentFetchIndex?.elements.append(Entity.FetchIndexElement(
                property: attributes["property"], expression: attributes["expression"],
                type: attributes["type"] ?? "Binary", isAscending: (attributes["order"] ?? "ascending") != "descending"))
        case "configuration":
            currentConfiguration = Model.Configuration(name: attributes["name"] ?? "", entityNames: [])
        case "memberEntity":
            if let name = attributes["name"] { currentConfiguration?.entityNames.append(name) }
        default:
            if depth == 1 { fail(parser, "root element is <\(element)>, not <model>: this is not a Core Data model") }
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        switch element {
        case "entity":
            if let entity = currentEntity { entities.append(entity) }
            currentEntity = nil
        case "composite":
            if let composite = currentComposite { composites[composite.name] = composite.attributes }
            currentComposite = nil
        case "attribute":
            guard let attribute = currentAttribute else { break }
            currentAttribute = nil
            if currentComposite != nil { currentComposite?.attributes.append(attribute) }
            else { currentEntity?.attributes.append(attribute) }
        case "relationship":
            if let relationship = currentRelationship { currentEntity?.relationships.append(relationship) }
            currentRelationship = nil
        case "uniquenessConstraint":
            if let names = currentUniqueness { currentEntity?.uniquenessConstraints.append(names) }
            currentUniqueness = nil
        case "compoundIndex":
            if let names = currentCompound { currentEntity?.compoundIndexes.append(names) }
            currentCompound = nil
        case "fetchIndex":
            if let index = currentFetchIndex { currentEntity?.fetchIndexes.append(index) }
            currentFetchIndex = nil
        case "configuration":
            if let configuration = currentConfiguration { configurations.append(configuration) }
            currentConfiguration = nil
        case "model":
            model = Model(versionName: versionName, versionIdentifier: versionIdentifier, entities: entities,
                          configurations: configurations, composites: composites, path: path)
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundInternalSubset name: String, externalID: String?, systemID: String?) {
        fail(parser, "a model file has no DOCTYPE; refusing one that declares entities")
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
        fail(parser, "external entity '\(name)' refused")
        return nil
    }
}
