/// A store's own model: `Z_MODELCACHE` (DESIGN §4c.7), one row whose `Z_CONTENT` is the
/// `NSManagedObjectModel` keyed archive, raw-deflated. Core Data writes it from framework 637 on.
public enum StoreModelCache {
    /// Why a store's cached model could not be read.
    public struct Failure: Error, Sendable, Equatable {
        public let path: String
        public let message: String
        public var description: String { "\(path): \(message)" }
    }

    /// The decompressed keyed archive of the store at `path`; an error naming the store when it has no
    /// `Z_MODELCACHE` row, or the row is not a raw-deflated stream.
    public static func archive(ofStoreAt path: String) throws(Failure) -> [UInt8] {
        let blob: [UInt8]
        do {
            let database = try SQLiteDatabase(path: path, mode: .readOnly(immutable: true))
            let tables = try database.rows(CoreDataSQL.modelCacheTableExists)
            guard !tables.isEmpty else {
                throw Failure(path: path, message: "has no Z_MODELCACHE table (a store Core Data wrote before framework 637, or not a Core Data store); give its model with \(RunOption.model)")
            }
            let rows = try database.rows(CoreDataSQL.modelCacheContent)
            guard rows.count == 1, case .blob(let bytes) = rows[0][0] else {
                throw Failure(path: path, message: "Z_MODELCACHE holds \(rows.count) rows, not one model; give its model with \(RunOption.model)")
            }
            blob = bytes
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(path: path, message: "cannot be read as a SQLite store (\(error))")
        }
        do {
            return try RawDeflate.inflate(blob)
        } catch {
            throw Failure(path: path, message: "Z_MODELCACHE is not a raw-deflated model archive: \(error.message)")
        }
    }
}
