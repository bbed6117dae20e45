/// A Core Data framework version (`NSPersistenceFrameworkVersion`), which decides the era of the SQL it writes.
public struct FrameworkVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int

    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// The newest version seen in a real store (iOS 17 / macOS 14 era); the default for new stores.
    public static let newest = FrameworkVersion(1344)

    /// `Z_MODELCACHE` exists from 637 on (observed: absent at 320 and 481, present at 637).
    public var hasModelCache: Bool { rawValue >= 637 }
    /// Uniqueness constraints exist from 637 on (iOS 9); older eras have none.
    public var hasUniquenessConstraints: Bool { rawValue >= 637 }
    /// Uniqueness constraints became `CREATE UNIQUE INDEX Z_<Entity>_UNIQUE_…` (observed at 1044; inline `CONSTRAINT` at 637).
    /// Where between the two the switch happened is inferred: see docs/LAYOUT.md.
    public var uniquenessAsIndex: Bool { rawValue >= FrameworkVersion.uniqueIndexEra }
    static let uniqueIndexEra = 1044

    public static func < (lhs: FrameworkVersion, rhs: FrameworkVersion) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}
