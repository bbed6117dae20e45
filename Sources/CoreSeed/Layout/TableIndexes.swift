/// The indexes and uniqueness constraints of one entity table, in the SQL form of a framework era
/// (`FrameworkVersion.eras`, docs/LAYOUT.md "Indexes and constraints").
///
/// A model declares indexes three ways: `indexed="YES"` attributes, `compoundIndexes`, and `fetchIndex`
/// elements. Below framework 836 Core Data writes the first two in legacy forms (`<T>_<COL>_INDEX`,
/// `<T>_<C1>_<C2>`) and a fetch index that Xcode wrote into an old model version in those same forms;
/// from 836 it turns all three into fetch indexes (`Z_<Entity>_<name> … COLLATE BINARY ASC`), and a
/// fetch index with one element also indexes its property on its own (§4b.5, §4b.6).
struct TableIndexes {
    let graph: EntityGraph
    let hierarchy: [Entity]
    let tableName: String
    let framework: FrameworkVersion
    /// Property (`entity.name`) → column name.
    let columnOf: [String: String]

    /// The statements, in the order Core Data creates them.
    private(set) var statements: [StoreLayout.Index] = []
    /// Inline `CONSTRAINT … UNIQUE` column lists (framework 637 to 846).
    private(set) var inlineUniqueConstraints: [[String]] = []

    private var names = Set<String>()

    init(graph: EntityGraph, hierarchy: [Entity], tableName: String, framework: FrameworkVersion,
         columnOf: [String: String]) {
        self.graph = graph
        self.hierarchy = hierarchy
        self.tableName = tableName
        self.framework = framework
        self.columnOf = columnOf
    }

    /// One element of an index: a column and its direction.
    private struct Element {
        let property: String
        let column: String
        let ascending: Bool
    }

    mutating func derive(columns: [StoreLayout.Column]) throws(FileError) {
        let modern = framework.usesFetchIndexForms
        var legacyIndexed: [StoreLayout.Index] = []
        var toOne: [StoreLayout.Index] = []
        var compound: [StoreLayout.Index] = []
        var unique: [StoreLayout.Index] = []
        var fetch: [StoreLayout.Index] = []
        for column in columns {
            switch column.role {
            case .attribute(let entity, let attribute, _):
                if !modern, graph.entity(entity)?.attribute(named: attribute)?.isIndexed == true {
                    legacyIndexed.append(legacy([Element(property: attribute, column: column.name, ascending: true)], single: true))
                }
            case .toOne, .toManyKey:
                toOne.append(index("\(tableName)_\(column.name)_INDEX", column.name))
            default: break
            }
        }
        for entity in hierarchy {
            if modern {
                for attribute in entity.attributes where attribute.isIndexed && !attribute.isTransient {
                    fetch.append(try modernIndex(entity, name: attribute.name, [element(attribute.name, of: entity)]))
                }
            }
            for properties in entity.compoundIndexes where !properties.isEmpty {
                var elements: [Element] = []
                for property in properties { elements.append(try element(property, of: entity)) }
                if modern {
                    fetch.append(try modernIndex(entity, name: properties.joined(separator: "_"), elements))
                } else {
                    compound.append(legacy(elements, single: false))
                }
            }
            if framework.hasUniquenessConstraints {
                for properties in entity.uniquenessConstraints where !properties.isEmpty {
                    var elements: [Element] = []
                    for property in properties { elements.append(try element(property, of: entity)) }
                    if modern {
                        unique.append(index(CoreDataSchema.uniqueIndex(entity.name, properties),
                                            elements.map { "\($0.column) COLLATE BINARY ASC" }.joined(separator: ", "),
                                            unique: true))
                    } else {
                        inlineUniqueConstraints.append(elements.map(\.column))
                    }
                }
            }
            // One element: the property is indexed as well, before the model's fetch indexes
            // (ddg-bookmarks-v2: `Z_BookmarkEntity_uuid`, `_url`, then `_byUUID`, `_byURL`).
            var ownIndexes: [StoreLayout.Index] = []
            for fetchIndex in entity.fetchIndexes {
                let elements = try fetchElements(fetchIndex, of: entity)
                guard !elements.isEmpty else { continue }
                // A one-element fetch index on a to-one key adds nothing to the key's own index (inferred).
                if elements.count == 1,
                   graph.relationship(elements[0].property, from: entity.name).map({ !$0.relationship.isToMany }) == true {
                    continue
                }
                if modern {
                    if elements.count == 1 { fetch.append(try modernIndex(entity, name: elements[0].property, elements)) }
                    ownIndexes.append(try modernIndex(entity, name: fetchIndex.name, elements))
                } else {
                    guard elements.allSatisfy(\.ascending) else {
                        throw graph.modelError("fetch index '\(entity.name).\(fetchIndex.name)' is descending, which framework \(framework) cannot store (descending indexes need framework \(FrameworkVersion.eras[1].firstVersion) or later): make it ascending, or write for a newer framework", line: entity.line)
                    }
                    if elements.count == 1 {
                        legacyIndexed.append(legacy(elements, single: true))
                    } else {
                        compound.append(legacy(elements, single: false))
                    }
                }
            }
            fetch += ownIndexes
        }
        var entityIndex: [StoreLayout.Index] = []
        if hierarchy.count > 1 {
            entityIndex.append(index(CoreDataSchema.entityIndex(tableName), CoreDataSchema.entityColumn))
        }
        for candidate in legacyIndexed + toOne + entityIndex + compound + unique + fetch
        where names.insert(candidate.name).inserted {
            statements.append(candidate)
        }
    }

    private func index(_ name: String, _ columns: String, unique: Bool = false) -> StoreLayout.Index {
        .init(name: name, table: tableName,
              sql: CoreDataSQL.createIndex(name, on: tableName, columns, unique: unique))
    }

    /// `<T>_<COL>_INDEX` for one property, `<T>_<C1>_<C2>` for several (framework below 836).
    private func legacy(_ elements: [Element], single: Bool) -> StoreLayout.Index {
        let columns = elements.map(\.column)
        let name = single ? "\(tableName)_\(columns[0])_INDEX" : ([tableName] + columns).joined(separator: "_")
        return index(name, columns.joined(separator: ", "))
    }

    /// `Z_<Entity>_<name> ON <T> (<COL> COLLATE BINARY ASC|DESC, …)` (framework 836 and later).
    private func modernIndex(_ entity: Entity, name: String, _ elements: [Element]) throws(FileError) -> StoreLayout.Index {
        guard ModelValidator.isValidName(name) else {
            throw graph.modelError("index '\(name)' of '\(entity.name)' must be letters, digits and underscores: rename it in the model", line: entity.line)
        }
        return index(CoreDataSchema.modernIndex(entity.name, name),
                     elements.map { "\($0.column) COLLATE BINARY \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", "))
    }

    private func fetchElements(_ fetchIndex: Entity.FetchIndex, of entity: Entity) throws(FileError) -> [Element] {
        guard ModelValidator.isValidName(fetchIndex.name) else {
            throw graph.modelError("fetch index '\(fetchIndex.name)' of '\(entity.name)' must be letters, digits and underscores: rename it in the model", line: entity.line)
        }
        var elements: [Element] = []
        for element in fetchIndex.elements {
            guard let property = element.property, element.expression == nil else {
                throw graph.modelError("fetch index '\(entity.name).\(fetchIndex.name)' has an expression element; expression indexes are not supported: index properties only", line: entity.line)
            }
            guard element.type == "Binary" else {
                throw graph.modelError("fetch index '\(entity.name).\(fetchIndex.name)' is of type \(element.type); only Binary fetch indexes are supported: make it Binary in the model", line: entity.line)
            }
            let resolved = try self.element(property, of: entity)
            elements.append(Element(property: property, column: resolved.column, ascending: element.isAscending))
        }
        return elements
    }

    /// Resolves a property name as seen from `entity` (own or inherited) to its column.
    private func element(_ property: String, of entity: Entity) throws(FileError) -> Element {
        var current: Entity? = entity
        while let e = current {
            if let name = columnOf["\(e.name).\(property)"] { return Element(property: property, column: name, ascending: true) }
            current = e.parentName.flatMap { graph.entity($0) }
        }
        throw graph.modelError("'\(entity.name)' names '\(property)' in an index or constraint, but it has no such stored property: name a stored attribute or relationship of '\(entity.name)' (or of an entity it inherits from), or remove it", line: entity.line)
    }
}
