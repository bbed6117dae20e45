import Foundation

/// How Core Data stores a Binary attribute that allows external storage (`_PFExternalReferenceData.m`,
/// DESIGN §4b.10): the column holds `0x01` + the bytes when they are inline, or `0x02` + a 36-character
/// uppercase UUID + `0x00` when they live in `.<store name>_SUPPORT/_EXTERNAL_DATA/<UUID>` beside the
/// store. Any first byte other than `0x01` is read as a reference.
public enum ExternalBinary {
    static let inlineMarker: UInt8 = 0x01
    static let referenceMarker: UInt8 = 0x02

    /// What a stored column value is.
    public enum Stored: Equatable, Sendable {
        /// The bytes, inline: the column's own storage after the marker, not a copy. A copy here
        /// (`Array(column.dropFirst())`) was written after Swift 6.3.1's optimizer had freed it, in every
        /// caller that ignores the bytes (the verifier's check): `Tests/Reproducers/DeadArrayCopy.swift`.
        case inline(ArraySlice<UInt8>)
        /// A reference to the external file named by this UUID.
        case reference(String)
        /// Neither: Core Data would read it as a reference to a file that cannot exist.
        case malformed
    }

    public static func decode(_ column: [UInt8]) -> Stored {
        guard let first = column.first else { return .malformed }
        if first == inlineMarker { return .inline(column.dropFirst()) }
        guard first == referenceMarker, column.count == 38, column[37] == 0 else { return .malformed }
        let uuid = String(decoding: column[1..<37], as: UTF8.self)
        return isFileName(uuid) ? .reference(uuid) : .malformed
    }

    /// Whether `name` is an external file's name: a 36-character uppercase UUID.
    static func isFileName(_ name: String) -> Bool {
        let hex = Set("0123456789ABCDEF".utf8)
        return name.utf8.count == 36 && name.utf8.enumerated().allSatisfy { offset, byte in
            [8, 13, 18, 23].contains(offset) ? byte == UInt8(ascii: "-") : hex.contains(byte)
        }
    }

    /// The folder of external files of the store at `storePath` (`.<name without extension>_SUPPORT/_EXTERNAL_DATA`).
    public static func dataDirectory(forStoreAt storePath: String) -> String {
        StoreLocations(storePath).externalData
    }

    /// The largest value read into memory: SQLite's own limit on a BLOB (2^31 - 1 bytes).
    static let largestValue = Int(Int32.max)

    /// The value a column holds, as the bytes it stands for: inline bytes unwrapped, a reference read
    /// from `directory`. Throws for a malformed value or a missing file (naming `row` and `attribute`).
    static func load(_ column: [UInt8], from directory: String, row: String, attribute: String) throws(FileError) -> SQLiteValue {
        switch decode(column) {
        case .inline(let bytes): return .blob(Array(bytes))
        case .reference(let uuid):
            let path = directory + "/" + uuid
            guard (try? FileSystem.linkStatus(FilePath(path))) != nil else {
                throw FileError(.unreadableInput, path: path, message: "\(row): \(attribute) refers to this external file, which is missing")
            }
            // Never through a symlink, never a FIFO or device: a regular file, read to its size.
            let (descriptor, size) = try ExternalDataFolder.openEntry(path)
            defer { descriptor.close() }
            // A size from the file system is not trusted with an allocation: a sparse file can claim exabytes.
            guard size <= ExternalBinary.largestValue else {
                throw FileError(.unreadableInput, path: path, message: "\(row): \(attribute): the external file has \(size) bytes, more than one value can hold (\(ExternalBinary.largestValue), SQLite's limit)")
            }
            var bytes = [UInt8](repeating: 0, count: size)
            var offset = 0
            while offset < size {
                // SAFETY: `offset < size == bytes.count`; the read stays inside the buffer.
                let count = bytes.withUnsafeMutableBytes { all in
                    Result { () throws(Errno) in try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: all[offset...]), at: offset) }
                }
                guard case .success(let count) = count, count > 0 else {
                    let reason = if case .failure(let error) = count { error.description } else { "it shrank while read" }
                    throw FileError(.unreadableInput, path: path, message: "\(row): \(attribute): cannot read the external file: \(reason)")
                }
                offset += count
            }
            return .blob(bytes)
        case .malformed:
            throw FileError(message: "\(row): \(attribute) allows external storage but holds a value without Core Data's marker (0x01 inline or 0x02 reference)")
        }
    }
}
