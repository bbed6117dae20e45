#if canImport(CommonCrypto)
import CommonCrypto
#else
import CCrypto
#endif

/// UUIDs derived from names and seeds, for `{"uuid": …}` attributes (docs/SPEC.md):
/// - ``version5(namespace:name:)``: RFC 9562 §5.5 (SHA-1 of the namespace's 16 bytes and the name's
///   UTF-8), what Python's `uuid.uuid5` and every platform's v5 give, so an app or a server can derive
///   the same id from the same key;
/// - ``random(seed:counter:)``: RFC 9562 version 4 bits from SHA-256 of a seed and a counter, so a
///   build that asks for random ids is still byte-identical from run to run.
public enum NameBasedUUID {
    /// RFC 9562's URL namespace, `6ba7b811-9dad-11d1-80b4-00c04fd430c8`.
    public static let urlNamespace: [UInt8] = [0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8]

    /// The version-5 UUID of `name` in `namespace` (16 bytes).
    public static func version5(namespace: [UInt8], name: String) -> [UInt8] {
        let input = namespace + Array(name.utf8)
        #if canImport(CommonCrypto)
        let digest = SHA2.oneShot(input, size: 20, "SHA-1") { CC_SHA1($0, CC_LONG($1), $2) }
        #else
        let digest = SHA2.oneShot(input, size: 20, "SHA-1") { SHA1($0, $1, $2) }
        #endif
        return stamped(Array(digest.prefix(16)), version: 5)
    }

    /// A version-4 UUID from SHA-256 of `seed`, a zero byte and `counter` (decimal).
    public static func random(seed: String, counter: Int) -> [UInt8] {
        stamped(Array(SHA2.sha256(Array(seed.utf8) + [0] + Array(String(counter).utf8)).prefix(16)), version: 4)
    }

    /// `bytes` with the version in the high nibble of byte 6 and the RFC 9562 variant in byte 8.
    private static func stamped(_ bytes: [UInt8], version: UInt8) -> [UInt8] {
        var bytes = bytes
        bytes[6] = (bytes[6] & 0x0f) | (version << 4)
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        return bytes
    }

    /// The canonical text (upper case, as Foundation's `UUID.uuidString`).
    public static func text(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        let hex = String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}
