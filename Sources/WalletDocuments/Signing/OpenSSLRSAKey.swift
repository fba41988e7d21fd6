import Foundation
import Secrets

/// An RSA private key loaded once into OpenSSL's libcrypto, which makes PKCS#1 v1.5 signatures over SHA-256
/// digests from any thread.
///
/// The key is parsed once (`d2i_AutoPrivateKey`) and freed in `deinit`. Each signature takes an `EVP_PKEY_CTX`
/// from a small pool (creating one, set up for PKCS#1 v1.5 padding and SHA-256, when the pool is empty) and puts it
/// back afterwards, so a context is used by one thread at a time and set up only once.
///
/// `@unchecked Sendable`: `key` is never modified after `init` (OpenSSL 3 allows one `EVP_PKEY` to be used by many
/// threads at once as long as none modifies it), and every context is taken out of `contexts` under its lock
/// before use, so no two threads use the same context; `library` is itself `Sendable`.
final class OpenSSLRSAKey: @unchecked Sendable {
    /// The most contexts kept for reuse; more threads signing at once create (and free) their own.
    static let poolLimit = 16

    let library: LibCrypto
    private let key: OpaquePointer
    /// The key's modulus size in bits.
    let bits: Int
    /// The length of every signature, in bytes (the modulus size).
    let signatureSize: Int
    private let contexts = Locked<[OpaquePointer]>([])

    /// Loads an RSA private key from DER (PKCS#1 or PKCS#8).
    ///
    /// - Throws: ``WalletDocumentError/unreadableKey(_:)`` when the bytes are not a private key, not an RSA key or
    ///   an RSA key shorter than 2048 bits. The message never contains key material.
    init(derRepresentation der: Data, library: LibCrypto) throws(WalletDocumentError) {
        self.library = library
        let decoded: OpaquePointer? = der.withUnsafeBytes { bytes in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            return library.decodePrivateKey(nil, &cursor, bytes.count)
        }
        guard let decoded else {
            library.errorClear()
            throw .unreadableKey("not a DER private key (PKCS#1 or PKCS#8)")
        }
        guard library.keyBaseID(decoded) == LibCrypto.rsaKeyType else {
            library.keyFree(decoded)
            throw .unreadableKey("not an RSA private key (Pass Type ID keys are RSA)")
        }
        let bits = Int(library.keyBits(decoded))
        guard bits >= 2048 else {
            library.keyFree(decoded)
            throw .unreadableKey("the RSA key has \(bits) bits; signing keys need at least 2048")
        }
        self.key = decoded
        self.bits = bits
        self.signatureSize = Int(library.keySize(decoded))
    }

    deinit {
        for context in contexts.withLock({ $0 }) { library.contextFree(context) }
        library.keyFree(key)
    }

    /// Signs a SHA-256 `digest` (32 bytes) with PKCS#1 v1.5 padding, writing exactly ``signatureSize`` bytes to
    /// `output`.
    func sign(sha256 digest: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        throws(WalletDocumentError)
    {
        precondition(digest.count == 32 && output.count == signatureSize)
        let context = try takeContext()
        var length = output.count
        let status = library.sign(
            context, output.bindMemory(to: UInt8.self).baseAddress, &length,
            digest.bindMemory(to: UInt8.self).baseAddress, digest.count)
        guard status == 1, length == signatureSize else {
            library.contextFree(context)
            throw .signingFailed("OpenSSL could not sign: \(library.drainErrors())")
        }
        returnContext(context)
    }

    /// A context ready to sign: one from the pool, or a new one set up for PKCS#1 v1.5 with SHA-256.
    private func takeContext() throws(WalletDocumentError) -> OpaquePointer {
        if let context = contexts.withLock({ $0.popLast() }) { return context }
        guard let context = library.contextNew(key, nil) else {
            throw .signingFailed("OpenSSL could not make a signing context: \(library.drainErrors())")
        }
        guard library.signInit(context) == 1, library.setRSAPadding(context, LibCrypto.pkcs1Padding) == 1,
            library.setSignatureDigest(context, library.sha256()) == 1
        else {
            library.contextFree(context)
            throw .signingFailed("OpenSSL could not set up RSA PKCS#1 v1.5 with SHA-256: \(library.drainErrors())")
        }
        return context
    }

    private func returnContext(_ context: OpaquePointer) {
        let kept = contexts.withLock { pool in
            guard pool.count < Self.poolLimit else { return false }
            pool.append(context)
            return true
        }
        if !kept { library.contextFree(context) }
    }
}
