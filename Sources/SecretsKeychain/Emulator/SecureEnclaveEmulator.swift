import Crypto
import Foundation
import Secrets

/// A Secure Enclave with the rules ``DeviceKeys`` relies on, for tests and previews: key data that only this
/// emulated device can use (sealed under a key of its own), keys whose use prompts through the emulated device
/// (``SecItemEmulator``'s prompts, scripted answers, lock and biometric enrolment), and a key bound to the current
/// biometry that is gone once the enrolment changes. With `isAvailable: false` it is a device without one.
public final class SecureEnclaveEmulator: SecureEnclaveClient {
    /// The emulated device whose user answers the prompts.
    public let device: SecItemEmulator
    /// Whether the emulated device has a Secure Enclave.
    public let isAvailable: Bool
    /// The key only this emulated Secure Enclave holds: what makes its key data device-bound.
    private let deviceKey = SymmetricKey(size: .bits256)

    /// What the opaque key data holds.
    private struct SealedKey: Codable {
        var purpose: DeviceKeyPurpose
        var protection: DeviceKeyProtection
        var privateKey: Data
        var enrollment: Int
    }

    /// Creates the Secure Enclave of `device`.
    public init(device: SecItemEmulator, isAvailable: Bool = true) {
        self.device = device
        self.isAvailable = isAvailable
    }

    /// Makes a key and returns its sealed data and public key.
    public func makeKey(_ purpose: DeviceKeyPurpose, protection: DeviceKeyProtection) throws(SecretsError)
        -> (keyData: Data, publicKey: Data)
    {
        guard isAvailable else { throw .unsupported("the emulated device has no Secure Enclave") }
        let (privateKey, publicKey) = purpose.makeSoftwareKey()
        let sealed = SealedKey(
            purpose: purpose, protection: protection, privateKey: privateKey, enrollment: device.currentEnrollment)
        do {
            return (try AES.GCM.seal(try JSONEncoder().encode(sealed), using: deviceKey).combined!, publicKey)
        } catch {
            throw .unavailable("the emulated Secure Enclave could not seal a key")
        }
    }

    /// Signs with a signing key made here, once its protection lets it.
    public func signature(for message: Data, keyData: Data, authentication: AuthenticationContext?)
        throws(SecretsError) -> Data
    {
        let key = try open(keyData, .signing, authentication)
        do {
            return try P256.Signing.PrivateKey(rawRepresentation: key.privateKey).signature(for: message)
                .derRepresentation
        } catch {
            throw .corruptData("the Secure Enclave key data")
        }
    }

    /// Agrees a secret with a key-agreement key made here, once its protection lets it.
    public func sharedSecret(
        keyData: Data, with publicKey: P256.KeyAgreement.PublicKey, authentication: AuthenticationContext?
    ) throws(SecretsError) -> SharedSecret {
        let key = try open(keyData, .keyAgreement, authentication)
        do {
            return try P256.KeyAgreement.PrivateKey(rawRepresentation: key.privateKey)
                .sharedSecretFromKeyAgreement(with: publicKey)
        } catch {
            throw .corruptData("the Secure Enclave key data")
        }
    }

    /// The key sealed in `keyData`, once the user allowed its use.
    private func open(_ keyData: Data, _ purpose: DeviceKeyPurpose, _ authentication: AuthenticationContext?)
        throws(SecretsError) -> SealedKey
    {
        guard isAvailable else { throw .unsupported("the emulated device has no Secure Enclave") }
        guard
            let box = try? AES.GCM.SealedBox(combined: keyData),
            let opened = try? AES.GCM.open(box, using: deviceKey),
            let key = try? JSONDecoder().decode(SealedKey.self, from: opened), key.purpose == purpose
        else {
            throw .corruptData("the Secure Enclave key data (from another device, or not a \(purpose.rawValue) key)")
        }
        let subject = "the Secure Enclave key"
        switch device.authorizeKeyUse(
            key.protection.accessControl, enrolledAs: key.enrollment, label: "key", authentication)
        {
        case nil: return key
        case .itemNotFound?: throw .biometryChanged(item: subject)
        case .interactionNotAllowed?:
            throw device.isUnlocked ? .authenticationRequired(item: subject) : .locked(subject)
        case .userCanceled?: throw .authenticationCancelled(item: subject)
        case .authFailed?: throw .authenticationDenied(item: subject)
        case let status?: throw .unavailable("the Secure Enclave refused the key: \(status)")
        }
    }
}
