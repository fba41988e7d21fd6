#if canImport(CryptoKit) && canImport(LocalAuthentication) && canImport(Security)
    import CryptoKit
    import Foundation
    import LocalAuthentication
    import Secrets
    import Security

    /// CryptoKit's `SecureEnclave.P256` behind ``SecureEnclaveClient``: keys made with a `SecAccessControl`
    /// (readable while unlocked, this device only, `privateKeyUsage` and the protection's flags), used through the
    /// context's `LAContext`. Nothing else happens here.
    struct LiveSecureEnclave: SecureEnclaveClient {
        /// `SecureEnclave.isAvailable`.
        var isAvailable: Bool { SecureEnclave.isAvailable }

        func makeKey(_ purpose: DeviceKeyPurpose, protection: DeviceKeyProtection) throws(SecretsError)
            -> (keyData: Data, publicKey: Data)
        {
            guard isAvailable else { throw .unsupported("this device has no Secure Enclave") }
            guard
                let access = LiveSecItemClient.accessControl(
                    .whenUnlockedThisDeviceOnly, protection.accessControl.union(.privateKeyUsage))
            else { throw .unsupported("the Secure Enclave cannot protect a key with \(protection.rawValue)") }
            return try Self.mapping {
                switch purpose {
                case .signing:
                    let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
                    return (key.dataRepresentation, key.publicKey.x963Representation)
                case .keyAgreement:
                    let key = try SecureEnclave.P256.KeyAgreement.PrivateKey(accessControl: access)
                    return (key.dataRepresentation, key.publicKey.x963Representation)
                }
            }
        }

        func signature(for message: Data, keyData: Data, authentication: AuthenticationContext?)
            throws(SecretsError) -> Data
        {
            try Self.mapping {
                let key = try SecureEnclave.P256.Signing.PrivateKey(
                    dataRepresentation: keyData, authenticationContext: Self.context(authentication))
                return try key.signature(for: message).derRepresentation
            }
        }

        func sharedSecret(
            keyData: Data, with publicKey: P256.KeyAgreement.PublicKey, authentication: AuthenticationContext?
        ) throws(SecretsError) -> SharedSecret {
            try Self.mapping {
                let key = try SecureEnclave.P256.KeyAgreement.PrivateKey(
                    dataRepresentation: keyData, authenticationContext: Self.context(authentication))
                return try key.sharedSecretFromKeyAgreement(with: publicKey)
            }
        }

        private static func context(_ authentication: AuthenticationContext?) -> LAContext? {
            authentication?.session { LiveAuthentication(authentication!) }.context
        }

        /// Runs a CryptoKit call, mapping what Local Authentication reports to ``Secrets/SecretsError``.
        private static func mapping<Result>(_ body: () throws -> Result) throws(SecretsError) -> Result {
            do {
                return try body()
            } catch let error as LAError {
                throw map(error.code)
            } catch let error as NSError where error.domain == LAErrorDomain {
                throw map(LAError.Code(rawValue: error.code) ?? .authenticationFailed)
            } catch {
                throw .unavailable("the Secure Enclave refused the key (\(type(of: error)))")
            }
        }

        private static func map(_ code: LAError.Code) -> SecretsError {
            let subject = "the Secure Enclave key"
            switch code {
            case .userCancel, .appCancel, .systemCancel, .invalidContext: return .authenticationCancelled(item: subject)
            case .notInteractive: return .authenticationRequired(item: subject)
            case .authenticationFailed, .biometryLockout: return .authenticationDenied(item: subject)
            case .passcodeNotSet, .biometryNotEnrolled, .biometryNotAvailable:
                return .unsupported("\(subject) needs a passcode and enrolled biometry on this device")
            default: return .unavailable("\(subject) could not be used (LAError \(code.rawValue))")
            }
        }
    }
#endif
