import CofferTestSupport
import Foundation
import Secrets
import SecretsKeychain
import Testing

@Suite("An encrypted file store whose key lives in the Keychain")
struct StoredKeyTests {
    @Test("the first open makes a 256-bit key in the Keychain; later opens read it; no passphrase anywhere")
    func keyInKeychain() throws {
        let keychain = makeKeychain()
        let platform = AppleKeychainBackend(emulator: keychain)
        let keyQuery = SecretQuery<Data>(
            service: "coffer", account: "file-store/key", accessPolicy: .backgroundThisDeviceOnly)
        let directory = try TemporaryDirectory()

        let store = try EncryptedFileBackend(
            directory: directory.appending("store"), key: try .stored(in: platform, at: keyQuery, createIfMissing: true)
        )
        let item = SecretQuery<Data>(service: "app", account: "token")
        try store.save(Data("t0k3n".utf8), for: item)
        #expect(try platform.read(keyQuery)?.count == 32)

        let reopened = try EncryptedFileBackend(
            directory: directory.appending("store"),
            key: try .stored(in: platform, at: keyQuery, createIfMissing: false))
        #expect(try reopened.read(item) == Data("t0k3n".utf8))
    }

    @Test("a lost key is unavailable, not a new key; a damaged one is corrupt; a locked Keychain is locked")
    func failures() throws {
        let keychain = makeKeychain()
        let platform = AppleKeychainBackend(emulator: keychain)
        let keyQuery = SecretQuery<Data>(service: "coffer", account: "file-store/key")
        #expect {
            try KeySource.stored(in: platform, at: keyQuery, createIfMissing: false)
        } throws: { error in
            if case .unavailable = error as? SecretsError { true } else { false }
        }
        #expect(try platform.read(keyQuery) == nil, "nothing was made")
        try platform.save(Data(count: 16), for: keyQuery)
        #expect {
            try KeySource.stored(in: platform, at: keyQuery, createIfMissing: true)
        } throws: { error in
            if case .corruptData = error as? SecretsError { true } else { false }
        }
        keychain.setLocked(true)
        #expect {
            try KeySource.stored(in: platform, at: keyQuery, createIfMissing: true)
        } throws: { error in
            if case .locked = error as? SecretsError { true } else { false }
        }
    }
}
