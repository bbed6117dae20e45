import Foundation

/// The readers take paths, so each fuzz input is written to one scratch file per process.
enum FuzzFile {
    static let path = FileManager.default.temporaryDirectory.appendingPathComponent("coreseed-fuzz-\(getpid())").path

    static func write<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}
