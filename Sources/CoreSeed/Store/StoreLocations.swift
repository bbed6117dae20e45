import Foundation

/// Every name a store at one path has on disk, spelt here once: the store itself, the sidecars SQLite
/// keeps beside it, its support folder of external files, and the scratch names a run of CoreSeed puts
/// beside it (the temporary store being built, the staging folder of external files, a part-copied file).
///
/// A scratch name is `.NAME.coreseed-PID` + a kind's suffix, in the target's own folder so that the
/// final rename is atomic; a later run removes those whose process is gone (`staleScratch`).
struct StoreLocations: Sendable, Equatable {
    /// A file SQLite keeps beside a store, named by appending the suffix to the store's path.
    /// In the order a store's files are removed (journal first, as SQLite itself does).
    enum Sidecar: String, CaseIterable, Sendable {
        case journal = "-journal"
        case wal = "-wal"
        case shm = "-shm"
    }

    /// What a scratch file or folder beside a target is for.
    enum Scratch: String, CaseIterable, Sendable {
        /// The temporary store being built or copied (`.NAME.coreseed-PID.tmp`).
        case store = ".tmp"
        /// The staging folder of external files written by a build (`.NAME.coreseed-PID.external`).
        case externalFiles = ".external"
        /// A file being copied, renamed over its final name once complete (`.NAME.coreseed-PID.part`).
        case part = ".part"
    }

    /// The store's path.
    let target: String

    init(_ target: String) { self.target = target }

    /// The folder the store is in, and its file name.
    var folder: String { URL(fileURLWithPath: target).deletingLastPathComponent().path }
    var name: String { URL(fileURLWithPath: target).lastPathComponent }

    /// The path of `sidecar` of the store at `path`.
    static func sidecar(_ sidecar: Sidecar, of path: String) -> String { path + sidecar.rawValue }

    /// Whether `name` is a sidecar's name (ends with one of the suffixes).
    static func isSidecar(_ name: String) -> Bool { Sidecar.allCases.contains { name.hasSuffix($0.rawValue) } }

    /// The store at `path` and its sidecars, in removal order.
    static func files(ofStoreAt path: String) -> [String] { [path] + Sidecar.allCases.map { path + $0.rawValue } }

    /// This process's scratch name of `kind` beside the file at `path`.
    static func scratch(_ kind: Scratch, besides path: String, pid: Int32 = FileSystem.processID) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).coreseed-\(pid)\(kind.rawValue)").path
    }

    /// The temporary store this process builds for the target.
    var temporary: String { StoreLocations.scratch(.store, besides: target) }

    /// The folder this process stages the target's new external files in.
    var externalStaging: String { StoreLocations.scratch(.externalFiles, besides: target) }

    /// The support folder (`.NAME_SUPPORT`, the file name without its extension) and its
    /// `_EXTERNAL_DATA` folder of external files.
    var supportFolder: String { StoreLocations.supportFolder(ofStoreAt: target) }
    var externalData: String { StoreLocations.supportFolder(ofStoreAt: target) + StoreLocations.externalDataName }

    static let externalDataName = "/_EXTERNAL_DATA"

    static func supportFolder(ofStoreAt storePath: String) -> String {
        var directory = storePath, name = storePath
        if let slash = storePath.lastIndex(of: "/") {
            directory = String(storePath[..<slash])
            name = String(storePath[storePath.index(after: slash)...])
        } else {
            directory = "."
        }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = String(name[..<dot]) }
        return directory + "/." + name + "_SUPPORT"
    }

    /// The scratch entries beside the target left by runs whose process no longer exists, with their kind
    /// (only the store's and the external files' staging: a `.part` lives in the support folder).
    func staleScratch() -> [(path: String, kind: Scratch)] {
        let prefix = ".\(name).coreseed-", folder = self.folder
        guard let names = try? FileSystem.names(in: FilePath(folder)) else { return [] }
        return names.compactMap { name in
            guard name.hasPrefix(prefix),
                  let kind = [Scratch.store, .externalFiles].first(where: { name.hasSuffix($0.rawValue) }),
                  let pid = Int32(name.dropFirst(prefix.count).dropLast(kind.rawValue.count)),
                  pid != FileSystem.processID && FileSystem.processIsGone(pid) else { return nil }
            return (folder + "/" + name, kind)
        }
    }
}
