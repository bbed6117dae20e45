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
        guard let info = try? FileSystem.linkStatus(FilePath(path)), info.isRegularFile, info.size >= 100,
              let descriptor = try? FileDescriptor.open(FilePath(path), O_RDONLY | O_NONBLOCK | O_NOFOLLOW) else { return false }
        defer { descriptor.close() }
        var header = [UInt8](repeating: 0, count: 16)
        guard (try? descriptor.read(into: &header, count: 16, at: 0)) == 16 else { return false }
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
    static func openEntry(_ path: String, size: Int? = nil) throws(FileError) -> (FileDescriptor, Int) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(path), O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        } catch {
            let reason = error == .tooManySymbolicLinks ? "it is a symbolic link, which a support folder never holds" : error.description
            throw FileError(path: path, message: "cannot read the external file: \(reason)")
        }
        guard let info = try? descriptor.status(), info.isRegularFile else {
            descriptor.close()
            throw FileError(path: path, message: "the external file is not a regular file (a FIFO, device or folder): remove it, or restore it from a backup")
        }
        if let size, info.size != size {
            descriptor.close()
            throw FileError(path: path, message: "the external file has \(info.size) bytes, not the \(size) expected")
        }
        return (descriptor, info.size)
    }

    /// Copies `source` to `destination` through a staging name beside it: written, fsynced, compared
    /// byte for byte with the source, then renamed. A file already at `destination` with the same bytes
    /// is kept; one with other bytes (a torn copy) is replaced.
    static func copyVerified(from source: String, to destination: String) throws(FileError) {
        let (input, size) = try openEntry(source)
        defer { input.close() }
        if let existing = try? openEntry(destination, size: size) {
            let same = sameBytes(input, existing.0, size: size)
            existing.0.close()
            if same { return }
        }
        let staging = StoreLocations.scratch(.part, besides: destination)
        let output: FileDescriptor
        do {
            output = try FileDescriptor.open(FilePath(staging), O_RDWR | O_CREAT | O_TRUNC | O_NOFOLLOW, permissions: 0o644)
        } catch {
            throw FileError(.cannotWriteOutput, path: destination, message: "cannot create the external file: \(error)")
        }
        var failure: String?
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var offset = 0
        while failure == nil && offset < size {
            let count: Int
            do { count = try input.read(into: &buffer, count: buffer.count, at: offset) } catch { failure = error.description; break }
            if count == 0 { failure = "the source file shrank while it was copied"; break }
            var written = 0
            while written < count {
                // SAFETY: `written < count <= buffer.count`, and the bytes are written before `withUnsafeBytes` returns.
                let step = buffer.withUnsafeBytes { bytes in
                    Result { () throws(Errno) in try output.write(UnsafeRawBufferPointer(rebasing: bytes[written..<count]), at: offset + written) }
                }
                switch step {
                case .success(let done) where done > 0: written += done
                case .success: failure = Errno(rawValue: 0).description + FileError.fileCannotGrowHint
                case .failure(let error): failure = error.description + FileError.fileCannotGrowHint
                }
                if failure != nil { break }
            }
            offset += count
        }
        if failure == nil { do { try output.sync() } catch { failure = error.description } }
        if failure == nil && !sameBytes(input, output, size: size) { failure = "the copy does not read back as the source's bytes" }
        output.close()
        if failure == nil { do { try FileSystem.rename(FilePath(staging), to: FilePath(destination)) } catch { failure = error.description } }
        if let failure {
            FileSystem.remove(FilePath(staging))
            throw FileError(.cannotWriteOutput, path: destination, message: "cannot copy the external file: \(failure)")
        }
    }

    /// Removes the `.UUID.coreseed-PID.part` staging files `copyVerified` left in `folder` when its
    /// process was killed mid-copy (their process no longer exists).
    static func removeStaleParts(in folder: String) {
        guard let names = try? FileSystem.names(in: FilePath(folder)) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".part") {
            guard let marker = name.range(of: ".coreseed-", options: .backwards),
                  let pid = Int32(name[marker.upperBound...].dropLast(".part".count)) else { continue }
            if pid != FileSystem.processID && FileSystem.processIsGone(pid) { FileSystem.remove(FilePath(folder).appending(name)) }
        }
    }

    /// Whether the first `size` bytes of two open files are the same (and the second is that long).
    private static func sameBytes(_ first: FileDescriptor, _ second: FileDescriptor, size: Int) -> Bool {
        guard let info = try? second.status(), info.size == size else { return false }
        var a = [UInt8](repeating: 0, count: 1 << 16), b = a
        var offset = 0
        while offset < size {
            let want = min(a.count, size - offset)
            guard (try? first.read(into: &a, count: want, at: offset)) == want, (try? second.read(into: &b, count: want, at: offset)) == want,
                  a.prefix(want) == b.prefix(want) else { return false }
            offset += want
        }
        return true
    }
}
