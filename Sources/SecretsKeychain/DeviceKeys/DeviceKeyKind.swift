import Crypto
import Foundation
import Secrets

/// What a device key is for.
public enum DeviceKeyPurpose: String, Hashable, Sendable, Codable, CaseIterable {
    /// ECDSA signatures (P-256).
    case signing
    /// Elliptic-curve Diffie–Hellman key agreement (P-256).
    case keyAgreement = "key-agreement"

    /// A new P-256 private key for this purpose, made in software: its raw representation and its public key (X9.63).
    func makeSoftwareKey() -> (privateKey: Data, publicKey: Data) {
        switch self {
        case .signing:
            let key = P256.Signing.PrivateKey()
            return (key.rawRepresentation, key.publicKey.x963Representation)
        case .keyAgreement:
            let key = P256.KeyAgreement.PrivateKey()
            return (key.rawRepresentation, key.publicKey.x963Representation)
        }
    }
}

/// Where a device key's private part lives.
public enum DeviceKeyStorage: String, Hashable, Sendable, Codable, CaseIterable {
    /// Inside the Secure Enclave: the private key never leaves it; Coffer keeps only its opaque, device-bound data
    /// representation.
    case secureEnclave = "secure-enclave"
    /// In memory and in the store, as any secret: only when the caller asks for it (where there is no Secure
    /// Enclave), never as a fallback.
    case software
}

/// What the user must do before a device key is used.
public enum DeviceKeyProtection: String, Hashable, Sendable, Codable, CaseIterable {
    /// Nothing beyond an unlocked device.
    case none
    /// The device passcode.
    case devicePasscode
    /// Face ID, Touch ID or the passcode (`.userPresence`).
    case userPresence
    /// Any enrolled face or finger.
    case biometryAny
    /// The faces or fingers enrolled when the key was made: the key is lost when they change.
    case biometryCurrentSet

    /// The access-control flags of the protection (without `privateKeyUsage`, which Secure Enclave keys add).
    public var accessControl: AccessPolicy.AccessControl {
        switch self {
        case .none: return []
        case .devicePasscode: return .devicePasscode
        case .userPresence: return .userPresence
        case .biometryAny: return .biometryAny
        case .biometryCurrentSet: return .biometryCurrentSet
        }
    }
}
