import Foundation

/// One owner for a support folder, and external files copied so that a torn copy is never kept.
///
/// `.NAME_SUPPORT` is named after the store's file name without its extension, so `Store.sqlite` and
/// `Store.bak` in one folder would share one: a run writing one of them is refused before anything is
/// written while another store of that name is there. Clean-up removes only files the destination's
/// previous rows referred to; a file of any other store is never removed or rewritten.
extension ExternalDataFolder {
    /// The support folder (`.NAME_SUPPORT`) of the store at `store`.
    static func supportFolder(ofStoreAt store: String) -> String {
        StoreLocations.supportFolder(ofStoreAt: store)
    }

    /// Refuses to write the store at `store` when another store in its folder maps to the same
    /// support folder (`Carriers.db` beside `Carriers.sqlite`), naming both.
    static func refuseSharedSupportFolder(_ store: String) throws(FileError) {
        let url = URL(fileURLWithPath: store)
        let folder = url.deletingLastPathComponent().path, name = url.lastPathComponent
        let support = supportFolder(ofStoreAt: folder + "/" + name)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for other in names.sorted() where other != name && !other.hasPrefix(".")
            && supportFolder(ofStoreAt: folder + "/" + other) == support
            && !StoreLocations.isSidecar(other) && isStore(folder + "/" + other) {
            let shared = URL(fileURLWithPath: support).lastPathComponent
            throw FileError(.badRequest, path: store,
                            message: "this store and \(folder + "/" + other) would share one support folder (\(shared), where external files live): nothing was written; give the store a name of its own, such as another name before the extension")
        }
    }

    /// Whether `path` is a regular file that starts like an SQLite database and holds Core Data's
    /// `Z_METADATA` table (a legacy SQLite source beside the output, `banks.sqlite3` beside
    /// `banks.sqlite`, owns no support folder). One that cannot be read counts as a store.
    private static func isStore(_ path: String) -> Bool {
        guard startsLikeSQLite(path) else { return false }
        guard let database = try? SQLiteDatabase(path: path, mode: .readOnly(immutable: true)),
              case .integer(let count)? = try? database.scalar(CoreDataSQL.metadataTableCount)
        else { return true }
        return count > 0
    }

    private static func startsLikeSQLite(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 100 else { return false }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 16)
        guard pread(descriptor, &header, 16, 0) == 16 else { return false }
        return header == Array("SQLite format 3".utf8) + [0]
    }

    /// The external files the rows of the store at `store` refer to, before it is replaced; nil when it
    /// cannot be read (then nothing is removed: an orphan file is better than a lost one).
    static func previousReferences(ofStoreAt store: String, timeout: Duration) -> Set<String>? {
        guard FileManager.default.fileExists(atPath: ExternalBinary.dataDirectory(forStoreAt: store)) else { return [] }
        guard FileManager.default.fileExists(atPath: store) else { return [] }
        return try? StoreSnapshot.read(path: store, timeout: timeout) { snapshot -> Set<String> in
            let database = snapshot.database
            var result = Set<String>()
            let tables = try database.rows(CoreDataSQL.storedTables)
            for case .text(let table)? in tables.map(\.first) {
                for column in try database.rows("PRAGMA table_info(\(SQLIdentifier.quoted(table)))") where column.count > 2 {
                    guard case .text(let name) = column[1], case .text(let type) = column[2], type.uppercased() == "BLOB" else { continue }
                    let sql = CoreDataSQL.storedReferences(table: table, column: name)
                    for row in try database.rows(sql) {
                        if case .blob(let bytes) = row[0], case .reference(let uuid) = ExternalBinary.decode(bytes) { result.insert(uuid) }
                    }
                }
            }
            return result
        }
    }

    /// Opens a support-folder entry for reading: never through a symlink, never a FIFO or device, and
    /// (when `size` is given) of that size. Returns the descriptor and the file's size.
    static func openEntry(_ path: String, size: Int? = nil) throws(FileError) -> (Int32, Int) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link, which a support folder never holds" : String(cString: strerror(errno))
            throw FileError(path: path, message: "cannot read the external file: \(reason)")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw FileError(path: path, message: "the external file is not a regular file (a FIFO, device or folder): remove it, or restore it from a backup")
        }
        if let size, Int(info.st_size) != size {
            close(descriptor)
            throw FileError(path: path, message: "the external file has \(info.st_size) bytes, not the \(size) expected")
        }
        return (descriptor, Int(info.st_size))
    }

    /// Copies `source` to `destination` through a staging name beside it: written, fsynced, compared
    /// byte for byte with the source, then renamed. A file already at `destination` with the same bytes
    /// is kept; one with other bytes (a torn copy) is replaced.
    static func copyVerified(from source: String, to destination: String) throws(FileError) {
        let (input, size) = try openEntry(source)
        defer { close(input) }
        if let existing = try? openEntry(destination, size: size) {
            let same = sameBytes(input, existing.0, size: size)
            close(existing.0)
            if same { return }
        }
        let staging = StoreLocations.scratch(.part, besides: destination)
        let output = open(staging, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard output >= 0 else {
            throw FileError(.cannotWriteOutput, path: destination, message: "cannot create the external file: \(String(cString: strerror(errno)))")
        }
        var failure: String?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while failure == nil && offset < size {
            let count = pread(input, &buffer, buffer.count, off_t(offset))
            if count <= 0 { failure = count == 0 ? "the source file shrank while it was copied" : String(cString: strerror(errno)); break }
            var written = 0
            while written < count {
                // SAFETY: `written < count <= buffer.count`, and the bytes are written before `withUnsafeBytes` returns.
                let step = buffer.withUnsafeBytes { pwrite(output, $0.baseAddress! + written, count - written, off_t(offset + written)) }
                if step <= 0 { failure = String(cString: strerror(errno)) + FileError.fileCannotGrowHint; break }
                written += step
            }
            offset += count
        }
        if failure == nil && fsync(output) != 0 { failure = String(cString: strerror(errno)) }
        if failure == nil && !sameBytes(input, output, size: size) { failure = "the copy does not read back as the source's bytes" }
        close(output)
        if failure == nil && rename(staging, destination) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(staging)
            throw FileError(.cannotWriteOutput, path: destination, message: "cannot copy the external file: \(failure)")
        }
    }

    /// Removes the `.UUID.coreseed-PID.part` staging files `copyVerified` left in `folder` when its
    /// process was killed mid-copy (their process no longer exists).
    static func removeStaleParts(in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".part") {
            guard let marker = name.range(of: ".coreseed-", options: .backwards),
                  let pid = Int32(name[marker.upperBound...].dropLast(".part".count)) else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH { unlink(folder + "/" + name) }
        }
    }

    /// Whether the first `size` bytes of two open files are the same (and the second is that long).
    private static func sameBytes(_ first: Int32, _ second: Int32, size: Int) -> Bool {
        var info = stat()
        guard fstat(second, &info) == 0, Int(info.st_size) == size else { return false }
        var a = [UInt8](repeating: 0, count: 1 << 16), b = a
        var offset = 0
        while offset < size {
            let want = min(a.count, size - offset)
            guard pread(first, &a, want, off_t(offset)) == want, pread(second, &b, want, off_t(offset)) == want,
                  a.prefix(want) == b.prefix(want) else { return false }
            offset += want
        }
        return true
    }
}
