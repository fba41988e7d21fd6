import Crypto
import Foundation
import Secrets

/// A Secure Enclave made on demand: the calls ``DeviceKeys`` needs, over opaque key data.
///
/// `LiveSecureEnclave` is CryptoKit's `SecureEnclave.P256` on Apple devices; ``SecureEnclaveEmulator`` keeps the same
/// rules (device-bound key data, prompts, a changed biometry) for tests. Errors are ``Secrets/SecretsError``s.
public protocol SecureEnclaveClient: Sendable {
    /// Whether the device has a Secure Enclave (not on Linux, the simulator, or a Mac without one).
    var isAvailable: Bool { get }
    /// Makes a P-256 key for `purpose` inside the Secure Enclave, usable after `protection`; returns its data
    /// representation (opaque, usable only on this device) and its public key (X9.63).
    func makeKey(_ purpose: DeviceKeyPurpose, protection: DeviceKeyProtection) throws(SecretsError)
        -> (keyData: Data, publicKey: Data)
    /// Signs `message` (hashed with SHA-256) with the signing key `keyData`; the signature in DER.
    func signature(for message: Data, keyData: Data, authentication: AuthenticationContext?) throws(SecretsError)
        -> Data
    /// The secret the key-agreement key `keyData` agrees with `publicKey`.
    func sharedSecret(
        keyData: Data, with publicKey: P256.KeyAgreement.PublicKey, authentication: AuthenticationContext?
    )
        throws(SecretsError) -> SharedSecret
}
