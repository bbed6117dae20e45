#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read with `read(2)` in large chunks and handed out as UTF-8.
///
/// Detects and removes a byte-order mark (which overrides the declared encoding) and transcodes
/// UTF-16 and single-byte encodings to UTF-8 chunk by chunk, carrying partial code units over.
/// UTF-8 input is passed through unchecked; the tokenizer validates it field by field.
///
/// Not `Sendable`: it owns a file descriptor and a buffer used by one reader.
final class CSVByteSource {
    /// A transcoding or I/O failure, raised after the valid bytes before it were handed out.
    enum Failure: Error { case reason(ReaderError.Reason) }

    private let descriptor: FileDescriptor
    // SAFETY: allocated in init, freed in deinit, never handed out: the source owns it for its life.
    private var raw: UnsafeMutablePointer<UInt8>
    private let rawCapacity: Int
    private var rawStart = 0
    private var rawEnd = 0
    private var rawEOF = false
    private var pendingFailure: ReaderError.Reason?
    /// The encoding in effect after looking at the byte-order mark.
    private(set) var encoding: CSVEncoding

    /// Opens `path` (`open(2)`), reads the first chunk and honours a byte-order mark.
    init(path: String, encoding declared: CSVEncoding, chunkSize: Int = 1 << 20) throws(ReaderError) {
        do {
            descriptor = try FileDescriptor.open(FilePath(path), O_RDONLY)
        } catch {
            let location = SourceLocation(file: path)
            if error == .noSuchFileOrDirectory || error == .notDirectory { throw ReaderError(.fileNotFound, at: location) }
            throw ReaderError(.cannotOpen(error.description), at: location)
        }
        rawCapacity = max(chunkSize, 16)
        raw = .allocate(capacity: rawCapacity)
        encoding = declared
        do {
            try refillRaw()
        } catch {
            throw ReaderError(error.reason, at: SourceLocation(file: path))
        }
        let available = rawEnd - rawStart
        if available >= 3, raw[0] == 0xEF, raw[1] == 0xBB, raw[2] == 0xBF {
            encoding = .utf8; rawStart = 3
        } else if available >= 2, raw[0] == 0xFF, raw[1] == 0xFE {
            encoding = .utf16LE; rawStart = 2
        } else if available >= 2, raw[0] == 0xFE, raw[1] == 0xFF {
            encoding = .utf16BE; rawStart = 2
        }
    }

    deinit {
        descriptor.close()
        raw.deallocate()
    }

    /// Moves undecoded bytes to the front and reads more; sets `rawEOF` at end of file.
    private func refillRaw() throws(Failure) {
        if rawStart > 0 {
            let leftover = rawEnd - rawStart
            if leftover > 0 { raw.update(from: raw + rawStart, count: leftover) }
            rawStart = 0
            rawEnd = leftover
        }
        while rawEnd < rawCapacity {
            let count: Int
            // SAFETY: `raw` holds `rawCapacity` bytes owned by this source; the read fills the free tail.
            do {
                count = try descriptor.read(into: UnsafeMutableRawBufferPointer(start: raw + rawEnd, count: rawCapacity - rawEnd))
            } catch {
                throw .reason(.cannotRead(error.description))
            }
            if count == 0 { rawEOF = true }
            rawEnd += count
            return
        }
    }

    /// Writes up to `capacity` UTF-8 bytes at `destination`; 0 only at the end of the file.
    /// SAFETY: writes within `capacity` bytes of the reader's buffer during the call; keeps no pointer to it.
    func fill(_ destination: UnsafeMutablePointer<UInt8>, capacity: Int) throws(Failure) -> Int {
        precondition(capacity >= 4, "destination too small")
        while true {
            if rawStart == rawEnd || (encoding != .utf8 && encoding != .windows1252 && encoding != .isoLatin1 && rawEnd - rawStart < 4) {
                if !rawEOF { try refillRaw() }
            }
            let written: Int
            switch encoding {
            case .utf8:
                written = min(capacity, rawEnd - rawStart)
                destination.update(from: raw + rawStart, count: written)
                rawStart += written
            case .windows1252, .isoLatin1:
                written = transcodeSingleByte(into: destination, capacity: capacity)
            case .utf16LE, .utf16BE:
                written = transcodeUTF16(into: destination, capacity: capacity)
            }
            if written > 0 { return written }
            if let pendingFailure { throw .reason(pendingFailure) }
            if rawEOF && rawStart == rawEnd { return 0 }
            if rawEOF { continue }
        }
    }

    // SAFETY: writes within `capacity` bytes of the reader's buffer during the call; keeps no pointer to it.
    private func transcodeSingleByte(into destination: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int {
        var out = 0
        let latin1 = encoding == .isoLatin1
        while rawStart < rawEnd && out + 3 <= capacity {
            let byte = raw[rawStart]
            rawStart += 1
            if byte < 0x80 {
                destination[out] = byte
                out += 1
            } else {
                let scalar: UInt32 = (latin1 || byte >= 0xA0) ? UInt32(byte) : Self.windows1252High[Int(byte - 0x80)]
                out += Self.encodeUTF8(scalar, into: destination + out)
            }
        }
        return out
    }

    // SAFETY: writes within `capacity` bytes of the reader's buffer during the call; keeps no pointer to it.
    private func transcodeUTF16(into destination: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int {
        var out = 0
        let littleEndian = encoding == .utf16LE
        @inline(__always) func unit(at index: Int) -> UInt32 {
            littleEndian ? UInt32(raw[index]) | UInt32(raw[index + 1]) << 8 : UInt32(raw[index]) << 8 | UInt32(raw[index + 1])
        }
        while out + 4 <= capacity && pendingFailure == nil {
            let available = rawEnd - rawStart
            if available < 2 {
                if available == 1 && rawEOF { pendingFailure = .invalidUTF16("the file ends in the middle of a code unit") }
                break
            }
            let first = unit(at: rawStart)
            if first >= 0xD800 && first < 0xDC00 {
                if available < 4 {
                    if rawEOF { pendingFailure = .invalidUTF16("unpaired surrogate 0x\(String(first, radix: 16, uppercase: true))") }
                    break
                }
                let second = unit(at: rawStart + 2)
                guard second >= 0xDC00 && second < 0xE000 else {
                    pendingFailure = .invalidUTF16("unpaired surrogate 0x\(String(first, radix: 16, uppercase: true))")
                    break
                }
                out += Self.encodeUTF8(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00), into: destination + out)
                rawStart += 4
            } else if first >= 0xDC00 && first < 0xE000 {
                pendingFailure = .invalidUTF16("unpaired surrogate 0x\(String(first, radix: 16, uppercase: true))")
                break
            } else {
                out += Self.encodeUTF8(first, into: destination + out)
                rawStart += 2
            }
        }
        return out
    }

    @inline(__always)
    // SAFETY: writes within `capacity` bytes of the reader's buffer during the call; keeps no pointer to it.
    static func encodeUTF8(_ scalar: UInt32, into destination: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case ..<0x80:
            destination[0] = UInt8(scalar)
            return 1
        case ..<0x800:
            destination[0] = UInt8(0xC0 | scalar >> 6)
            destination[1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case ..<0x10000:
            destination[0] = UInt8(0xE0 | scalar >> 12)
            destination[1] = UInt8(0x80 | (scalar >> 6) & 0x3F)
            destination[2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            destination[0] = UInt8(0xF0 | scalar >> 18)
            destination[1] = UInt8(0x80 | (scalar >> 12) & 0x3F)
            destination[2] = UInt8(0x80 | (scalar >> 6) & 0x3F)
            destination[3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }

    /// Windows-1252 bytes 0x80…0x9F; the five undefined ones map to the C1 controls (as WHATWG does).
    static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}

extension CSVByteSource.Failure {
    var reason: ReaderError.Reason {
        switch self { case .reason(let reason): return reason }
    }
}
