import Crypto
import Foundation
import Secrets

/// A P-256 key-agreement key made on this device (``DeviceKeys/makeKeyAgreementKey(named:protection:storage:)``): in
/// the Secure Enclave, or in software when that was asked for.
///
/// Its description names it, never its material.
public struct DeviceKeyAgreementKey: Sendable, CustomStringConvertible {
    /// The key's name in its store.
    public let name: String
    /// Where its private part lives.
    public let storage: DeviceKeyStorage
    /// What the user must do before it agrees.
    public let protection: DeviceKeyProtection
    /// The public key, for the other party.
    public var publicKey: P256.KeyAgreement.PublicKey { publicKeyValue.value }
    let publicKeyValue: ImmutableValue<P256.KeyAgreement.PublicKey>
    let material: Data
    let enclave: any SecureEnclaveClient

    /// The secret this key agrees with `otherPublicKey` (derive a symmetric key from it, with HKDF); a key behind
    /// the user's authentication prompts as `authentication` says.
    public func sharedSecret(
        with otherPublicKey: P256.KeyAgreement.PublicKey, authentication: AuthenticationContext? = nil
    ) throws(SecretsError) -> SharedSecret {
        do {
            switch storage {
            case .secureEnclave:
                return try enclave.sharedSecret(keyData: material, with: otherPublicKey, authentication: authentication)
            case .software:
                return try P256.KeyAgreement.PrivateKey(rawRepresentation: material)
                    .sharedSecretFromKeyAgreement(with: otherPublicKey)
            }
        } catch let error as SecretsError {
            throw error
        } catch {
            throw .corruptData("the device key \(SecretsError.quoted(name))")
        }
    }

    /// `DeviceKeyAgreementKey(name, storage, protection)`.
    public var description: String {
        "DeviceKeyAgreementKey(\(SecretsError.quoted(name)), \(storage.rawValue), \(protection.rawValue))"
    }
}
