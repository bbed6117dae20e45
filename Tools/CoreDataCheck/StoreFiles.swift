import Foundation

/// The files of one store as Core Data finds them: the store, its sidecars and its support folder.
enum StoreFiles {
    /// SQLite's files beside a store that may hold part of it.
    static let sidecarSuffixes = ["-wal", "-shm", "-journal"]

    /// `.<store name without extension>_SUPPORT` beside the store: the folder whose `_EXTERNAL_DATA`
    /// holds external-storage Binary values. The same rule as CoreSeed's
    /// `ExternalBinary.dataDirectory(forStoreAt:)` (Core Data's `NSSQLCore _supportDirectoryPath`).
    static func supportFolder(ofStoreAt store: URL) -> URL {
        var name = store.lastPathComponent
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return store.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT")
    }

    /// Copies the store, its sidecars and its support folder into `folder` (created), keeping the
    /// store's file name, so that Core Data finds the support folder beside the copy. Returns the copy.
    static func copy(_ store: URL, into folder: URL) throws(CheckFailure) -> URL {
        let copy = folder.appendingPathComponent(store.lastPathComponent)
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            try manager.copyItem(at: store, to: copy)
            for suffix in sidecarSuffixes where manager.fileExists(atPath: store.path + suffix) {
                try manager.copyItem(atPath: store.path + suffix, toPath: copy.path + suffix)
            }
            let support = supportFolder(ofStoreAt: store)
            if manager.fileExists(atPath: support.path) {
                try manager.copyItem(at: support, to: supportFolder(ofStoreAt: copy))
            }
        } catch {
            throw .failed("cannot copy the store into \(folder.path): \(error.localizedDescription)")
        }
        return copy
    }

    /// Relative path → bytes of every file under `folder` (empty when it does not exist).
    static func contents(of folder: URL) -> [String: Data] {
        guard let paths = FileManager.default.subpaths(atPath: folder.path) else { return [:] }
        var files: [String: Data] = [:]
        for path in paths {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = FileManager.default.contents(atPath: url.path)
            }
        }
        return files
    }
}
