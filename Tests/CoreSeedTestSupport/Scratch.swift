import Foundation
import CoreSeed

/// The tests' one temporary folder: write inputs, run the binary there, query the store; removed
/// when the `Scratch` goes away. `Scratch.folder()` makes the same kind of folder for a test that
/// removes it itself (`defer`).
public final class Scratch {
    public let url: URL

    /// The folder, as the reader tests name it.
    public var directory: URL { url }

    public init() throws {
        url = try Scratch.folder()
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A fresh, empty folder under the system's temporary directory; the caller removes it.
    public static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coreseed-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` (a path in this folder), making the folders it needs.
    public func write(_ name: String, _ text: String) throws {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    /// Writes `bytes` to `name` and returns its path.
    public func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    /// Writes `text` to `name` and returns its path.
    public func file(_ name: String, _ text: String) throws -> String {
        try file(name, Array(text.utf8))
    }

    /// Writes a one-version model `NAME.xcdatamodeld` with the given entity XML.
    public func writeModel(_ name: String, _ entities: String) throws {
        try write("\(name).xcdatamodeld/\(name).xcdatamodel/contents",
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model userDefinedModelVersionIdentifier=\"\">\n\(entities)\n</model>\n")
    }

    public func run(_ arguments: [String]) throws -> BinaryRunner.Result {
        try BinaryRunner.run(arguments, in: url)
    }

    /// Runs the binary as `run` does, killed (exit 124 or 137) if it runs past `seconds`: for tests
    /// of inputs that once made it hang.
    /// `stderr`: a file of this folder that takes the standard error (for more than a pipe holds).
    public func run(_ arguments: [String], within seconds: Int, stderr: String? = nil) throws -> BinaryRunner.Result {
        var handle: FileHandle?
        if let stderr {
            _ = FileManager.default.createFile(atPath: path(stderr), contents: nil)
            handle = try FileHandle(forWritingTo: url.appendingPathComponent(stderr))
        }
        defer { try? handle?.close() }
        return try BinaryRunner.run(executable: URL(fileURLWithPath: "/usr/bin/timeout"),
                                    ["-s", "KILL", String(seconds), BinaryRunner.binary.path] + arguments, in: url, stderr: handle)
    }

    /// Rows of a query against a store in this folder, each value rendered as text ("NULL" for null).
    public func query(_ store: String, _ sql: String) throws -> [[String]] {
        let database = try SQLiteDatabase(path: path(store), mode: .readOnly(immutable: true))
        return try database.rows(sql).map { $0.map(Scratch.render) }
    }

    /// A value as text for comparisons: "NULL", numbers, text as is, blobs as x'…'.
    public static func render(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .text(let v): v
        case .blob(let v): "x'" + v.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }
}
