import Foundation
import Synchronization

/// The external files of a store being written (DESIGN §4b.10): values of external-storage Binary
/// attributes above the spec's `externalAbove` go to `.<store name>_SUPPORT/_EXTERNAL_DATA/<UUID>`
/// beside the store, and the column holds `0x02` + the UUID + `0x00`.
///
/// Files are written into a staging folder beside the output (`.<name>.coreseed-<pid>.external`) and
/// moved into the support folder just before the store is renamed into place: the store that was there
/// keeps every file it refers to until it is replaced, and files no store refers to any more are
/// removed after. A failed build removes the staging folder; a killed one's is removed by the next build.
///
/// UUIDs are derived from the table, column, `Z_PK` and bytes, so identical inputs give identical
/// files and references, and no two rows share a file (Core Data deletes a row's file with the row).
public final class ExternalDataFolder: Sendable {
    /// The store's external-data folder, and the one of the store an upsert copies (`--into A --output B`).
    let targetFolder: String
    let sourceFolder: String?
    let stagingFolder: String
    private let staged = Mutex<Set<String>>([])

    init(targetStore: String, sourceStore: String?) {
        let target = ExternalBinary.dataDirectory(forStoreAt: targetStore)
        targetFolder = target
        sourceFolder = sourceStore.map(ExternalBinary.dataDirectory(forStoreAt:)).flatMap { $0 == target ? nil : $0 }
        stagingFolder = StoreLocations(targetStore).externalStaging
    }

    /// Writes `bytes` to a staged file and returns the column value that refers to it.
    func store(_ bytes: ArraySlice<UInt8>, table: String, column: String, primaryKey: Int64) throws -> [UInt8] {
        var name: [UInt8] = Array("\(table).\(column).\(primaryKey)".utf8) + [0]
        name += bytes
        let uuid = ExternalDataFolder.uuid(SHA2.sha256(name))
        if staged.withLock({ $0.isEmpty }) {
            do {
                try FileManager.default.createDirectory(atPath: stagingFolder, withIntermediateDirectories: true)
            } catch {
                throw FileError(.cannotWriteOutput, path: targetFolder, message: "cannot create the folder of external files: \(error.localizedDescription)")
            }
        }
        try ExportFile.write(Data(bytes), to: stagingFolder + "/" + uuid, name: targetFolder + "/" + uuid)
        staged.withLock { _ = $0.insert(uuid) }
        return [ExternalBinary.referenceMarker] + Array(uuid.utf8) + [0]
    }

    /// A name-based UUID (version 5 layout) from a SHA-256 digest, uppercase as Core Data names the files.
    static func uuid(_ digest: [UInt8]) -> String {
        var bytes = Array(digest.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02X", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }

    /// The UUIDs the store's external-storage columns refer to.
    static func references(in database: SQLiteDatabase, layout: StoreLayout) throws(SQLiteError) -> Set<String> {
        var result = Set<String>()
        for column in layout.externalStorageColumns {
            let sql = CoreDataSQL.externalReferences(table: column.table, column: column.column)
            for row in try database.rows(sql) {
                if case .blob(let bytes) = row[0], case .reference(let uuid) = ExternalBinary.decode(bytes) { result.insert(uuid) }
            }
        }
        return result
    }

    /// Before the store is renamed into place: puts every file `referenced` needs into the support
    /// folder — staged files moved in, files of the copied store (`sourceFolder`) copied.
    func place(_ referenced: Set<String>) throws(FileError) {
        let staged = self.staged.withLock { $0 }
        let needsCopy = sourceFolder.map { source in referenced.subtracting(staged).filter { FileManager.default.fileExists(atPath: source + "/" + $0) } } ?? []
        guard !staged.isEmpty || !needsCopy.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: targetFolder, withIntermediateDirectories: true)
            ExternalDataFolder.removeStaleParts(in: targetFolder)
            for uuid in staged.sorted() where referenced.contains(uuid) {
                do {
                    try FileSystem.rename(FilePath(stagingFolder).appending(uuid), to: FilePath(targetFolder).appending(uuid))
                } catch {
                    throw FileError(.cannotWriteOutput, path: targetFolder, message: "cannot move an external file into place: \(error)")
                }
            }
            // Copied through a staging name and checked; a file of that name already there is kept only
            // when it holds the same bytes (a killed copy's torn file is replaced).
            for uuid in needsCopy.sorted() {
                try ExternalDataFolder.copyVerified(from: sourceFolder! + "/" + uuid, to: targetFolder + "/" + uuid)
            }
        } catch let error as FileError {
            throw error
        } catch {
            throw FileError(.cannotWriteOutput, path: targetFolder, message: "cannot copy the external files: \(error.localizedDescription)")
        }
    }

    /// The names of the external files in `folder` (UUID-named files only); empty when there is none.
    static func files(in folder: String) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(names.filter(ExternalBinary.isFileName))
    }

    /// After the store is in place: removes the files the replaced store's rows referred to
    /// (`previous`, read before it was replaced) that the new one does not, and the staging folder.
    /// No other file of the support folder is ever removed.
    func removeUnreferenced(_ referenced: Set<String>, previous: Set<String>?) {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: targetFolder) {
            let replaced = (previous ?? []).subtracting(referenced)
            for name in names where replaced.contains(name) && ExternalBinary.isFileName(name) {
                FileSystem.remove(FilePath(targetFolder).appending(name))
            }
            if referenced.isEmpty {
                FileSystem.removeEmptyFolder(FilePath(targetFolder))
                FileSystem.removeEmptyFolder(FilePath(targetFolder).removingLastComponent)
            }
        }
        abandon()
    }

    /// Locks the folder the store at `store` is in (`flock` on the folder itself: nothing is created),
    /// so that two builds to one output do not remove each other's new files; nil when it cannot be opened.
    static func lock(besides store: String) -> FileDescriptor? {
        guard let descriptor = try? FileDescriptor.open(FilePath(StoreLocations(store).folder), O_RDONLY) else { return nil }
        while case .failure(.interrupted) = Result(catching: { () throws(Errno) in try descriptor.lock(LOCK_EX) }) {}
        return descriptor
    }

    static func unlock(_ descriptor: FileDescriptor) {
        try? descriptor.lock(LOCK_UN)
        descriptor.close()
    }

    /// Removes the staging folder and what it holds.
    func abandon() {
        try? FileManager.default.removeItem(atPath: stagingFolder)
    }
}
