/// The positions (`Z_FOK_` order keys) of an ordered to-many's members already in the store an
/// upsert updates, per member row: `build --into` numbers a new member of an owner that has stored
/// members after them, and a stored member that keeps its owner keeps its position.
struct StoredOrders: Sendable {
    struct Member: Sendable {
        let owner: Int64
        let order: Int64
    }

    /// Per member `Z_PK`: its owner's `Z_PK` and its stored position.
    var members: [Int64: Member] = [:]
    /// Per owner `Z_PK`: the highest stored position of its members (every row of the member table).
    var highest: [Int64: Int64] = [:]

    /// Per seeded entity index, per to-one slot with an order column: the stored positions.
    static func load(_ database: SQLiteDatabase, plan: BuildPlan) throws -> [Int: [Int: StoredOrders]] {
        var result: [Int: [Int: StoredOrders]] = [:]
        for (index, entity) in plan.seedPlan.entities.enumerated() {
            guard let fills = entity.sources.first?.fills else { continue }
            for (offset, fill) in fills.enumerated() {
                guard case .toOneOrder(let slot) = fill,
                      let keyOffset = fills.firstIndex(where: { if case .toOne(slot) = $0 { true } else { false } }) else { continue }
                let sql = CoreDataSQL.storedOrders(table: entity.table.name, key: entity.table.columns[keyOffset].name,
                                                   order: entity.table.columns[offset].name)
                var stored = StoredOrders()
                for row in try database.rows(sql) {
                    guard case .integer(let member) = row[0], case .integer(let owner) = row[1] else { continue }
                    let position: Int64 = if case .integer(let value) = row[2] { value } else { 0 }
                    stored.members[member] = Member(owner: owner, order: position)
                    stored.highest[owner] = max(stored.highest[owner] ?? 0, position)
                }
                result[index, default: [:]][slot] = stored
            }
        }
        return result
    }
}

extension KeyPass {
    /// The position of member `member` (seeded entity `entity`, to-one `slot`) in the ordered to-many
    /// `scope` of the row `owner`: its stored one when the store has it under that owner, else the next
    /// after every member the owner has so far — stored ones included, so that an upsert never gives
    /// two members of one owner the same position.
    mutating func memberOrder(_ scope: String, owner: Int64, entity: Int, slot: Int, member: Int64) -> Int64 {
        guard let stored = existing?.orders[entity]?[slot] else { return nextOrder(scope, owner) }
        if let kept = stored.members[member], kept.owner == owner, kept.order > 0 { return kept.order }
        if orderCounters[scope]?[owner] == nil, let highest = stored.highest[owner] {
            orderCounters[scope, default: [:]][owner] = highest
        }
        return nextOrder(scope, owner)
    }

    /// The position of the member at `position` of an owner's list (the to-many side given): that
    /// position, 1-based, unless the store holds members of `owner` already; then as `memberOrder`
    /// (a stored member keeps its place, a new one goes after the stored ones).
    mutating func listedOrder(_ position: Int, owner: Int64, entity: Int, slot: Int, member: Int64) -> Int64 {
        guard existing?.orders[entity]?[slot]?.highest[owner] != nil else { return Int64(position + 1) }
        return memberOrder("list.\(entity).\(slot)", owner: owner, entity: entity, slot: slot, member: member)
    }
}
