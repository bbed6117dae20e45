import Foundation

/// The folder an export writes into, replaced as a whole: every file is written into a staging folder
/// beside it (`.NAME.coreseed-export-<pid>` in the same parent), the other entries of the folder (files
/// that are not the export's, hard-linked) are added to it, and the two folders are swapped in one
/// step (`renameat2(RENAME_EXCHANGE)`; a plain rename when the folder did not exist). At every moment
/// the folder holds either its earlier set of files or the new one, whatever stops the export. The
/// old folder, now at the staging name, is then removed; one left by an export killed with SIGKILL is
/// removed by the next.
///
/// When the folder cannot be swapped (it is the current folder, it holds sub-folders or special files,
/// its parent is not writable, or the file system cannot swap), the staging folder is made inside it
/// (`.coreseed-export-<pid>`) and the files are moved into place one by one once all were written:
/// a failed export still leaves the folder as it was, but one killed during those renames may leave
/// some files new and some old.
final class ExportFolder {
    /// The folder the files end up in.
    let directory: String
    private let staging: String
    private let names: [String]
    /// Whether the staging folder is a sibling, swapped with `directory` as a whole.
    private let swapsWhole: Bool
    /// Entries of the folder that are not the export's (hard-linked into a sibling staging folder).
    private let others: [String]
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
        let absolute = URL(fileURLWithPath: directory).standardizedFileURL
        let parent = absolute.deletingLastPathComponent().path
        let sibling = SeedSpec.join(parent, ".\(absolute.lastPathComponent)\(ExportFolder.stagingPrefix)\(FileSystem.processID)")
        ExportFolder.removeStaleStaging(in: parent, prefix: ".\(absolute.lastPathComponent)\(ExportFolder.stagingPrefix)")
        if existed { ExportFolder.removeStaleStaging(in: directory, prefix: ExportFolder.stagingPrefix) }
        let others = existed ? ExportFolder.otherEntries(of: directory, names: names) : []
        // Registered before anything is created, so a signal at any point leaves nothing behind.
        let register = { (staging: String, others: [String], created: Bool) in
            InterruptCleanup.register(files: (names + others).map { SeedSpec.join(staging, $0) },
                                      folders: [staging] + (created ? [directory] : []))
        }
        var swappable = false
        if let others, !ExportFolder.isCurrentFolder(absolute.path) {
            cleanup = register(sibling, others, false)
            swappable = (try? FileSystem.makeFolder(FilePath(sibling), permissions: 0o700)) != nil
        }
        self.swapsWhole = swappable
        self.others = swappable ? others ?? [] : []
        self.created = !existed && !swappable
        staging = swappable ? sibling : SeedSpec.join(directory, "\(ExportFolder.stagingPrefix)\(FileSystem.processID)")
        if !swappable {
            if let cleanup { InterruptCleanup.unregister(cleanup) }
            cleanup = register(staging, [], created)
        }
        if swappable {
            try linkOthers()
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw FileError(.cannotWriteOutput, path: directory, message: "cannot create the output folder: \(error.localizedDescription)")
        }
        ExportFolder.removeStaleStaging(in: directory, prefix: ExportFolder.stagingPrefix)
        do {
            try FileSystem.makeFolder(FilePath(staging), permissions: 0o700)
        } catch {
            throw FileError(.cannotWriteOutput, path: directory, message: "cannot write into the output folder: \(error.description)")
        }
    }

    deinit {
        if !committed { ExportFolder.removeFolder(staging) }
        if !committed, created { FileSystem.removeEmptyFolder(FilePath(directory)) }
        if let cleanup { InterruptCleanup.unregister(cleanup) }
    }

    /// Where the file `name` is written until `commit()`.
    func stagingPath(_ name: String) -> String {
        precondition(names.contains(name), "\(name) was not announced to the export folder")
        return SeedSpec.join(staging, name)
    }

    /// The path `name` has once committed.
    func finalPath(_ name: String) -> String { SeedSpec.join(directory, name) }

    /// Puts the written files in place: swaps the staging folder with the folder (or renames it to the
    /// folder's name when there was none) and removes the old one; else moves each file into place.
    func commit() throws {
        if swapsWhole {
            let exists = FileManager.default.fileExists(atPath: directory)
            do throws(Errno) {
                if exists {
                    try FileSystem.exchange(FilePath(staging), FilePath(directory))
                } else {
                    try FileSystem.rename(FilePath(staging), to: FilePath(directory))
                }
            } catch {
                guard exists, error == .invalidArgument || error == .noFunction else {
                    throw FileError(.cannotWriteOutput, path: directory, message: "cannot put the new files in place: \(error.description); nothing was replaced")
                }
                // The file system cannot swap: the files are moved in one by one.
                try moveEach(from: staging)
                ExportFolder.removeFolder(staging)
                return
            }
            committed = true
            // The old folder is at the staging name: an entry added to the folder meanwhile is moved over, the rest removed.
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? [] where !names.contains(entry) && !others.contains(entry) && !entry.hasPrefix(ExportFolder.stagingPrefix) {
                try? FileSystem.rename(FilePath(SeedSpec.join(staging, entry)), to: FilePath(SeedSpec.join(directory, entry)))
            }
            ExportFolder.removeFolder(staging)
            return
        }
        try moveEach(from: staging)
        FileSystem.removeEmptyFolder(FilePath(staging))
    }

    /// Moves each written file from `folder` into place, replacing a file of the same name.
    private func moveEach(from folder: String) throws {
        for name in names {
            do {
                try FileSystem.rename(FilePath(SeedSpec.join(folder, name)), to: FilePath(finalPath(name)))
            } catch {
                throw FileError(.cannotWriteOutput, path: finalPath(name), message: "cannot move the file into place: \(error.description)")
            }
        }
        committed = true
    }

    /// Hard-links the folder's other entries into the staging folder, so that the swap keeps them.
    private func linkOthers() throws {
        for entry in others {
            let from = SeedSpec.join(directory, entry), to = SeedSpec.join(staging, entry)
            do {
                try FileSystem.hardLink(FilePath(from), to: FilePath(to))
            } catch {
                throw FileError(.cannotWriteOutput, path: from, message: "cannot keep the file through the export (link: \(error.description)); nothing was replaced")
            }
        }
    }

    /// The entries of `directory` that are neither the export's files nor staging folders, when all are
    /// regular files (which a swap can keep by hard links); nil when one is not.
    private static func otherEntries(of directory: String, names: [String]) -> [String]? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        var others: [String] = []
        for entry in entries where !names.contains(entry) && !entry.hasPrefix(stagingPrefix) {
            guard let status = try? FileSystem.linkStatus(FilePath(SeedSpec.join(directory, entry))), status.isRegularFile else { return nil }
            others.append(entry)
        }
        return others
    }

    /// Whether `path` is the process's current folder (or holds it), which a swap would leave the
    /// user's shell outside of.
    private static func isCurrentFolder(_ path: String) -> Bool {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.resolvingSymlinksInPath().path
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return current == target || current.hasPrefix(target.hasSuffix("/") ? target : target + "/")
    }

    /// Removes a staging folder: its files, then the folder.
    private static func removeFolder(_ folder: String) {
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            FileSystem.remove(FilePath(SeedSpec.join(folder, file)))
        }
        FileSystem.removeEmptyFolder(FilePath(folder))
    }

    /// Removes staging folders in `directory` named `prefix<pid>` whose process no longer exists
    /// (an export killed with SIGKILL).
    private static func removeStaleStaging(in directory: String, prefix: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            guard let pid = Int32(entry.dropFirst(prefix.count)), pid != FileSystem.processID,
                  FileSystem.processIsGone(pid) else { continue }
            removeFolder(SeedSpec.join(directory, entry))
        }
    }
}

/// One file of an export, written through a buffer; every write is checked (a full disk or a file size
/// limit is an error naming `name`, never a crash). Removed if never finished. Not `Sendable`: it owns
/// an open file descriptor.
final class ExportFile {
    /// The name the user sees: the file's final path.
    let name: String
    private let path: FilePath
    /// Nil once closed.
    private var descriptor: FileDescriptor?
    private var buffer: [UInt8] = []

    /// Creates `path`; errors name `name`.
    init(path: String, name: String) throws {
        self.path = FilePath(path)
        self.name = name
        do {
            descriptor = try FileDescriptor.open(self.path, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o644)
        } catch {
            throw FileError(.cannotWriteOutput, path: name, message: "cannot create the file: \(error.description)")
        }
        buffer.reserveCapacity(1 << 20)
    }

    deinit {
        if let descriptor {
            descriptor.close()
            FileSystem.remove(path)
        }
    }

    func append(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        let descriptor = try openDescriptor()
        // SAFETY: the view is written out before `withUnsafeBytes` returns.
        let failed: Errno? = buffer.withUnsafeBytes { bytes in
            do throws(Errno) { try descriptor.writeAll(bytes); return nil } catch { return error }
        }
        if let failed { throw failure(failed) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func failure(_ error: Errno) -> FileError {
        let hint = error == .noSpace || error == .fileTooLarge || error == .diskQuotaExceeded
            ? FileError.fileCannotGrowHint : ""
        return FileError(.cannotWriteOutput, path: name, message: "cannot write the file: \(error.description)\(hint); nothing was replaced")
    }

    /// The open descriptor; a file already closed fails as a write to a closed descriptor does.
    private func openDescriptor() throws -> FileDescriptor {
        guard let descriptor else { throw failure(.badFileDescriptor) }
        return descriptor
    }

    /// Writes what is buffered and closes the file.
    func finish() throws {
        try flush()
        let descriptor = try openDescriptor()
        do throws(Errno) {
            try descriptor.sync()
        } catch {
            // EINVAL: the file cannot be synced (a special file such as /dev/null): nothing to wait for.
            guard error == .invalidArgument else { throw failure(error) }
        }
        self.descriptor = nil
        do {
            try descriptor.closeChecked()
        } catch {
            FileSystem.remove(path)
            throw failure(error)
        }
    }

    /// Writes `data` to `path` and closes it.
    static func write(_ data: Data, to path: String, name: String) throws {
        let file = try ExportFile(path: path, name: name)
        file.buffer = [UInt8](data)
        try file.finish()
    }
}
