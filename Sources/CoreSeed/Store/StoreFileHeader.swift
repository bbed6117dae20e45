import Foundation

/// Facts read from the first 100 bytes of a SQLite file (the database header, sqlite.org/fileformat.html §1.3)
/// with plain file I/O, so the file is never opened with SQLite and nothing beside it is created or changed.
public struct StoreFileHeader: Sendable, Equatable {
    /// How the file is journaled, from the read/write format versions (header bytes 18 and 19).
    public enum JournalMode: String, Sendable {
        /// 1/1: a rollback journal (DELETE, TRUNCATE or PERSIST — the header does not say which).
        case rollback
        /// 2/2: write-ahead log.
        case wal
        /// Any other pair.
        case unknown
    }

    /// SQLite's `auto_vacuum` setting (header bytes 52–55 and 64–67).
    public enum AutoVacuum: String, Sendable {
        case none, full, incremental
    }

    public let journalMode: JournalMode
    /// Header bytes 18 and 19 as found.
    public let formatVersions: (write: UInt8, read: UInt8)
    /// Bytes per page (header bytes 16–17; 1 means 65536).
    public let pageSize: Int
    public let autoVacuum: AutoVacuum

    public static func == (lhs: StoreFileHeader, rhs: StoreFileHeader) -> Bool {
        lhs.journalMode == rhs.journalMode && lhs.formatVersions == rhs.formatVersions
            && lhs.pageSize == rhs.pageSize && lhs.autoVacuum == rhs.autoVacuum
    }

    /// Parses a header. Nil unless `bytes` holds at least 100 bytes starting with "SQLite format 3\0".
    public init?(bytes: [UInt8]) {
        guard bytes.count >= 100, bytes.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
        let write = bytes[18], read = bytes[19]
        formatVersions = (write, read)
        switch (write, read) {
        case (1, 1): journalMode = .rollback
        case (2, 2): journalMode = .wal
        default: journalMode = .unknown
        }
        let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        func word(_ offset: Int) -> UInt32 {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        if word(52) == 0 {
            autoVacuum = .none
        } else {
            autoVacuum = word(64) != 0 ? .incremental : .full
        }
    }

    /// Reads the header of the file at `path` (`open`/`read`, read-only).
    public init(path: String) throws(FileError) {
        try FileError.refuseIrregular(path, role: "the store")
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FileError(.unreadableInput, path: path, message: "no store at this path")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: 100)) ?? nil
        guard let header = StoreFileHeader(bytes: [UInt8](data ?? Data())) else {
            throw FileError(path: path, message: "not a SQLite database (no 'SQLite format 3' header)")
        }
        self = header
    }
}
