/// One relationship of an entity, as the model file declares it.
public struct Relationship: Sendable, Equatable {
    /// What happens to the destination when the source is deleted. Not hashed, not stored.
    public enum DeleteRule: String, Sendable {
        case noAction = "No Action", nullify = "Nullify", cascade = "Cascade", deny = "Deny"
    }

    public var name: String
    public var destinationEntity: String
    public var inverseName: String?
    public var inverseEntity: String?
    public var isToMany: Bool
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    /// 0 means unbounded. To-one relationships have 1.
    public var maxCount: Int
    public var minCount: Int
    public var deleteRule: DeleteRule
    public var versionHashModifier: String?
    public var renamingIdentifier: String?
    public var userInfo: [String: String]
    public var line: Int

    public init(name: String, destinationEntity: String, inverseName: String? = nil, inverseEntity: String? = nil,
                isToMany: Bool = false, isOrdered: Bool = false, isOptional: Bool = true, isTransient: Bool = false,
                maxCount: Int? = nil, minCount: Int = 0, deleteRule: DeleteRule = .nullify,
                versionHashModifier: String? = nil, renamingIdentifier: String? = nil,
                userInfo: [String: String] = [:], line: Int = 0) {
        self.name = name
        self.destinationEntity = destinationEntity
        self.inverseName = inverseName
        self.inverseEntity = inverseEntity
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.maxCount = maxCount ?? (isToMany ? 0 : 1)
        self.minCount = minCount
        self.deleteRule = deleteRule
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.userInfo = userInfo
        self.line = line
    }
}
