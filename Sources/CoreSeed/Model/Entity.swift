/// One entity of a model, with only the properties it declares itself (inherited ones live on its parent).
public struct Entity: Sendable, Equatable {
    /// One element of a `fetchIndex`.
    public struct FetchIndexElement: Sendable, Equatable {
        public var property: String?
        public var expression: String?
        /// "Binary" (the default), "R-Tree", …
        public var type: String
        public var isAscending: Bool
        public init(property: String?, expression: String? = nil, type: String = "Binary", isAscending: Bool = true) {
            self.property = property
            self.expression = expression
            self.type = type
            self.isAscending = isAscending
        }
    }

    /// A named `fetchIndex` (`NSFetchIndexDescription`).
    public struct FetchIndex: Sendable, Equatable {
        public var name: String
        public var elements: [FetchIndexElement]
        public init(name: String, elements: [FetchIndexElement]) {
            self.name = name
            self.elements = elements
        }
    }

    public var name: String
    public var parentName: String?
    public var isAbstract: Bool
    public var representedClassName: String?
    public var versionHashModifier: String?
    public var renamingIdentifier: String?
    public var attributes: [Attribute]
    public var relationships: [Relationship]
    /// Names of fetched properties; they never reach the store.
    public var fetchedPropertyNames: [String]
    /// Each constraint is a list of property names.
    public var uniquenessConstraints: [[String]]
    /// Each compound index is a list of property names, in model order.
    public var compoundIndexes: [[String]]
    public var fetchIndexes: [FetchIndex]
    public var userInfo: [String: String]
    public var line: Int

    public init(name: String, parentName: String? = nil, isAbstract: Bool = false, representedClassName: String? = nil,
                versionHashModifier: String? = nil, renamingIdentifier: String? = nil,
                attributes: [Attribute] = [], relationships: [Relationship] = [], fetchedPropertyNames: [String] = [],
                uniquenessConstraints: [[String]] = [], compoundIndexes: [[String]] = [],
                fetchIndexes: [FetchIndex] = [], userInfo: [String: String] = [:], line: Int = 0) {
        self.name = name
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.representedClassName = representedClassName
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedPropertyNames = fetchedPropertyNames
        self.uniquenessConstraints = uniquenessConstraints
        self.compoundIndexes = compoundIndexes
        self.fetchIndexes = fetchIndexes
        self.userInfo = userInfo
        self.line = line
    }

    /// The declared attribute named `name`.
    public func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }
    /// The declared relationship named `name`.
    public func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }
}
