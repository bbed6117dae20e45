/// A derived attribute `<to-one>.<attribute>` (e.g. `parent.name`), which Core Data keeps with four
/// `Z_DA_` triggers: two on the deriving table (a row inserted, or its to-one re-pointed, reads the
/// value again) and two on the destination's table (a destination row inserted or its attribute
/// changed writes the value into the rows pointing at it).
///
/// The SQL text is the form of the decompiled generator (`+[NSSQLDerivedAttributeSQLGenerator
/// _generateSQLForToOneDerivationForDerivedAttribute:toOneKeypath:]`, expression type 3, a plain key
/// path): its format strings with the names filled in, as SQLite stores them (`CREATE TRIGGER IF NOT
/// EXISTS` is kept as `CREATE TRIGGER`). The function forms of the same generator (`lowercase:`,
/// `uppercase:`, `canonical:` call `NSCoreDataToLower` and others, whose results CoreSeed cannot
/// reproduce exactly) are refused.
public struct DerivedKeyPath: Sendable, Equatable {
    /// The entity that declares the attribute, and the attribute.
    public let entity: String
    public let attribute: String
    /// The table holding the derived value, and its column.
    public let table: String
    public let column: String
    /// The to-one's key column in `table`.
    public let key: String
    /// The destination's table and the column of the attribute the key path reads.
    public let destinationTable: String
    public let destinationColumn: String
    /// The deriving entity's number and the highest number of its sub-entities, when it is itself a
    /// sub-entity (Core Data's `_entityID`, `_subentityMaxID`); nil for a root.
    let entityRange: ClosedRange<Int>?
    /// The entity numbers that have the attribute, when the table also holds rows of other entities.
    let entityNumbers: [Int]

    /// The four `CREATE TRIGGER` statements, in Core Data's order (built by `CoreDataSQL.triggers(of:)`).
    public var triggers: [String] { CoreDataSQL.triggers(of: self) }

    /// Sets every value from the rows in the store: what the triggers would have left had the rows been
    /// inserted one by one. The destination is read through an alias, so the value stays right when it
    /// shares the table (a self-referential `parent.name`): Core Data's own data statement for a new
    /// derived attribute (`… WHERE Z_PK = <table>.<key>`) would bind the key to the inner table there.
    public var fillSQL: String { CoreDataSQL.fill(self) }
}
