/// Builds a model element by element, from the events of ``XMLElementParser``. Not `Sendable`:
/// lives only during one parse.
final class ModelBuilder: XMLElementHandler {
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

    /// Records the first problem, at `line`; false, to stop the parser.
    private func fail(_ line: Int, _ message: String) -> Bool {
        if error == nil { error = FileError(.unreadableInput, path: path, line: line, message: message) }
        return false
    }

    private func flag(_ attributes: [String: String], _ key: String) -> Bool {
        attributes[key] == "YES"
    }

    func startElement(_ element: String, attributes: [String: String], line: Int) -> Bool {
        depth += 1
        guard depth < 64 else { return fail(line, "elements nested too deeply") }
        switch element {
        case "model":
            guard depth == 1 else { return fail(line, "unexpected nested <model>") }
            sawModel = true
            versionIdentifier = attributes["userDefinedModelVersionIdentifier"] ?? ""
        case "entity":
            guard let name = attributes["name"] else { return fail(line, "<entity> without a name") }
            currentEntity = Entity(
                name: name, parentName: attributes["parentEntity"], isAbstract: flag(attributes, "isAbstract"),
                representedClassName: attributes["representedClassName"],
                versionHashModifier: attributes["versionHashModifier"], renamingIdentifier: attributes["elementID"],
                line: line)
        case "composite":
            guard let name = attributes["name"] else { return fail(line, "<composite> without a name") }
            currentComposite = (name, [])
        case "attribute":
            guard let name = attributes["name"] else { return fail(line, "<attribute> without a name") }
            let typeName = attributes["attributeType"] ?? "Undefined"
            guard let type = AttributeType(rawValue: typeName) else {
                return fail(line, "attribute '\(name)' has unsupported attributeType '\(typeName)'")
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
            guard let name = attributes["name"] else { return fail(line, "<relationship> without a name") }
            guard let destination = attributes["destinationEntity"] else {
                return fail(line, "relationship '\(name)' has no destinationEntity")
            }
            let toMany = flag(attributes, "toMany")
            var maxCount: Int? = nil
            if let text = attributes["maxCount"] {
                guard let value = Int(text), value >= 0 else { return fail(line, "relationship '\(name)' has maxCount '\(text)'") }
                maxCount = value
            }
            var minCount = 0
            if let text = attributes["minCount"] {
                guard let value = Int(text), value >= 0 else { return fail(line, "relationship '\(name)' has minCount '\(text)'") }
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
            guard let key = attributes["key"] else { return fail(line, "userInfo <entry> without a key") }
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
            if depth == 1 { return fail(line, "root element is <\(element)>, not <model>: this is not a Core Data model") }
        }
        return true
    }

    func endElement(_ element: String) {
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
}
