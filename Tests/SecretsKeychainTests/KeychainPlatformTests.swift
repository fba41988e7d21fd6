import Foundation
import Secrets
import SecretsKeychain
import Testing

@Suite("Access control per platform: never stored weaker than asked")
struct KeychainProtectionTests {
    func query(_ policy: AccessPolicy) -> SecretQuery<Data> {
        SecretQuery(service: "coffer", account: "api/key", accessPolicy: policy)
    }

    @Test(
        "the protection written for a query",
        arguments: [
            (KeychainQuery(), KeychainPlatform.iOS, KeychainProtection.unspecified),
            (KeychainQuery(accessibility: .afterFirstUnlock), .iOS, .accessible(.afterFirstUnlock)),
            (
                KeychainQuery(accessibility: .whenUnlockedThisDeviceOnly, accessControl: .userPresence), .iOS,
                .accessControl(.whenUnlockedThisDeviceOnly, .userPresence)
            ),
            (
                KeychainQuery(accessibility: .whenUnlockedThisDeviceOnly, accessControl: [.watch, .or, .biometryAny]),
                .macOS, .accessControl(.whenUnlockedThisDeviceOnly, [.watch, .or, .biometryAny])
            ),
        ])
    func protection(query: KeychainQuery, platform: KeychainPlatform, expected: KeychainProtection) throws {
        #expect(try query.protection(on: platform).get() == expected)
    }

    @Test(
        "watch exists only on macOS and Mac Catalyst",
        arguments: [
            (KeychainPlatform.macOS, true), (.macCatalyst, true), (.iOS, false), (.watchOS, false), (.tvOS, false),
            (.visionOS, false),
        ])
    func watchFlag(platform: KeychainPlatform, supported: Bool) {
        let query = KeychainQuery(accessibility: .whenUnlockedThisDeviceOnly, accessControl: .watch)
        switch query.protection(on: platform) {
        case .success: #expect(supported)
        case .failure(let error):
            #expect(!supported)
            #expect(error.unsupportedFlags == .watch)
        }
    }

    @Test("access-control flags without an accessibility class are refused, not dropped")
    func flagsWithoutAccessibility() {
        #expect(throws: KeychainProtectionError.self) {
            try KeychainQuery(accessControl: .userPresence).protection(on: .iOS).get()
        }
    }

    @Test("a policy of [.watch] on iOS is unsupported, and nothing is stored")
    func watchOnlyOnIOS() throws {
        let keychain = SecItemEmulator(platform: .iOS)
        let backend = AppleKeychainBackend(emulator: keychain)
        let policy = AccessPolicy(accessibility: .whenUnlockedThisDeviceOnly, accessControl: .watch)
        #expect {
            try backend.save(Data("secret".utf8), for: query(policy))
        } throws: { error in
            guard case .unsupported(let message) = error as? SecretsError else { return false }
            return message.contains("watch") && message.contains("iOS")
        }
        #expect(keychain.count == 0)
        #expect(try backend.read(query(policy)) == nil)
    }

    @Test("the same policy on macOS is stored, with its flags")
    func watchOnMacOS() throws {
        let backend = AppleKeychainBackend(client: SecItemEmulator(platform: .macOS))
        let policy = AccessPolicy(
            accessibility: .whenUnlockedThisDeviceOnly, accessControl: [.watch, .or, .userPresence])
        try backend.save(Data("secret".utf8), for: query(policy))
        #expect(try backend.read(query(policy)) == Data("secret".utf8))
    }

    @Test("the emulator, like the live client, answers errSecParam for a flag the platform lacks")
    func emulatorRefusesUnsupportedFlags() {
        let keychain = SecItemEmulator(platform: .iOS)
        let item = KeychainQuery(
            service: "s", account: "a", accessibility: .whenUnlockedThisDeviceOnly, accessControl: [.watch],
            data: Data("v".utf8))
        #expect(keychain.add(item) == .param)
        var plain = item
        plain.accessControl = []
        #expect(keychain.add(plain) == .success)
        #expect(keychain.update(KeychainQuery(service: "s", account: "a"), with: item) == .param)
    }
}

@Suite("Which store an Apple process uses: the Keychain probe")
struct KeychainProbeTests {
    @Test("an entitled process's probe succeeds and leaves nothing behind")
    func entitled() {
        let keychain = SecItemEmulator(platform: .macOS)
        let status = KeychainProbe.status(of: keychain)
        #expect(status == .success)
        #expect(keychain.count == 0)
        guard case .useKeychain = KeychainProbe.verdict(for: status, on: .macOS) else {
            Issue.record("an entitled process must use the Keychain")
            return
        }
    }

    @Test("an unsigned macOS tool (no keychain entitlement) falls back, saying why")
    func unsignedMacOSTool() {
        let keychain = SecItemEmulator(platform: .macOS, hasKeychainEntitlement: false)
        let status = KeychainProbe.status(of: keychain)
        #expect(status == .missingEntitlement)
        guard case .fallBack(let reason) = KeychainProbe.verdict(for: status, on: .macOS) else {
            Issue.record("an unsigned macOS tool must not use the data protection keychain")
            return
        }
        #expect(reason.contains("errSecMissingEntitlement"))
        #expect(reason.contains("keychain-access-groups"))
    }

    @Test(
        "a locked device or an unexpected status keeps the Keychain: secrets never move for a passing state",
        arguments: [KeychainStatus.interactionNotAllowed, .authFailed, .param, .success, .duplicateItem])
    func keepsKeychain(status: KeychainStatus) {
        for platform in [KeychainPlatform.iOS, .macOS] {
            guard case .useKeychain = KeychainProbe.verdict(for: status, on: platform) else {
                Issue.record("\(status) on \(platform) must keep the Keychain")
                continue
            }
        }
    }

    @Test("no keychain at all falls back on every platform", arguments: [KeychainStatus.notAvailable])
    func notAvailable(status: KeychainStatus) {
        guard case .fallBack = KeychainProbe.verdict(for: status, on: .iOS) else {
            Issue.record("errSecNotAvailable must fall back")
            return
        }
    }
}
