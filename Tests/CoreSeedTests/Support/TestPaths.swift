import Foundation

/// Where tests find the repository, `../shared`, and scratch space.
enum TestPaths {
    /// The repository root, found from this file's path.
    static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// `../shared` beside the repository (read-only in CI), or `$CORESEED_SHARED`.
    static let shared: URL = {
        if let path = ProcessInfo.processInfo.environment["CORESEED_SHARED"] { return URL(fileURLWithPath: path) }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")
    }()

    static let corpus = shared.appendingPathComponent("corpus")
    static let data = shared.appendingPathComponent("data")

    /// A fresh temporary directory, removed by the caller's `defer`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coreseed-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Copies a corpus store (and its `-wal`/`-shm`, if any) into `directory`; returns the copy's path.
    /// SQLite rewrites WAL stores on open, so originals are never opened.
    static func copyStore(_ store: URL, into directory: URL) throws -> URL {
        let target = directory.appendingPathComponent("store.sqlite")
        try FileManager.default.copyItem(at: store, to: target)
        for suffix in ["-wal", "-shm"] {
            let side = URL(fileURLWithPath: store.path + suffix)
            if FileManager.default.fileExists(atPath: side.path) {
                try FileManager.default.copyItem(at: side, to: URL(fileURLWithPath: target.path + suffix))
            }
        }
        return target
    }
}
