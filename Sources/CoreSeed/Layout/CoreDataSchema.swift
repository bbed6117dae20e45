/// Names and fixed statements of Core Data's SQLite schema. The only place Core Data vocabulary is spelled.
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

    static let createPrimaryKeyTable = "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    static let createMetadataTable = "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    static let createModelCacheTable = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// `Z` + the upper-cased name: how entity tables and property columns are named.
    static func prefixed(_ name: String) -> String { "Z" + uppercased(name) }

    /// ASCII upper-casing (names are validated to ASCII letters, digits and underscore).
    static func uppercased(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
}
