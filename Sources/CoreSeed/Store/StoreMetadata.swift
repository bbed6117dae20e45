import Foundation

/// The metadata property list Core Data keeps in `Z_METADATA.Z_PLIST` (DESIGN §4 "Z_METADATA").
///
/// Keys we know get typed properties; any other key (an app's own, e.g. `io.objc.Moody.CloudKitUserID`)
/// is kept as-is in `other` and written back unchanged.
public struct StoreMetadata: Sendable, Equatable {
    /// Property-list keys, as Core Data spells them.
    public enum Key {
        public static let frameworkVersion = "NSPersistenceFrameworkVersion"
        /// The newest framework that has written the store (framework 1500 and later).
        public static let maximumFrameworkVersion = "NSPersistenceMaximumFrameworkVersion"
        public static let versionHashes = "NSStoreModelVersionHashes"
        public static let versionHashesVersion = "NSStoreModelVersionHashesVersion"
        public static let versionIdentifiers = "NSStoreModelVersionIdentifiers"
        public static let storeType = "NSStoreType"
        public static let storeUUID = "NSStoreUUID"
        public static let autoVacuumLevel = "_NSAutoVacuumLevel"
        public static let hashesDigest = "NSStoreModelVersionHashesDigest"
        public static let checksum = "NSStoreModelVersionChecksumKey"
    }

    /// `NSPersistenceFrameworkVersion`: the Core Data build that wrote the store (e.g. 1518).
    public var frameworkVersion: Int
    /// `NSStoreModelVersionHashes`: entity name → 32-byte version hash.
    public var versionHashes: [String: [UInt8]]
    /// `NSStoreModelVersionHashesVersion`; Core Data skips the hash comparison without it. Write 3.
    public var versionHashesVersion: Int?
    /// `NSStoreModelVersionIdentifiers`: `[""]` when the model leaves its identifier empty.
    public var versionIdentifiers: [String]
    /// `NSStoreType`: "SQLite".
    public var storeType: String
    /// `NSStoreUUID`. No corpus store has it in `Z_PLIST` (Core Data takes the UUID from `Z_UUID`),
    /// so it is written only when set.
    public var storeUUID: String?
    /// `_NSAutoVacuumLevel`: a *string*, "2" in every corpus store.
    public var autoVacuumLevel: String?
    /// `NSStoreModelVersionHashesDigest` (framework ≥ 1048).
    public var hashesDigest: String?
    /// `NSStoreModelVersionChecksumKey` (framework ≥ 1327).
    public var checksum: String?
    /// Every other key, unchanged.
    public var other: [String: PropertyListValue]

    public init(frameworkVersion: Int, versionHashes: [String: [UInt8]], versionHashesVersion: Int? = 3,
                versionIdentifiers: [String] = [""], storeType: String = "SQLite", storeUUID: String? = nil,
                autoVacuumLevel: String? = "2", hashesDigest: String? = nil, checksum: String? = nil,
                other: [String: PropertyListValue] = [:]) {
        self.frameworkVersion = frameworkVersion
        self.versionHashes = versionHashes
        self.versionHashesVersion = versionHashesVersion
        self.versionIdentifiers = versionIdentifiers
        self.storeType = storeType
        self.storeUUID = storeUUID
        self.autoVacuumLevel = autoVacuumLevel
        self.hashesDigest = hashesDigest
        self.checksum = checksum
        self.other = other
    }

    /// Metadata for a store of `model`: its hashes, digest and checksum, its version identifier.
    public init(model: Model, frameworkVersion: Int, storeUUID: String? = nil, other: [String: PropertyListValue] = [:]) {
        let hashes = ModelHashes.compute(for: model)
        self.init(frameworkVersion: frameworkVersion, versionHashes: hashes.entities,
                  versionIdentifiers: [model.versionIdentifier], storeUUID: storeUUID,
                  hashesDigest: hashes.digest, checksum: hashes.checksum, other: other)
    }

    /// Parses the binary property list stored in `Z_PLIST`.
    public init(propertyList bytes: [UInt8]) throws(FileError) {
        var plist = try StoreMetadata.dictionary(propertyList: bytes)
        func take(_ key: String) -> PropertyListValue? { plist.removeValue(forKey: key) }
        func wrongType(_ key: String, _ expected: String) -> FileError {
            FileError(message: "metadata key \(key) is not \(expected)")
        }

        guard case .integer(let version)? = take(Key.frameworkVersion) else {
            throw wrongType(Key.frameworkVersion, "an integer")
        }
        guard case .dictionary(let hashValues)? = take(Key.versionHashes) else {
            throw wrongType(Key.versionHashes, "a dictionary")
        }
        var hashes: [String: [UInt8]] = [:]
        for (entity, value) in hashValues {
            guard case .data(let hash) = value else { throw wrongType("\(Key.versionHashes).\(entity)", "data") }
            hashes[entity] = hash
        }
        guard case .array(let identifierValues)? = take(Key.versionIdentifiers) else {
            throw wrongType(Key.versionIdentifiers, "an array")
        }
        var identifiers: [String] = []
        for value in identifierValues {
            guard case .string(let identifier) = value else { throw wrongType(Key.versionIdentifiers, "an array of strings") }
            identifiers.append(identifier)
        }
        guard case .string(let type)? = take(Key.storeType) else { throw wrongType(Key.storeType, "a string") }

        func optionalString(_ key: String) throws(FileError) -> String? {
            switch take(key) {
            case nil: return nil
            case .string(let text)?: return text
            default: throw wrongType(key, "a string")
            }
        }
        var hashesVersion: Int?
        switch take(Key.versionHashesVersion) {
        case nil: hashesVersion = nil
        case .integer(let number)?: hashesVersion = Int(number)
        default: throw wrongType(Key.versionHashesVersion, "an integer")
        }

        self.init(frameworkVersion: Int(version), versionHashes: hashes, versionHashesVersion: hashesVersion,
                  versionIdentifiers: identifiers, storeType: type,
                  storeUUID: try optionalString(Key.storeUUID),
                  autoVacuumLevel: try optionalString(Key.autoVacuumLevel),
                  hashesDigest: try optionalString(Key.hashesDigest),
                  checksum: try optionalString(Key.checksum),
                  other: plist)
    }

    /// The dictionary in a `Z_PLIST`: a binary property list, as Core Data writes it, read with the
    /// limits of ``PlistExpansion`` (each object decoded once, shared references counted per use), so
    /// a hostile store's few hundred bytes cannot stand for 2^40 values (issue 24, item 9).
    static func dictionary(propertyList bytes: [UInt8]) throws(FileError) -> [String: PropertyListValue] {
        guard bytes.starts(with: Array("bplist00".utf8)) else {
            throw FileError(message: "Z_PLIST is not a property list (Core Data writes a binary property list, bplist00)")
        }
        let value: PropertyListValue
        do {
            value = try PlistReader(bytes).propertyListValue()
        } catch {
            throw FileError(message: error.isLimit ? "Z_PLIST is refused: \(error.message)" : "Z_PLIST is not a property list (\(error.message))")
        }
        guard case .dictionary(let plist) = value else {
            throw FileError(message: "Z_PLIST is not a dictionary of property-list values")
        }
        return plist
    }

    /// The whole metadata as one property-list dictionary.
    public var propertyListValue: PropertyListValue {
        var plist = other
        plist[Key.frameworkVersion] = .integer(Int64(frameworkVersion))
        plist[Key.versionHashes] = .dictionary(versionHashes.mapValues { .data($0) })
        if let versionHashesVersion { plist[Key.versionHashesVersion] = .integer(Int64(versionHashesVersion)) }
        plist[Key.versionIdentifiers] = .array(versionIdentifiers.map { .string($0) })
        plist[Key.storeType] = .string(storeType)
        if let storeUUID { plist[Key.storeUUID] = .string(storeUUID) }
        if let autoVacuumLevel { plist[Key.autoVacuumLevel] = .string(autoVacuumLevel) }
        if let hashesDigest { plist[Key.hashesDigest] = .string(hashesDigest) }
        if let checksum { plist[Key.checksum] = .string(checksum) }
        return .dictionary(plist)
    }

    /// The binary property list for `Z_PLIST`. Deterministic: equal metadata gives identical bytes.
    public func binaryPropertyList() -> [UInt8] {
        BinaryPropertyListWriter.data(for: propertyListValue)
    }

    /// Reads `Z_UUID` and `Z_PLIST` from the `Z_METADATA` row of the store at `path`.
    ///
    /// The store is opened read-only and immutable, so nothing beside it is created or changed.
    /// An immutable open ignores a `-wal` file: for a WAL store whose metadata may still be only in
    /// the `-wal`, copy the store with its `-wal` and open the copy read-write first (or checkpoint it).
    public static func read(fromStoreAt path: String) throws -> (uuid: String, metadata: StoreMetadata) {
        try read(from: SQLiteDatabase(path: path, mode: .readOnly(immutable: true)))
    }

    /// Reads `Z_UUID` and `Z_PLIST` from the `Z_METADATA` row of an open store.
    public static func read(from database: SQLiteDatabase) throws -> (uuid: String, metadata: StoreMetadata) {
        let path = database.path
        let rows = try database.rows(CoreDataSQL.metadataRow)
        guard let row = rows.first else {
            throw FileError(path: path, message: "Z_METADATA has no row")
        }
        guard case .text(let uuid) = row[0] else {
            throw FileError(path: path, message: "Z_METADATA.Z_UUID is not text")
        }
        guard case .blob(let bytes) = row[1] else {
            throw FileError(path: path, message: "Z_METADATA.Z_PLIST is not a blob")
        }
        do {
            return (uuid, try StoreMetadata(propertyList: bytes))
        } catch {
            throw FileError(path: path, message: error.message)
        }
    }
}
