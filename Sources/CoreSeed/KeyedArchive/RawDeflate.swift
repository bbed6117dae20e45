import CZlib

/// Raw DEFLATE (no zlib header, no checksum), the form of `Z_MODELCACHE.Z_CONTENT` (DESIGN §4c.7):
/// zlib with windowBits −15. Inflating stops at `limit` bytes so a hostile blob cannot fill memory.
public enum RawDeflate {
    /// Why a stream could not be inflated or deflated.
    public struct Failure: Error, Sendable, Equatable {
        public let message: String
    }

    /// The bytes `compressed` inflates to; an error when the stream is damaged, truncated, or would
    /// inflate past `limit` bytes.
    public static func inflate(_ compressed: [UInt8], limit: Int = 64 << 20) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard coreseed_inflate_init_raw(&stream) == Z_OK else { throw Failure(message: "zlib could not start inflating") }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = compressed
        let count = input.count
        // SAFETY: zlib reads `source` only inside this closure; next_in is not used after it returns.
        return try input.withUnsafeMutableBufferPointer { (source) throws(Failure) -> [UInt8] in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(count)
            while true {
                // SAFETY: zlib writes at most avail_out bytes into `target`, only during this closure.
                let (status, produced) = chunk.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, target.count - Int(stream.avail_out))
                }
                output.append(contentsOf: chunk[0..<produced])
                guard output.count <= limit else { throw Failure(message: "inflates to more than \(limit) bytes") }
                switch status {
                case Z_STREAM_END: return output
                case Z_OK: if produced == 0 && stream.avail_in == 0 { throw Failure(message: "a truncated DEFLATE stream") }
                case Z_BUF_ERROR where stream.avail_in == 0: throw Failure(message: "a truncated DEFLATE stream")
                default: throw Failure(message: "not a raw DEFLATE stream (zlib status \(status))")
                }
            }
        }
    }

    /// `bytes` deflated raw at zlib level 5, memLevel 8 (the settings that reproduced Core Data's
    /// bytes); the same input gives the same output on every run.
    public static func deflate(_ bytes: [UInt8], level: Int32 = 5) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard coreseed_deflate_init_raw(&stream, level) == Z_OK else { throw Failure(message: "zlib could not start deflating") }
        defer { deflateEnd(&stream) }
        var input = bytes
        let count = input.count
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(count))) + 16)
        let capacity = output.count
        // SAFETY: both buffers outlive the one deflate call made inside the closures.
        let status = input.withUnsafeMutableBufferPointer { source in
            // SAFETY: zlib writes at most avail_out (the buffer's size, deflateBound's room) bytes.
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(capacity)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(message: "zlib could not deflate (status \(status))") }
        return Array(output[0..<(capacity - Int(stream.avail_out))])
    }
}
