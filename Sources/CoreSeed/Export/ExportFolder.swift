import CSystem
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
        let sibling = SeedSpec.join(parent, ".\(absolute.lastPathComponent)\(ExportFolder.stagingPrefix)\(getpid())")
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
            swappable = mkdir(sibling, 0o700) == 0
        }
        self.swapsWhole = swappable
        self.others = swappable ? others ?? [] : []
        self.created = !existed && !swappable
        staging = swappable ? sibling : SeedSpec.join(directory, "\(ExportFolder.stagingPrefix)\(getpid())")
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
        guard mkdir(staging, 0o700) == 0 else {
            throw FileError(.cannotWriteOutput, path: directory, message: "cannot write into the output folder: \(Errno.current.description)")
        }
    }

    deinit {
        if !committed { ExportFolder.removeFolder(staging) }
        if !committed, created { rmdir(directory) }
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
            if (exists ? coreseed_rename_exchange(staging, directory) : rename(staging, directory)) != 0 {
                let code = errno
                guard exists, code == EINVAL || code == ENOSYS else {
                    throw FileError(.cannotWriteOutput, path: directory, message: "cannot put the new files in place: \(Errno(rawValue: code).description); nothing was replaced")
                }
                // The file system cannot swap: the files are moved in one by one.
                try moveEach(from: staging)
                ExportFolder.removeFolder(staging)
                return
            }
            committed = true
            // The old folder is at the staging name: an entry added to the folder meanwhile is moved over, the rest removed.
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? [] where !names.contains(entry) && !others.contains(entry) && !entry.hasPrefix(ExportFolder.stagingPrefix) {
                _ = rename(SeedSpec.join(staging, entry), SeedSpec.join(directory, entry))
            }
            ExportFolder.removeFolder(staging)
            return
        }
        try moveEach(from: staging)
        rmdir(staging)
    }

    /// Moves each written file from `folder` into place, replacing a file of the same name.
    private func moveEach(from folder: String) throws {
        for name in names {
            guard rename(SeedSpec.join(folder, name), finalPath(name)) == 0 else {
                throw FileError(.cannotWriteOutput, path: finalPath(name), message: "cannot move the file into place: \(Errno.current.description)")
            }
        }
        committed = true
    }

    /// Hard-links the folder's other entries into the staging folder, so that the swap keeps them.
    private func linkOthers() throws {
        for entry in others {
            let from = SeedSpec.join(directory, entry), to = SeedSpec.join(staging, entry)
            guard link(from, to) == 0 else {
                throw FileError(.cannotWriteOutput, path: from, message: "cannot keep the file through the export (link: \(Errno.current.description)); nothing was replaced")
            }
        }
    }

    /// The entries of `directory` that are neither the export's files nor staging folders, when all are
    /// regular files (which a swap can keep by hard links); nil when one is not.
    private static func otherEntries(of directory: String, names: [String]) -> [String]? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        var others: [String] = []
        for entry in entries where !names.contains(entry) && !entry.hasPrefix(stagingPrefix) {
            var status = stat()
            guard lstat(SeedSpec.join(directory, entry), &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
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
            unlink(SeedSpec.join(folder, file))
        }
        rmdir(folder)
    }

    /// Removes staging folders in `directory` named `prefix<pid>` whose process no longer exists
    /// (an export killed with SIGKILL).
    private static func removeStaleStaging(in directory: String, prefix: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            guard let pid = Int32(entry.dropFirst(prefix.count)), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
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
    private let path: String
    private var descriptor: Int32
    private var buffer: [UInt8] = []

    /// Creates `path`; errors name `name`.
    init(path: String, name: String) throws {
        self.path = path
        self.name = name
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FileError(.cannotWriteOutput, path: name, message: "cannot create the file: \(Errno.current.description)")
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
        return FileError(.cannotWriteOutput, path: name, message: "cannot write the file: \(Errno(rawValue: code).description)\(hint); nothing was replaced")
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
