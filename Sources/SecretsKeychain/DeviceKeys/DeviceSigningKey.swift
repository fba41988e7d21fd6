import Crypto
import Foundation
import Secrets

/// A P-256 signing key made on this device (``DeviceKeys/makeSigningKey(named:protection:storage:)``): in the Secure
/// Enclave, or in software when that was asked for.
///
/// Its description names it, never its material.
public struct DeviceSigningKey: Sendable, CustomStringConvertible {
    /// The key's name in its store.
    public let name: String
    /// Where its private part lives.
    public let storage: DeviceKeyStorage
    /// What the user must do before it signs.
    public let protection: DeviceKeyProtection
    /// The public key, to verify its signatures anywhere.
    public var publicKey: P256.Signing.PublicKey { publicKeyValue.value }
    let publicKeyValue: ImmutableValue<P256.Signing.PublicKey>
    let material: Data
    let enclave: any SecureEnclaveClient

    /// Signs `message` (hashed with SHA-256); a key behind the user's authentication prompts as `authentication`
    /// says.
    public func signature(for message: Data, authentication: AuthenticationContext? = nil) throws(SecretsError)
        -> P256.Signing.ECDSASignature
    {
        do {
            switch storage {
            case .secureEnclave:
                let der = try enclave.signature(for: message, keyData: material, authentication: authentication)
                return try P256.Signing.ECDSASignature(derRepresentation: der)
            case .software:
                return try P256.Signing.PrivateKey(rawRepresentation: material).signature(for: message)
            }
        } catch let error as SecretsError {
            throw error
        } catch {
            throw .corruptData("the device key \(SecretsError.quoted(name))")
        }
    }

    /// Whether `signature` is this key's over `message`.
    public func isValidSignature(_ signature: P256.Signing.ECDSASignature, for message: Data) -> Bool {
        publicKey.isValidSignature(signature, for: message)
    }

    /// `DeviceSigningKey(name, storage, protection)`.
    public var description: String {
        "DeviceSigningKey(\(SecretsError.quoted(name)), \(storage.rawValue), \(protection.rawValue))"
    }
}
