/// A derived attribute `<to-many>.@count`, which Core Data keeps with five `Z_DA_` triggers (DESIGN §4b.12):
/// four on the destination's table (a row inserted, re-pointed or deleted moves the count) and one on the
/// counting table (a new row starts from the rows already pointing at it). The SQL text is the form
/// observed in `coredataplus-samplemodel2-v1` (framework 1344), with the names filled in.
///
/// Proven by evidence, as is `<to-one>.<attribute>` (``DerivedKeyPath``); any other derivation is refused
/// (``StoreLayout/derivations(_:members:tables:)``).
public struct DerivedCount: Sendable, Equatable {
    /// The entity that declares the attribute, and the attribute.
    public let entity: String
    public let attribute: String
    /// The table holding the count, and its column.
    public let table: String
    public let column: String
    /// The destination's table and its column holding the key of the counted row (the inverse to-one).
    public let childTable: String
    public let childKey: String

    /// The five `CREATE TRIGGER` statements, in Core Data's order (built by `CoreDataSQL.triggers(of:)`,
    /// as Core Data's generator `NSSQLDerivedAttributeSQLGenerator` writes them for a to-many `count:`).
    public var triggers: [String] { CoreDataSQL.triggers(of: self) }

    /// The counting entity's number and the highest number of its sub-entities, when it is itself a
    /// sub-entity (Core Data's `_entityID`, `_subentityMaxID`); nil for a root.
    let entityRange: ClosedRange<Int>?

    /// Sets every count from the rows in the store: what the triggers would have left had the rows
    /// been inserted one by one (a build loads rows before it creates the triggers).
    public var fillSQL: String { CoreDataSQL.fill(self) }

    /// The entity numbers that have the attribute, when the table also holds rows of other entities.
    let entityNumbers: [Int]

    /// The functions the triggers call. Core Data registers them on its connections to hear of the
    /// change; any other connection that writes the table must register them too (they do nothing here).
    public static let triggerFunctions = ["NSCoreDataDATriggerUpdatedAffectedObjectValue",
                                          "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"]
}

extension StoreLayout {
    /// The derived attributes of the entities in `members` (nil: all), in entity then name order: the
    /// `<to-many>.@count`s and the `<to-one>.<attribute>` key paths. Throws for any other derivation,
    /// naming the entity, attribute and expression: CoreSeed cannot prove the triggers Core Data would create for it.
    static func derivations(_ graph: EntityGraph, members: Set<String>?, tables: [Table]) throws(FileError) -> ([DerivedCount], [DerivedKeyPath]) {
        var counts: [DerivedCount] = [], keyPaths: [DerivedKeyPath] = []
        for entity in graph.ordered where members.map({ $0.contains(entity.name) }) ?? true {
            for attribute in entity.attributes.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) })
            where !attribute.isTransient {
                guard let expression = attribute.derivationExpression else { continue }
                func refuse(_ reason: String) -> FileError {
                    FileError(path: graph.model.path, line: attribute.line > 0 ? attribute.line : nil,
                              message: "attribute '\(entity.name).\(attribute.name)' is derived (\"\(expression)\"): \(reason), so a store for this model could hold values Core Data would not keep up to date; CoreSeed reproduces only '<to-many relationship>.@count' and '<to-one relationship>.<attribute>' (DESIGN §4b.12, docs/LAYOUT.md): remove the derivation or change it to one of those forms")
                }
                let parts = expression.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !parts[0].contains(":") else {
                    throw refuse("the triggers Core Data generates for this form are not known")
                }
                let ownTable = CoreDataSchema.prefixed(graph.root(of: entity.name))
                let column = tables.first { $0.name == ownTable }?.columns.first {
                    if case .attribute(entity.name, attribute.name, _) = $0.role { return true }
                    return false
                }
                let hierarchy = graph.hierarchy(of: graph.root(of: entity.name))
                let sharing = graph.hierarchy(of: entity.name).compactMap { graph.numbers[$0.name] }
                let range = entity.parentName == nil ? nil : graph.numbers[entity.name].map { $0...max($0, sharing.max() ?? $0) }
                let filter = sharing.count == hierarchy.count ? [] : sharing
                let name = parts[0]
                if parts[1] != "@count" {
                    keyPaths.append(try keyPath(graph, entity, attribute, relationship: name, target: parts[1], tables: tables,
                                                ownTable: ownTable, column: column, range: range, filter: filter, refuse: refuse))
                    continue
                }
                guard [.integer16, .integer32, .integer64].contains(attribute.type) else {
                    throw refuse("a count needs an Integer attribute, and this one is \(attribute.type.rawValue)")
                }
                guard let (_, relationship) = graph.relationship(name, from: entity.name), relationship.isToMany,
                      !relationship.isTransient else {
                    throw refuse("'\(name)' is not a to-many relationship of '\(entity.name)'")
                }
                guard let inverse = graph.inverse(of: relationship, in: entity.name), !inverse.isToMany,
                      let (inverseOwner, _) = graph.relationship(inverse.name, from: relationship.destinationEntity) else {
                    throw refuse("'\(name)' has no to-one inverse, and the triggers of a count through a join table are not known")
                }
                let childTable = CoreDataSchema.prefixed(graph.root(of: relationship.destinationEntity))
                let key = tables.first { $0.name == childTable }?.columns.first {
                    if case .toOne(inverseOwner.name, inverse.name, _) = $0.role { return true }
                    return false
                }
                guard let column, let key else {
                    throw refuse("'\(relationship.destinationEntity)' is not in the store's configuration")
                }
                counts.append(DerivedCount(entity: entity.name, attribute: attribute.name, table: ownTable, column: column.name,
                                           childTable: childTable, childKey: key.name, entityRange: range, entityNumbers: filter))
            }
        }
        return (counts, keyPaths)
    }

    /// `<to-one>.<attribute>`: the to-one's key column and the destination attribute's column.
    private static func keyPath(_ graph: EntityGraph, _ entity: Entity, _ attribute: Attribute, relationship name: String, target: String,
                                tables: [Table], ownTable: String, column: Column?, range: ClosedRange<Int>?, filter: [Int],
                                refuse: (String) -> FileError) throws(FileError) -> DerivedKeyPath {
        guard let (owner, relationship) = graph.relationship(name, from: entity.name), !relationship.isTransient else {
            throw refuse("'\(name)' is not a relationship of '\(entity.name)'")
        }
        guard !relationship.isToMany else {
            throw refuse("'\(name)' is a to-many relationship: of a to-many CoreSeed reproduces only '@count' (the triggers of its aggregates are not known)")
        }
        var declaring: String? = relationship.destinationEntity, found: (String, Attribute)?
        while let this = declaring, found == nil, let destination = graph.entity(this) {
            found = destination.attribute(named: target).map { (this, $0) }
            declaring = destination.parentName
        }
        guard let (targetOwner, targetAttribute) = found, !targetAttribute.isTransient, targetAttribute.derivationExpression == nil else {
            throw refuse("'\(target)' is not a stored attribute of '\(relationship.destinationEntity)'")
        }
        guard targetAttribute.type == attribute.type else {
            throw refuse("'\(name).\(target)' is \(targetAttribute.type.rawValue) and the attribute is \(attribute.type.rawValue)")
        }
        let destinationTable = CoreDataSchema.prefixed(graph.root(of: relationship.destinationEntity))
        let key = tables.first { $0.name == ownTable }?.columns.first {
            if case .toOne(owner.name, relationship.name, _) = $0.role { return true }
            return false
        }
        let source = tables.first { $0.name == destinationTable }?.columns.first {
            if case .attribute(targetOwner, targetAttribute.name, _) = $0.role { return true }
            return false
        }
        guard let column, let key, let source else {
            throw refuse("'\(relationship.destinationEntity)' is not in the store's configuration")
        }
        return DerivedKeyPath(entity: entity.name, attribute: attribute.name, table: ownTable, column: column.name, key: key.name,
                              destinationTable: destinationTable, destinationColumn: source.name, entityRange: range, entityNumbers: filter)
    }
}
