import Foundation
import Secrets

/// Whether this process can use the data protection keychain, found by adding (and removing) one probe item, and
/// what ``SecretsPlatform``'s store selection does about it.
///
/// An unsigned macOS command-line tool, or a SwiftPM test host, has no `keychain-access-groups` entitlement: every
/// call to the data protection keychain (`kSecUseDataProtectionKeychain`) answers `errSecMissingEntitlement`
/// (-34018). Such a process falls back to another store; a locked device or any other status keeps the Keychain
/// (its errors surface on use), so that an app never moves its secrets because of a passing condition.
package enum KeychainProbe {
    /// What to do with the Keychain.
    package enum Verdict: Hashable, Sendable {
        /// Use the Keychain; `reason` says why, for a log line.
        case useKeychain(reason: String)
        /// Do not: the process cannot use it; `reason` says why and what would fix it.
        case fallBack(reason: String)
    }

    /// Adds a probe item to the keychain `client` reaches and removes it; returns the add's status.
    package static func status(of client: any SecItemClient) -> KeychainStatus {
        let probe = KeychainQuery(
            service: AppleKeychainBackend.probeService, account: "availability-\(UUID().uuidString)",
            accessibility: .afterFirstUnlockThisDeviceOnly, data: Data())
        let status = client.add(probe)
        if status == .success { _ = client.delete(KeychainQuery(service: probe.service, account: probe.account)) }
        return status
    }

    /// The verdict for a probe's `status` on `platform`.
    package static func verdict(for status: KeychainStatus, on platform: KeychainPlatform) -> Verdict {
        switch status {
        case .success, .duplicateItem:
            return .useKeychain(reason: "the Keychain is the platform's store")
        case .interactionNotAllowed:
            return .useKeychain(
                reason: "the Keychain is the platform's store (the device is locked now; items readable only while "
                    + "unlocked wait for the user)")
        case .missingEntitlement where platform.hasFileBasedKeychain:
            return .fallBack(
                reason: "the data protection keychain answers errSecMissingEntitlement: this process is not signed "
                    + "with a keychain-access-groups entitlement (an unsigned command-line tool or test host); sign "
                    + "it with one to use the Keychain")
        case .missingEntitlement:
            return .fallBack(
                reason: "the Keychain answers errSecMissingEntitlement: the app's keychain-access-groups entitlement "
                    + "is missing or does not match its signature")
        case .notAvailable:
            return .fallBack(reason: "no Keychain is available to this process (errSecNotAvailable)")
        default:
            return .useKeychain(reason: "the Keychain is the platform's store (a probe item answered \(status))")
        }
    }
}
