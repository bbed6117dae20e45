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
        var digest = [UInt8](repeating: 0, count: 32)
        // SAFETY: both views are used inside the closures only, by the one-shot digest call; `digest` is a local array of the full digest size.
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                #if canImport(CommonCrypto)
                let result = CC_SHA256(input.baseAddress, CC_LONG(input.count), output.baseAddress)
                #else
                let result = SHA256(input.baseAddress, input.count, output.baseAddress)
                #endif
                precondition(result != nil, "SHA-256 failed in the platform's crypto library")
            }
        }
        return digest
    }

    /// SHA-512 of `bytes` (64 bytes). Calls `CC_SHA512` or OpenSSL's one-shot `SHA512`.
    public static func sha512(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 64)
        // SAFETY: both views are used inside the closures only, by the one-shot digest call; `digest` is a local array of the full digest size.
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                #if canImport(CommonCrypto)
                let result = CC_SHA512(input.baseAddress, CC_LONG(input.count), output.baseAddress)
                #else
                let result = SHA512(input.baseAddress, input.count, output.baseAddress)
                #endif
                precondition(result != nil, "SHA-512 failed in the platform's crypto library")
            }
        }
        return digest
    }
}
