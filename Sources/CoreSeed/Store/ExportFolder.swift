import Foundation

/// The folder an export writes into. Every file is first written into a staging folder inside it
/// (`.coreseed-export-<pid>`) and the files are moved into place together once all of them were
/// written, so a failed or interrupted export leaves the folder as it was: no partial set of files, no
/// temporary file (the staging folder is registered with `InterruptCleanup`; one left by a killed
/// export is removed by the next).
final class ExportFolder {
    /// The folder the files end up in.
    let directory: String
    private let staging: String
    private let names: [String]
    /// The folder did not exist and was created for this export: removed again if it fails.
    private let created: Bool
    private var cleanup: InterruptCleanup.Registration?
    private var committed = false

    static let stagingPrefix = ".coreseed-export-"

    /// Prepares `directory` (created if missing) for the files `names`.
    init(directory: String, names: [String]) throws {
        self.directory = directory
        self.names = names
        var isFolder: ObjCBool = false
        let existed = FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder)
        if existed, !isFolder.boolValue {
            throw FileError(.cannotWriteOutput, path: directory, message: "the export's output is a file, not a folder")
        }
        created = !existed
        staging = SeedSpec.join(directory, "\(ExportFolder.stagingPrefix)\(getpid())")
        // Registered before anything is created, so a signal at any point leaves nothing behind.
        cleanup = InterruptCleanup.register(files: names.map { SeedSpec.join(staging, $0) },
                                            folders: [staging] + (created ? [directory] : []))
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FileError(.cannotWriteOutput, path: directory, message: "cannot create the output folder: \(error.localizedDescription)")
        }
        ExportFolder.removeStaleStaging(in: directory)
        guard mkdir(staging, 0o700) == 0 else {
            throw FileError(.cannotWriteOutput, path: directory, message: "cannot write into the output folder: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if !committed {
            for name in names { unlink(SeedSpec.join(staging, name)) }
            rmdir(staging)
            if created { rmdir(directory) }
        }
        if let cleanup { InterruptCleanup.unregister(cleanup) }
    }

    /// Where the file `name` is written until `commit()`.
    func stagingPath(_ name: String) -> String {
        precondition(names.contains(name), "\(name) was not announced to the export folder")
        return SeedSpec.join(staging, name)
    }

    /// The path `name` has once committed.
    func finalPath(_ name: String) -> String { SeedSpec.join(directory, name) }

    /// Moves every written file into place (replacing files of the same name) and removes the staging
    /// folder.
    func commit() throws {
        for name in names {
            guard rename(stagingPath(name), finalPath(name)) == 0 else {
                throw FileError(.cannotWriteOutput, path: finalPath(name), message: "cannot move the file into place: \(String(cString: strerror(errno)))")
            }
        }
        committed = true
        rmdir(staging)
    }

    /// Removes staging folders of exports whose process no longer exists (killed with SIGKILL).
    private static func removeStaleStaging(in directory: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix(stagingPrefix) {
            guard let pid = Int32(entry.dropFirst(stagingPrefix.count)), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            let folder = SeedSpec.join(directory, entry)
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                unlink(SeedSpec.join(folder, file))
            }
            rmdir(folder)
        }
    }
}

/// One file of an export, written through a buffer; every write is checked (a full disk or a file size
/// limit is an error naming `name`, never a crash). Removed if never finished. Not `Sendable`: it owns
/// an open file descriptor.
final class ExportFile {
    /// The name the user sees: the file's final path.
    let name: String
    private let path: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []

    /// Creates `path`; errors name `name`.
    init(path: String, name: String) throws {
        self.path = path
        self.name = name
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FileError(.cannotWriteOutput, path: name, message: "cannot create the file: \(String(cString: strerror(errno)))")
        }
        buffer.reserveCapacity(1 << 20)
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(path)
        }
    }

    func append(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        var written = 0
        while written < buffer.count {
            // SAFETY: the view is written from inside the closure only; the loop runs while `buffer` is non-empty, so `baseAddress` is non-nil.
            let count = buffer.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw failure(errno) }
            written += count
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func failure(_ code: Int32) -> FileError {
        let hint = code == ENOSPC || code == EFBIG || code == EDQUOT
            ? FileError.fileCannotGrowHint : ""
        return FileError(.cannotWriteOutput, path: name, message: "cannot write the file: \(String(cString: strerror(code)))\(hint); nothing was replaced")
    }

    /// Writes what is buffered and closes the file.
    func finish() throws {
        try flush()
        guard fsync(descriptor) == 0 || errno == EINVAL else { throw failure(errno) }
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0 else {
            unlink(path)
            throw failure(errno)
        }
    }

    /// Writes `data` to `path` and closes it.
    static func write(_ data: Data, to path: String, name: String) throws {
        let file = try ExportFile(path: path, name: name)
        file.buffer = [UInt8](data)
        try file.finish()
    }
}

/// `write(2)`, by a name `ExportFile`'s own `write` does not hide.
/// SAFETY: reads `count` bytes at `bytes` during the call only (its one caller's `withUnsafeBytes`).
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
