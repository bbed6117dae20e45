/// A Core Data framework version (`NSPersistenceFrameworkVersion`), which decides the era of the SQL
/// and metadata it writes. Every era is one row of `FrameworkVersion.eras`.
public struct FrameworkVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int

    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// The newest version with public evidence of the store it writes (iOS 26.0: a fresh store's
    /// metadata, docs/LAYOUT.md); the default for new stores.
    public static let newest = FrameworkVersion(1518)

    /// One change in what Core Data writes, and the first framework version that writes it.
    public struct Era: Sendable, Equatable {
        /// A short name for the change.
        public let name: String
        /// The first framework version with the change.
        public let firstVersion: Int
        /// What changes from this version on, and the evidence (see docs/LAYOUT.md).
        public let change: String
    }

    /// The eras of Core Data's SQLite layout, oldest first. The same table is in docs/LAYOUT.md.
    public static let eras: [Era] = [
        Era(name: "modelCache", firstVersion: 637,
            change: "Z_MODELCACHE table (observed: absent at 320/481, present at 637); uniqueness constraints as inline CONSTRAINT … UNIQUE; many-to-many join tables indexed, CREATE INDEX Z_<t>_<col2>_INDEX (observed: none at 419 to 519, present at 637)"),
        Era(name: "fetchIndexes", firstVersion: 836,
            change: "indexed and compound indexes as CREATE INDEX Z_<Entity>_<attr> … COLLATE BINARY ASC; uniqueness constraints as CREATE UNIQUE INDEX Z_<Entity>_UNIQUE_… (observed: legacy forms at 754, new at 836 and 847, unique indexes at 866; the switches lie in (754, 836] and (637, 866])"),
        Era(name: "hashesDigest", firstVersion: 977,
            change: "NSStoreModelVersionHashesDigest in the metadata (observed: absent at 866, present at 977)"),
        Era(name: "checksum", firstVersion: 1327,
            change: "NSStoreModelVersionChecksumKey in the metadata (observed: absent at 1251, present at 1327)"),
        Era(name: "maximumFrameworkVersion", firstVersion: 1500,
            change: "NSPersistenceMaximumFrameworkVersion in the metadata, equal to NSPersistenceFrameworkVersion in a fresh store (observed in public store dumps: absent at 1447, present at 1518; the switch lies in (1447, 1518])"),
    ]

    /// Whether this version writes what era `name` introduced.
    func has(_ name: String) -> Bool {
        guard let era = FrameworkVersion.eras.first(where: { $0.name == name }) else {
            preconditionFailure("no framework era named \(name)")
        }
        return rawValue >= era.firstVersion
    }

    /// Many-to-many join tables get an index on their second column.
    public var indexesJoinTables: Bool { has("modelCache") }
    /// `Z_MODELCACHE` exists, and so do uniqueness constraints (inline until `usesFetchIndexForms`).
    public var hasModelCache: Bool { has("modelCache") }
    /// Uniqueness constraints exist from 637 on (iOS 9); older eras have none.
    public var hasUniquenessConstraints: Bool { has("modelCache") }
    /// Indexes in fetch-index form (`Z_<Entity>_…`) and uniqueness constraints as unique indexes.
    public var usesFetchIndexForms: Bool { has("fetchIndexes") }
    /// The metadata carries `NSStoreModelVersionHashesDigest`.
    public var hasHashesDigest: Bool { has("hashesDigest") }
    /// The metadata carries `NSStoreModelVersionChecksumKey`.
    public var hasChecksum: Bool { has("checksum") }
    /// The metadata carries `NSPersistenceMaximumFrameworkVersion`.
    public var hasMaximumFrameworkVersion: Bool { has("maximumFrameworkVersion") }

    public static func < (lhs: FrameworkVersion, rhs: FrameworkVersion) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}
