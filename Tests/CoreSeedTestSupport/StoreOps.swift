import Foundation
import CoreSeed

/// Corpus access and file fingerprints for the inspect/backup/export end-to-end tests.
public enum StoreOps {
    /// The Core Data corpus outside the repository; tests that read it carry `.needsCorpus` (`Corpus`).
    public static let corpus = Corpus.url

    /// Copies a corpus store (and any sidecars) into `folder` as `store.sqlite`, writable; returns its path.
    public static func copyCorpusStore(_ name: String, into folder: URL) throws -> String {
        let source = corpus.appendingPathComponent(name).appendingPathComponent("store.sqlite").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("store.sqlite").path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target + suffix)
        }
        return target
    }

    /// Every file of `folder` with its bytes.
    public static func contents(of folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }

    /// Rows of `sql` on an open connection, rendered as text ("NULL" for null).
    public static func rows(_ database: SQLiteDatabase, _ sql: String) throws -> [[String]] {
        try database.rows(sql).map { $0.map(Scratch.render) }
    }
}
