/// Names and fixed statements of Core Data's SQLite schema. The only place Core Data vocabulary is spelled;
/// every statement that uses it is built beside it, in `Layout/SQL/` (`CoreDataSQL`).
public enum CoreDataSchema {
    /// The primary key column of every entity table.
    public static let primaryKey = "Z_PK"
    /// The column holding each row's concrete entity number.
    public static let entityColumn = "Z_ENT"
    /// The optimistic-locking counter: 1 after the first save, +1 per update.
    public static let optimisticLockColumn = "Z_OPT"
    /// The table of entity numbers and their highest issued primary key.
    public static let primaryKeyTable = "Z_PRIMARYKEY"
    /// The one-row table holding the store's UUID and metadata plist.
    public static let metadataTable = "Z_METADATA"
    /// The compiled-model cache (framework 637 and later).
    public static let modelCacheTable = "Z_MODELCACHE"

    /// `Z_PRIMARYKEY`'s columns: the entity's number (`Z_ENT`), name, super-entity's number, highest key.
    static let primaryKeyTableColumns = (entity: "Z_ENT", name: "Z_NAME", superEntity: "Z_SUPER", max: "Z_MAX")
    /// `Z_METADATA`'s columns: the row's version, the store's UUID, the metadata property list.
    static let metadataTableColumns = (version: "Z_VERSION", uuid: "Z_UUID", plist: "Z_PLIST")
    /// `Z_MODELCACHE`'s one column: the raw-deflated model archive.
    static let modelCacheContentColumn = "Z_CONTENT"

    static let createPrimaryKeyTable = "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    static let createMetadataTable = "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    static let createModelCacheTable = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// What the name of every table and column of Core Data's begins with.
    static let tablePrefix = "Z"

    /// `Z` + the upper-cased name: how entity tables and property columns are named.
    static func prefixed(_ name: String) -> String { tablePrefix + uppercased(name) }

    /// ASCII upper-casing (names are validated to ASCII letters, digits and underscore).
    static func uppercased(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    // Names Core Data derives, as the layout builds them (DESIGN §4b).

    /// `Z_<n><NAME>`: a many-to-many join table, or one of its key columns (`n`: an entity's number).
    static func numbered(_ number: Int, _ name: String) -> String { "Z_\(number)" + uppercased(name) }
    /// `Z<n>_<NAME>`: the column holding the entity number of a to-one's destination (`NSSQLForeignEntityKey`).
    static func entityKeyColumn(_ number: Int, _ name: String) -> String { "Z\(number)_" + uppercased(name) }
    /// `Z_FOK_<NAME>`: an ordered relationship's order column (`NSSQLForeignOrderKey`).
    static func orderColumn(_ name: String) -> String { orderPrefix + uppercased(name) }
    /// `Z_FOK_<rest>` for a join table's key column `Z_<rest>`.
    static func joinOrderColumn(_ keyColumn: String) -> String { orderPrefix + keyColumn.dropFirst(2) }
    /// The hidden key of an order column on an entity (`_Z_FOK_<NAME>`).
    static func hiddenOrderKey(_ name: String) -> String { "_" + orderColumn(name) }
    /// `<TABLE>_Z_ENT_INDEX`: the index on `Z_ENT` of a table shared by a hierarchy.
    static func entityIndex(_ table: String) -> String { "\(table)_\(entityColumn)_INDEX" }
    /// `Z_<Entity>_<name>`: a modern index (framework 836 and later), `name` a property or fetch index.
    static func modernIndex(_ entity: String, _ name: String) -> String { "Z_\(entity)_\(name)" }
    /// `Z_<Entity>_UNIQUE_<p1>_<p2>…`: a uniqueness constraint's index (framework 866 and later).
    static func uniqueIndex(_ entity: String, _ properties: [String]) -> String {
        "Z_\(entity)_UNIQUE_" + properties.joined(separator: "_")
    }

    /// `Z_DA_<table>_<Entity>_<attribute>`: the beginning of a derived count's trigger names.
    static func derivedCountTrigger(_ table: String, _ entity: String, _ attribute: String) -> String {
        "Z_DA_\(table)_\(entity)_\(attribute)"
    }

    private static let orderPrefix = "Z_FOK_"

    /// Persistent history (`NSPersistentHistoryTrackingKey`): the three tables of Core Data's ancillary
    /// history model, named `A` + the entity name (docs/LAYOUT.md, "Persistent history"), as the tracked
    /// corpus store `coredataplus-samplemodel2-v1` (framework 1344) has them. Each is an entity table:
    /// `Z_PK`, `Z_ENT`, `Z_OPT`, then its columns in this order.
    enum History {
        /// One row per changed object: `ZCHANGETYPE` (``ChangeType``), the object's entity number and
        /// `Z_PK`, its transaction's `Z_PK`, and for an update the bitmap of changed properties.
        static let change = Table(entity: "CHANGE", number: 16001, columns: [
            ("ZCHANGETYPE", "INTEGER"), ("ZENTITY", "INTEGER"), ("ZENTITYPK", "INTEGER"),
            ("ZTRANSACTIONID", "INTEGER"), ("ZCOLUMNS", "BLOB"),
        ])
        /// One row per save: the `…TS` columns refer to `ATRANSACTIONSTRING` rows; the text columns
        /// beside them stay NULL in the corpus store (strings are stored once, by reference).
        static let transaction = Table(entity: "TRANSACTION", number: 16002, columns: [
            ("ZAUTHORTS", "INTEGER"), ("ZBUNDLEIDTS", "INTEGER"), ("ZCONTEXTNAMETS", "INTEGER"),
            ("ZPROCESSIDTS", "INTEGER"), ("ZTIMESTAMP", "FLOAT"), ("ZAUTHOR", "VARCHAR"), ("ZBUNDLEID", "VARCHAR"),
            ("ZCONTEXTNAME", "VARCHAR"), ("ZPROCESSID", "VARCHAR"), ("ZQUERYGEN", "BLOB"),
        ])
        /// The strings transactions refer to, each once (a unique index on `ZNAME`).
        static let string = Table(entity: "TRANSACTIONSTRING", number: 16003, columns: [("ZNAME", "VARCHAR")])
        /// In `Z_PRIMARYKEY` order.
        static let tables = [change, transaction, string]

        /// `ZTOMBSTONE<i>`: the `i`-th value a delete change keeps (``HistoryTombstones``).
        static func tombstoneColumn(_ index: Int) -> String { "ZTOMBSTONE\(index)" }

        /// ``change`` with `count` tombstone columns, BLOB (binary attributes of the history model), placed as
        /// every entity table places its binary attributes: after `ZCOLUMNS`, by name (inferred: the corpus
        /// store keeps none).
        static func change(tombstones count: Int) -> Table {
            let names = (0..<count).map(tombstoneColumn).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return Table(entity: change.entity, number: change.number, columns: change.columns + names.map { ($0, "BLOB") })
        }

        /// The three tables, `ACHANGE` with `tombstones` tombstone columns.
        static func tables(tombstones: Int) -> [Table] { [change(tombstones: tombstones), transaction, string] }

        /// The indexes, in the corpus store's `sqlite_master` order: `(name, table, column, modern)`;
        /// a modern index (`Z_<Entity>_<name>`) gives its column `COLLATE BINARY ASC`.
        static let indexes: [(name: String, table: String, column: String, modern: Bool, unique: Bool)] = [
            ("ACHANGE_ZTRANSACTIONID_INDEX", "ACHANGE", "ZTRANSACTIONID", false, false),
            ("ATRANSACTION_ZAUTHORTS_INDEX", "ATRANSACTION", "ZAUTHORTS", false, false),
            ("ATRANSACTION_ZBUNDLEIDTS_INDEX", "ATRANSACTION", "ZBUNDLEIDTS", false, false),
            ("ATRANSACTION_ZCONTEXTNAMETS_INDEX", "ATRANSACTION", "ZCONTEXTNAMETS", false, false),
            ("ATRANSACTION_ZPROCESSIDTS_INDEX", "ATRANSACTION", "ZPROCESSIDTS", false, false),
            ("Z_TRANSACTION_TransactionAuthorIndex", "ATRANSACTION", "ZAUTHOR", true, false),
            ("Z_TRANSACTION_TransactionTimestampIndex", "ATRANSACTION", "ZTIMESTAMP", true, false),
            ("Z_TRANSACTIONSTRING_UNIQUE_NAME", "ATRANSACTIONSTRING", "ZNAME", true, true),
        ]

        /// A history entity's table: `A` + its name (an ancillary model's prefix).
        struct Table: Sendable {
            let entity: String
            let number: Int
            let columns: [(name: String, type: String)]
            var name: String { "A" + entity }
        }
    }
}
