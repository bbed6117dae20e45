/// A Core Data managed object model, parsed from one `.xcdatamodel/contents` file.
public struct Model: Sendable, Equatable {
    /// A named configuration: the entities it holds.
    public struct Configuration: Sendable, Equatable {
        public var name: String
        public var entityNames: [String]
        public init(name: String, entityNames: [String]) {
            self.name = name
            self.entityNames = entityNames
        }
    }

    /// The version's name, e.g. "Moody 2" (the folder name without `.xcdatamodel`).
    public var versionName: String
    /// `userDefinedModelVersionIdentifier`; empty when the model leaves it unset.
    public var versionIdentifier: String
    /// Entities in file order.
    public var entities: [Entity]
    public var configurations: [Configuration]
    /// Composite attribute types (`<composite>`), by name: their element attributes.
    public var composites: [String: [Attribute]]
    /// The file the model was read from, for diagnostics.
    public var path: String

    public init(versionName: String, versionIdentifier: String = "", entities: [Entity],
                configurations: [Configuration] = [], composites: [String: [Attribute]] = [:], path: String = "") {
        self.versionName = versionName
        self.versionIdentifier = versionIdentifier
        self.entities = entities
        self.configurations = configurations
        self.composites = composites
        self.path = path
    }

    /// The entity named `name`.
    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }
}
