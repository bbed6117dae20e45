import Foundation

/// Where tests find the repository, its inputs and fixtures, the corpus, and scratch space.
public enum TestPaths {
    /// The repository root, found from this file's path.
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        preconditionFailure("Package.swift not found above \(#filePath)")
    }()

    /// The sample inputs, the FDIC list among them (`Inputs/fdic-2011/`).
    public static let inputs = repositoryRoot.appendingPathComponent("Inputs")

    /// The small checked-in fixtures (`Tests/Fixtures/`).
    public static let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures")

    /// The Core Data corpus outside the repository; tests that read it carry `.needsCorpus` (`Corpus`).
    public static let corpus = Corpus.url

    /// A fresh temporary directory, removed by the caller's `defer`: `Scratch.folder()`, for tests that
    /// manage the folder's lifetime themselves.
    public static func temporaryDirectory() throws -> URL {
        try Scratch.folder()
    }

    /// Writes `text` to `name` under `directory`, making the folders it needs.
    public static func write(_ text: String, to name: String, in directory: URL) throws {
        let file = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Copies a corpus store (and its `-wal`/`-shm`, if any) into `directory`; returns the copy's path.
    /// SQLite rewrites WAL stores on open, so originals are never opened.
    public static func copyStore(_ store: URL, into directory: URL) throws -> URL {
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
