import AppSecureStorage
import CofferTestSupport
import Foundation
import Keychain
import Secrets
import SecretsKeychain
import Testing

@Suite("@AppSecureStorage with items that need the user: the wrapper's context decides, nothing is cached")
struct AppSecureStorageAuthenticationTests {
    let keychain = SecItemEmulator()
    let reports = Recorder()
    static let biometric = AccessPolicy(accessibility: .whenUnlockedThisDeviceOnly, accessControl: .biometryAny)

    func storage(authentication: AuthenticationContext? = nil) -> SecureStorage {
        let engine = KeychainEngine(
            backend: AppleKeychainBackend(emulator: keychain), service: "app", accessPolicy: Self.biometric)
        return SecureStorage(engine: engine, authentication: authentication) { [reports] error, key in
            reports.append("\(key): \((error as? SecretsError)?.caseName ?? "\(error)")")
        }
    }

    @Test("reads through one context prompt once; after invalidate() the next read prompts (no cached value)")
    func onePrompt() {
        let unlock = AuthenticationContext(reason: "Show your token")
        let storage = storage(authentication: unlock)
        @AppSecureStorage("token", accessibility: .whenUnlockedThisDeviceOnly, store: storage) var token: String?
        token = "sk-1"
        #expect(keychain.prompts.isEmpty, "adding prompts for nothing")
        #expect(token == "sk-1")
        #expect(token == "sk-1")
        #expect(keychain.prompts.map(\.reason) == ["Show your token"])
        unlock.invalidate()
        #expect(token == "sk-1")
        #expect(keychain.prompts.count == 2)
        #expect(reports.values.isEmpty)
    }

    @Test("a wrapper that may not prompt reads nil and reports authenticationRequired; the value is kept")
    func background() {
        let storage = storage(authentication: AuthenticationContext(reason: "Show your token"))
        @AppSecureStorage("token", accessibility: .whenUnlockedThisDeviceOnly, store: storage) var token: String?
        @AppSecureStorage(
            "token", accessibility: .whenUnlockedThisDeviceOnly, store: storage, authentication: .background())
        var backgroundToken: String?
        token = "sk-1"
        #expect(backgroundToken == nil)
        #expect(reports.values == ["token: authenticationRequired"])
        #expect(keychain.prompts.isEmpty)
        #expect(token == "sk-1")
    }

    @Test("a wrapper keeps the storage's access-control flags when it names the accessibility")
    func keepsFlags() throws {
        let storage = storage()
        @AppSecureStorage("token", accessibility: .whenUnlockedThisDeviceOnly, store: storage) var token: String?
        token = "sk-1"
        keychain.respondToPrompts(.cancel)
        #expect(token == nil, "the item needs the user: the cancelled prompt reads nil")
        #expect(reports.values == ["token: authenticationCancelled"])
    }
}
