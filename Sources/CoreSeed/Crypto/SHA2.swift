#if canImport(CommonCrypto)
import CommonCrypto
#else
import CCrypto
#endif

/// SHA-2 digests through the platform's crypto library: CommonCrypto on Apple platforms,
/// libcrypto (OpenSSL) elsewhere. Never hand-written. Only `Crypto/` imports the crypto library
/// (`scripts/lint.sh` checks it); every result is checked: a digest that fails traps, since it can
/// only fail when the library itself is broken or out of memory.
public enum SHA2 {
    /// SHA-256 of `bytes` (32 bytes). Calls `CC_SHA256` or OpenSSL's one-shot `SHA256`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CommonCrypto)
        oneShot(bytes, size: 32, "SHA-256") { CC_SHA256($0, CC_LONG($1), $2) }
        #else
        oneShot(bytes, size: 32, "SHA-256") { SHA256($0, $1, $2) }
        #endif
    }

    /// SHA-512 of `bytes` (64 bytes). Calls `CC_SHA512` or OpenSSL's one-shot `SHA512`.
    public static func sha512(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CommonCrypto)
        oneShot(bytes, size: 64, "SHA-512") { CC_SHA512($0, CC_LONG($1), $2) }
        #else
        oneShot(bytes, size: 64, "SHA-512") { SHA512($0, $1, $2) }
        #endif
    }

    /// The `size`-byte digest of `bytes` by the library's one-shot `function` (input, count, output),
    /// checked. Also SHA-1 for ``NameBasedUUID`` (RFC 9562 version 5 requires it).
    // SAFETY: `function` gets views valid for its call only: `count` bytes to read, `size` bytes to write.
    static func oneShot(_ bytes: [UInt8], size: Int, _ name: String,
                        _ function: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: size)
        // SAFETY: both views are used inside the closures only, by the one-shot digest call; `digest` is a local array of the full digest size.
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                precondition(function(input.baseAddress, input.count, output.baseAddress) != nil,
                             "\(name) failed in the platform's crypto library")
            }
        }
        return digest
    }
}
