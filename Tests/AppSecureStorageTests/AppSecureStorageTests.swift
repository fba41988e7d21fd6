import AppSecureStorage
import CofferTestSupport
import Foundation
import Keychain
import Secrets
import SecretsKeychain
import Testing

struct Settings: Codable, Equatable {
    var theme: String
    var fontSize: Int
}

/// A value that cannot be encoded.
struct Unencodable: Codable, Equatable {
    struct Refused: Error {}
    init() {}
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws { throw Refused() }
}

@Suite("@AppSecureStorage: AppStorage's twin, kept in the keychain")
struct AppSecureStorageTests {
    let keychain = SecItemEmulator()
    let reports = Recorder()
    var store: SecureStorage {
        SecureStorage(engine: KeychainEngine(backend: AppleKeychainBackend(emulator: keychain), service: "app")) {
            [reports] error, key in reports.append("\(key): \(error)")
        }
    }

    @Test("a string is saved as its UTF-8 bytes, read back, and deleted by nil or an empty string")
    func strings() throws {
        let store = store
        @AppSecureStorage("openaikey", store: store) var key: String?
        #expect(key == nil)
        key = "sk-123"
        #expect(key == "sk-123")
        #expect(try store.engine.read("openaikey") == Data("sk-123".utf8))
        key = ""
        #expect(key == nil)
        #expect(keychain.count == 0)
        key = "again"
        key = nil
        #expect(keychain.count == 0)
        #expect(reports.values.isEmpty)
    }

    @Test("any Codable value is stored as JSON")
    func codable() throws {
        let store = store
        @AppSecureStorage("settings", store: store) var settings: Settings?
        settings = Settings(theme: "dark", fontSize: 14)
        #expect(settings == Settings(theme: "dark", fontSize: 14))
        #expect(try store.engine.read("settings") == Data(#"{"fontSize":14,"theme":"dark"}"#.utf8))
    }

    @Test("the accessibility argument reaches the keychain; when unlocked is the default")
    func accessibility() throws {
        let store = store
        @AppSecureStorage("plain", store: store) var plain: String?
        @AppSecureStorage("background", accessibility: .afterFirstUnlockThisDeviceOnly, store: store)
        var background: String?
        plain = "p"
        background = "b"
        let items = try keychain.copyMatching(
            KeychainQuery(service: "app", synchronizable: .any, matchLimit: .all, returnAttributes: true)
        ).get()
        let classes = Dictionary(uniqueKeysWithValues: items.map { ($0.account, $0.accessibility) })
        #expect(classes == ["plain": .whenUnlocked, "background": .afterFirstUnlockThisDeviceOnly])
    }

    @Test("two wrappers on one key agree, and observers hear each change once")
    func twoWrappers() {
        let store = store
        @AppSecureStorage("token", store: store) var first: String?
        @AppSecureStorage("token", store: store) var second: String?
        let heard = Recorder()
        let observation = store.observe("token") { heard.append("changed") }
        first = "one"
        #expect(second == "one")
        second = nil
        #expect(first == nil)
        #expect(heard.values.count == 2)
        observation.cancel()
        first = "two"
        #expect(heard.values.count == 2, "a cancelled observation hears nothing")
    }

    @Test("a locked keychain is reported to the handler, not swallowed, and nothing stored is lost")
    func lockedKeychain() {
        let store = store
        @AppSecureStorage("token", store: store) var token: String?
        token = "kept"
        keychain.setLocked(true)
        store.engine.clearCache()
        #expect(token == nil)
        token = "new"
        #expect(reports.values.count == 2)
        #expect(reports.values.allSatisfy { $0.hasPrefix("token: ") && $0.contains("locked") })
        keychain.setLocked(false)
        #expect(token == "kept")
    }

    @Test("a value that cannot be encoded is reported and leaves the stored value in place")
    func encodingFailure() {
        let store = store
        @AppSecureStorage("odd", store: store) var odd: Unencodable?
        @AppSecureStorage("odd", store: store) var text: String?
        text = "previous"
        odd = Unencodable()
        #expect(text == "previous")
        #expect(reports.values.count == 1)
        #expect(reports.values.first?.contains("could not be encoded") == true)
    }
}
