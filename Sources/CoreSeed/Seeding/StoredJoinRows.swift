/// The rows an upsert finds in a join table with `Z_FOK_` order columns (an ordered many-to-many):
/// the pairs already linked, which stay as they are (a link the source gives again changes nothing),
/// and per order column and owner the highest stored position, after which the owner's new members
/// are numbered — as Core Data appends a new member to the end of an ordered set.
struct StoredJoinRows: Sendable {
    struct Pair: Hashable, Sendable {
        let first: Int64
        let second: Int64
    }

    var pairs = Set<Pair>()
    /// Per order column name, per owner `Z_PK`: the highest stored position.
    var highest: [String: [Int64: Int64]] = [:]

    /// The owner of a position in `order`: the row on the side whose list the column orders.
    static func owner(_ order: StoreLayout.JoinTable.OrderColumn, in join: StoreLayout.JoinTable, first: Int64, second: Int64) -> Int64 {
        order.orderedColumn == join.secondColumn ? first : second
    }

    /// Every ordered join table of the layout, read from `database`.
    static func load(_ database: SQLiteDatabase, layout: StoreLayout) throws -> [String: StoredJoinRows] {
        var result: [String: StoredJoinRows] = [:]
        for join in layout.joinTables where !join.orderColumns.isEmpty {
            var stored = StoredJoinRows()
            for row in try database.rows(CoreDataSQL.storedJoinRows(join)) {
                guard case .integer(let first) = row[0], case .integer(let second) = row[1] else { continue }
                stored.pairs.insert(Pair(first: first, second: second))
                for (offset, order) in join.orderColumns.enumerated() {
                    guard case .integer(let position) = row[2 + offset] else { continue }
                    let owner = owner(order, in: join, first: first, second: second)
                    stored.highest[order.name, default: [:]][owner] = max(stored.highest[order.name]?[owner] ?? 0, position)
                }
            }
            result[join.name] = stored
        }
        return result
    }
}
