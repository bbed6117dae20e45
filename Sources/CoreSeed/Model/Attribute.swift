/// One attribute of an entity, as the model file declares it.
public struct Attribute: Sendable, Equatable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var isTransient: Bool
    /// Derived attributes are computed by SQL triggers (`derived="YES"`, `derivationExpression`).
    public var derivationExpression: String?
    public var isIndexed: Bool
    public var defaultValueString: String?
    public var minValueString: String?
    public var maxValueString: String?
    /// A String attribute's pattern (`regularExpressionString`): the whole value must match it.
    public var regularExpressionString: String? = nil
    /// A Date attribute's bounds, seconds since 2001-01-01 (`minDateTimeInterval`, `maxDateTimeInterval`).
    public var minDateTimeInterval: String? = nil
    public var maxDateTimeInterval: String? = nil
    public var allowsExternalBinaryDataStorage: Bool
    /// Whether Core Data may keep this attribute's values in files beside the store: a Binary attribute
    /// that allows external storage. The one test the plan, the layout, export and verify ask.
    public var storesExternally: Bool { type == .binary && allowsExternalBinaryDataStorage }
    public var preserveAfterDeletion: Bool
    public var versionHashModifier: String?
    /// The renaming identifier (`elementID`).
    public var renamingIdentifier: String?
    public var valueTransformerName: String?
    public var customClassName: String?
    public var usesScalarValueType: Bool?
    /// For a Composite attribute: the name of the composite type it uses.
    public var compositeName: String?
    public var userInfo: [String: String]
    /// Validation predicates other than a minimum and maximum, in predicate format (a compiled model's;
    /// CoreSeed keeps them but does not check them, as with a model file's regular expression).
    public var otherValidationPredicates: [String]
    /// The class of a default value CoreSeed cannot write (a Transformable's archived app object, read
    /// from a compiled model): a build must be given the value or told to store none.
    public var opaqueDefaultClassName: String?
    /// 1-based line of the element in the model file.
    public var line: Int

    public init(name: String, type: AttributeType, isOptional: Bool = true, isTransient: Bool = false,
                derivationExpression: String? = nil, isIndexed: Bool = false, defaultValueString: String? = nil,
                minValueString: String? = nil, maxValueString: String? = nil,
                allowsExternalBinaryDataStorage: Bool = false, preserveAfterDeletion: Bool = false,
                versionHashModifier: String? = nil, renamingIdentifier: String? = nil,
                valueTransformerName: String? = nil, customClassName: String? = nil,
                usesScalarValueType: Bool? = nil, compositeName: String? = nil,
                userInfo: [String: String] = [:], line: Int = 0,
                otherValidationPredicates: [String] = [], opaqueDefaultClassName: String? = nil) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.derivationExpression = derivationExpression
        self.isIndexed = isIndexed
        self.defaultValueString = defaultValueString
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preserveAfterDeletion = preserveAfterDeletion
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.usesScalarValueType = usesScalarValueType
        self.compositeName = compositeName
        self.userInfo = userInfo
        self.line = line
        self.otherValidationPredicates = otherValidationPredicates
        self.opaqueDefaultClassName = opaqueDefaultClassName
    }
}
