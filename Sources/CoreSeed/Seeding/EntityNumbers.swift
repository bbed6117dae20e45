/// What the key pass decides for each record of one entity and the row pass writes: the record's
/// `Z_PK`, the stored row it matches, and its to-one columns.
///
/// One value from the key pass to the row mapping: the key pass fills it (``EntityState/numbers``),
/// the row producer hands it to ``RowMapping/map(_:ordinal:primaryKey:numbers:update:into:rejections:)``
/// as it is, with no array copied out on the way.
struct EntityNumbers: Sendable {
    /// `Z_PK` per record ordinal (0: no row); empty when rows are numbered as read.
    var primaryKeys: [Int64] = []
    /// In an upsert: the `Z_PK` of the stored row each record matches, 0 for a new one.
    var matched: [Int64] = []
    /// Per to-one slot and record ordinal: destination `Z_PK` (0 = NULL), destination entity number,
    /// order key.
    var toOneKeys: [[Int64]] = []
    var toOneEntities: [[Int32]] = []
    var toOneOrders: [[Int64]] = []
    /// Unresolved relationship keys per record ordinal (which link, which of the record's keys),
    /// reported when the record is read again, with its location and the key's text.
    var unresolved: [Int32: [(link: Int, position: Int)]] = [:]
    /// Rows numbered as read (no key pass): where each to-one slot's value comes from; nil after a key pass.
    var slots: [BuildPlan.SlotSource]?

    /// Whether record `ordinal` matches a row already in the store (an upsert updates it).
    @inline(__always)
    func isMatched(_ ordinal: Int) -> Bool { !matched.isEmpty && matched[ordinal] != 0 }
}
