/// The bits of an update change's `ZCOLUMNS` for one entity (docs/LAYOUT.md, "Persistent history"):
/// one per entry of its `NSSQLEntity`'s `foreignKeyColumns`, `foreignEntityKeyColumns`,
/// `foreignOrderKeyColumns`, `attributeColumns`, `toManyRelationships` and `manyToManyRelationships`, in
/// that order, most significant bit first (decompiled `+[_NSPersistentHistoryChange
/// _propertyDataForEntity:withSetOfPropertyNames:]`). The attribute columns' order is proven (inherited
/// first, root first, then each entity's own by name: `-[NSSQLEntity _generateProperties]`), and only the
/// key columns' count matters before them; the to-many arrays are in hash order, so CoreSeed marks
/// attribute changes only.
public struct HistoryColumns: Sendable, Equatable {
    /// Each stored attribute's column, in bit order.
    public let attributeColumns: [String]
    /// The bit of the first attribute column: how many key, entity-key and order-key columns precede.
    public let firstAttributeBit: Int
    /// The bitmap's length in bytes; nil when the evidence allows two lengths (whether a many-to-many
    /// also counts among the to-manys decides it).
    public let byteCount: Int?

    /// `ZCOLUMNS` for a change of `columns` (attribute columns of this entity); nil when the length is
    /// not known or a column is not one of ``attributeColumns``.
    public func bitmap(changing columns: Set<String>) -> [UInt8]? {
        guard let byteCount else { return nil }
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for column in columns {
            guard let index = attributeColumns.firstIndex(of: column) else { return nil }
            let bit = firstAttributeBit + index
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
        }
        return bytes
    }

    /// Per concrete entity of `tables`, its bits; an entity with a composite attribute has none (its
    /// elements' qualified names are not proven).
    static func of(_ graph: EntityGraph, tables: [StoreLayout.Table], hiddenKeys: [StoreLayout.HiddenToManyKey],
                   infos: [StoreLayout.EntityInfo]) -> [String: HistoryColumns] {
        var result: [String: HistoryColumns] = [:]
        for info in infos where info.isInConfiguration && !info.isAbstract {
            guard let table = tables.first(where: { $0.name == info.tableName }) else { continue }
            let lineage = graph.lineage(info.name).reversed().map(\.name)
            let owners = Set(lineage)
            func hiddenDestination(_ source: String, _ relationship: String) -> String? {
                hiddenKeys.first { $0.sourceEntity == source && $0.relationship == relationship }?.destinationEntity
            }
            var keys = 0
            var attributes: [(owner: Int, name: String, column: String)] = []
            var composite = false
            for column in table.columns {
                switch column.role {
                case .toOne(let owner, _, _), .toOneEntity(let owner, _), .toOneOrder(let owner, _):
                    if owners.contains(owner) { keys += 1 }
                case .toManyKey(let source, let relationship, _), .toManyKeyEntity(let source, let relationship),
                     .toManyKeyOrder(let source, let relationship):
                    if let destination = hiddenDestination(source, relationship), owners.contains(destination) { keys += 1 }
                case .attribute(let owner, let name, _):
                    if let depth = lineage.firstIndex(of: owner) { attributes.append((depth, name, column.name)) }
                case .compositeElement(let owner, _, _, _):
                    if owners.contains(owner) { composite = true }
                case .primaryKey, .entity, .optimisticLock:
                    break
                }
            }
            guard !composite else { continue }
            attributes.sort { $0.owner != $1.owner ? $0.owner < $1.owner : $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            var toMany = 0, manyToMany = 0
            for owner in lineage {
                for relationship in graph.entity(owner)?.relationships ?? [] where relationship.isToMany && !relationship.isTransient {
                    toMany += 1
                    if let inverse = relationship.inverseName,
                       graph.relationship(inverse, from: relationship.destinationEntity)?.relationship.isToMany == true {
                        manyToMany += 1
                    }
                }
            }
            let fixed = keys + attributes.count
            let withBoth = (fixed + toMany + manyToMany + 7) / 8, apart = (fixed + toMany + 7) / 8
            result[info.name] = HistoryColumns(attributeColumns: attributes.map(\.column), firstAttributeBit: keys,
                                               byteCount: withBoth == apart ? withBoth : nil)
        }
        return result
    }
}
