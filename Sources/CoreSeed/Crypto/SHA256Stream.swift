#if canImport(CommonCrypto)
import CommonCrypto
#else
import CCrypto
#endif

/// An incremental SHA-256, for inputs too large to hold in memory (libcrypto's EVP digest API, or
/// CommonCrypto's `CC_SHA256_Update`). Not `Sendable`: it owns a mutable C context; freed on deinit.
/// Every libcrypto result is checked; a failure traps (the library is broken or out of memory).
public final class SHA256Stream {
    #if canImport(CommonCrypto)
    private var context = CC_SHA256_CTX()
    #else
    private let context: OpaquePointer
    #endif

    public init() {
        #if canImport(CommonCrypto)
        CC_SHA256_Init(&context)
        #else
        guard let context = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed: out of memory") }
        precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "EVP_DigestInit_ex(SHA-256) failed")
        self.context = context
        #endif
    }

    deinit {
        #if !canImport(CommonCrypto)
        EVP_MD_CTX_free(context)
        #endif
    }

    /// Adds `bytes` to the digest (`EVP_DigestUpdate`).
    /// SAFETY: reads `bytes` during the call only (EVP_DigestUpdate copies into the context).
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        #if canImport(CommonCrypto)
        CC_SHA256_Update(&context, base, CC_LONG(bytes.count))
        #else
        precondition(EVP_DigestUpdate(context, base, bytes.count) == 1, "EVP_DigestUpdate failed")
        #endif
    }

    public func update(_ bytes: [UInt8]) {
        // SAFETY: the view is used inside the closure only.
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest (`EVP_DigestFinal_ex`). Call once.
    public func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        // SAFETY: the 32-byte output buffer is written inside the closure only.
        digest.withUnsafeMutableBufferPointer { output in
            #if canImport(CommonCrypto)
            _ = CC_SHA256_Final(output.baseAddress, &context)
            #else
            var length: UInt32 = 0
            precondition(EVP_DigestFinal_ex(context, output.baseAddress, &length) == 1 && length == 32, "EVP_DigestFinal_ex failed")
            #endif
        }
        return digest
    }
}
