/// What keeps a model's entities from syncing through `NSPersistentCloudKitContainer`: the limits of
/// Apple's "Creating a Core Data Model for CloudKit" (no unique constraints, no Undefined or ObjectID
/// attributes, every relationship optional with an inverse, no Deny rule, no relationship into
/// another configuration) and two more that Core Data's own model validator refuses
/// (`PFCloudKitModelValidator`: ordered relationships; an attribute neither optional nor with a
/// default value). `coreseed verify --cloudkit` prints them; a seed kept in a local configuration
/// (docs/APP.md) need not pass, the configuration that syncs must.
public enum CloudKitCompatibility {
    /// One line per obstacle, `Entity.property: why`, for the entities of `configuration` (all
    /// entities without one), in model order.
    public static func problems(in model: Model, configuration: String?) -> [String] {
        let members = configuration.flatMap { name in model.configurations.first { $0.name == name }.map { Set($0.entityNames) } }
        let entities = model.entities.filter { members?.contains($0.name) ?? true }
        var problems: [String] = []
        for entity in entities {
            for constraint in entity.uniquenessConstraints {
                problems.append("\(entity.name): uniqueness constraint (\(constraint.joined(separator: ", "))): CloudKit does not support unique constraints")
            }
            for attribute in entity.attributes where !attribute.isTransient {
                if attribute.type == .undefined || attribute.type == .objectID {
                    problems.append("\(entity.name).\(attribute.name): CloudKit does not support \(attribute.type.rawValue) attributes")
                } else if !attribute.isOptional, attribute.defaultValueString == nil, attribute.derivationExpression == nil {
                    problems.append("\(entity.name).\(attribute.name): CloudKit needs every attribute optional or with a default value")
                }
            }
            for relationship in entity.relationships where !relationship.isTransient {
                let name = "\(entity.name).\(relationship.name)"
                if relationship.isOrdered { problems.append("\(name): CloudKit does not support ordered relationships") }
                if !relationship.isOptional { problems.append("\(name): CloudKit needs every relationship optional") }
                if relationship.inverseName == nil { problems.append("\(name): CloudKit needs every relationship to have an inverse") }
                if relationship.deleteRule == .deny { problems.append("\(name): CloudKit does not support the Deny delete rule") }
                if let members, !members.contains(relationship.destinationEntity) {
                    problems.append("\(name): leads to \(relationship.destinationEntity), outside configuration '\(configuration ?? "")': CloudKit does not relate entities across configurations")
                }
            }
        }
        return problems
    }
}
