/// What the first pass learns about one seeded entity, and what resolution adds.
struct EntityState {
    /// Records read, over all the entity's sources.
    var count = 0
    /// The `Z_PK`s, matched stored rows and to-one columns the row pass writes.
    var numbers = EntityNumbers()
    /// With `primaryKey`: the `Z_PK` each record's field gives (0 for a rejected one).
    var chosenPrimaryKeys: [Int64] = []
    /// Whether each record becomes a row (before primary keys are assigned).
    var kept: [Bool] = []
    var rejected = 0
    /// Insert mode: records whose key is already in the store (left as they are).
    var skippedExisting = 0
    /// Sync: the `Z_PK`s of the stored rows whose key some record has (kept, rejected or a duplicate):
    /// the rows the sync keeps.
    var storedSeen = Set<Int64>()
    /// Sync: records left out whose key cannot be read as the store holds it (which stored row they
    /// stand for is unknown, so nothing of the entity may be deleted).
    var unreadableLeftOut: SourceLocation?
    /// Natural key → record ordinal.
    var keyIndex = KeyIndex()
    /// Per field link: the destination keys each record names.
    var linkKeys: [LinkKeys] = []
}

/// Destination keys per record, flattened: record `i`'s keys are `keys[starts[i]..<starts[i+1]]`.
struct LinkKeys {
    private(set) var keys: [LinkKey] = []
    private(set) var starts: [Int32] = [0]

    mutating func append(_ recordKeys: [String]) {
        keys += recordKeys.map(LinkKey.init)
        starts.append(Int32(keys.count))
    }

    mutating func append(single key: String?) {
        if let key { keys.append(LinkKey(key)) }
        starts.append(Int32(keys.count))
    }

    mutating func append(integer key: Int64) {
        keys.append(LinkKey(integer: key))
        starts.append(Int32(keys.count))
    }

    func keys(of ordinal: Int) -> ArraySlice<LinkKey> {
        keys[Int(starts[ordinal])..<Int(starts[ordinal + 1])]
    }
}

/// One row of a join table.
struct JoinRow: Hashable {
    let first: Int64
    let second: Int64
    var orders: [Int64]

    static func == (lhs: JoinRow, rhs: JoinRow) -> Bool { lhs.first == rhs.first && lhs.second == rhs.second }
    func hash(into hasher: inout Hasher) {
        hasher.combine(first)
        hasher.combine(second)
    }
}
