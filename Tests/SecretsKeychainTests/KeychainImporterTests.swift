import Foundation
import Secrets
import SecretsKeychain
import Testing

/// Items written the way each library writes them (attributes as read from its sources), then imported.
@Suite("Moving in from other keychain libraries: found by their layout, copied, verified, reported")
struct KeychainImporterTests {
    let keychain = SecItemEmulator(defaultAccessGroup: "TEAMID.com.example.app", otherAccessGroups: ["TEAMID.shared"])
    let destination = AggregateSecretsStore(
        backend: InMemoryBackend(), configuration: SecretsConfiguration(service: "imported"))
    var importer: KeychainImporter { KeychainImporter(emulator: keychain, destination: destination) }

    /// Adds an item as a library would.
    func write(
        service: String?, account: String, _ value: String, group: String? = nil, synchronizable: Bool = false,
        accessibility: AccessPolicy.Accessibility = .afterFirstUnlock, accessControl: AccessPolicy.AccessControl = []
    ) {
        let status = keychain.add(
            KeychainQuery(
                service: service, account: account, accessGroup: group,
                synchronizable: synchronizable ? .synchronizable : nil, accessibility: accessibility,
                accessControl: accessControl, data: Data(value.utf8)))
        #expect(status == .success)
    }

    func stored(_ account: String) throws -> String? {
        try destination.readData(account: account).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("KeychainAccess: its service's items, synced or not; another service's stay out")
    func keychainAccess() throws {
        write(service: "com.example.app", account: "token", "sk-1")
        write(service: "com.example.app", account: "synced", "sk-2", synchronizable: true, accessibility: .whenUnlocked)
        write(service: "com.example.other", account: "foreign", "no")
        let report = try importer.importItems(from: KeychainAccessLayout(service: "com.example.app"))
        #expect(report.moved.map(\.key) == ["synced", "token"])
        #expect(report.notMoved.isEmpty)
        #expect(try stored("token") == "sk-1")
        #expect(try stored("synced") == "sk-2")
        #expect(try stored("foreign") == nil)
        #expect(keychain.count == 3, "the originals stay unless asked")
        #expect(report.library.contains("KeychainAccess 4.2.2"))
    }

    @Test("KeychainAccess internet passwords: the URL's host, its port when named, the protocol and authentication")
    func keychainAccessInternetPasswords() throws {
        func internet(_ server: String, _ account: String, port: Int? = nil, _ value: String) {
            let attributes = InternetPasswordAttributes(
                server: server, internetProtocol: .https, authenticationType: .default, port: port)
            #expect(
                keychain.add(
                    KeychainQuery(
                        account: account, synchronizable: .notSynchronizable, accessibility: .afterFirstUnlock,
                        data: Data(value.utf8), itemClass: .internetPassword, internet: attributes)) == .success)
        }
        internet("api.example.com", "jane", "pw-1")
        internet("api.example.com", "ops", port: 8443, "pw-2")
        internet("other.example.com", "jane", "pw-3")
        write(service: "api.example.com", account: "generic", "g-1")

        let api = KeychainAccessLayout(server: URL(string: "https://api.example.com/v1")!, protocolType: .https)
        #expect(try importer.importItems(from: api, account: { "api/" + $0 }).moved.map(\.key) == ["jane", "ops"])
        #expect(try stored("api/jane") == "pw-1")
        let withPort = KeychainAccessLayout(server: URL(string: "https://api.example.com:8443")!, protocolType: .https)
        #expect(try importer.importItems(from: withPort, account: { "port/" + $0 }).moved.map(\.key) == ["ops"])
        let other = KeychainAccessLayout(server: URL(string: "https://api.example.com")!, protocolType: .http)
        #expect(try importer.importItems(from: other).moved.isEmpty, "another protocol is another item")
        let removed = try importer.importItems(from: api, account: { "api/" + $0 }, removingOriginals: true)
        #expect(removed.moved.map(\.originalRemoved) == [true, true])
        #expect(keychain.count == 2, "the other server's and the generic item stay")
    }

    @Test("Valet: the service strings of each flavor and of a shared group; the canary is left alone")
    func valet() throws {
        let vanilla = "VAL_VALValet_initWithIdentifier:accessibility:_com.example.tokens_AccessibleWhenUnlocked"
        write(service: vanilla, account: "session", "s-1", accessibility: .whenUnlocked)
        write(service: vanilla, account: "VAL_KeychainCanaryUsername", "VAL_KeychainCanaryPassword")
        let cloud =
            "VAL_VALSynchronizableValet_initWithIdentifier:accessibility:_com.example.tokens_AccessibleAfterFirstUnlock"
        write(service: cloud, account: "backup", "b-1", synchronizable: true)
        let shared =
            "VAL_VALValet_initWithSharedAccessGroupIdentifier:accessibility:_shared_AccessibleAfterFirstUnlockThisDeviceOnly"
        write(service: shared, account: "group-token", "g-1", group: "TEAMID.shared")

        #expect(ValetLayout(.identifier("com.example.tokens")).service == vanilla)
        let moved = try importer.importItems(from: ValetLayout(.identifier("com.example.tokens")))
        #expect(moved.moved.map(\.key) == ["session"])
        let iCloud = ValetLayout(.identifier("com.example.tokens"), flavor: .iCloud, accessibility: .afterFirstUnlock)
        #expect(try importer.importItems(from: iCloud).moved.map(\.key) == ["backup"])
        let group = ValetLayout(
            .sharedGroup(prefix: "TEAMID", group: "shared"), accessibility: .afterFirstUnlockThisDeviceOnly)
        #expect(try importer.importItems(from: group).moved.map(\.key) == ["group-token"])
        #expect(try stored("VAL_KeychainCanaryUsername") == nil)
        #expect(try stored("group-token") == "g-1")
    }

    @Test("Valet's Secure Enclave items prompt once through the context; a context that may not prompt moves none")
    func valetSecureEnclave() throws {
        let service =
            "VAL_VALSinglePromptSecureEnclaveValet_initWithIdentifier:accessibility:_com.example.vault"
            + "_AccessibleWhenPasscodeSetThisDeviceOnly_AccessControlTouchIDAnyFingerprint"
        for key in ["pin", "seed"] {
            write(
                service: service, account: key, "\(key)-1", accessibility: .whenPasscodeSetThisDeviceOnly,
                accessControl: .biometryAny)
        }
        let layout = ValetLayout(.identifier("com.example.vault"), flavor: .singlePromptSecureEnclave(.biometricAny))
        #expect(layout.service == service)
        let background = try importer.importItems(from: layout, authentication: .background())
        #expect(background.moved.isEmpty)
        #expect(background.notMoved.map(\.key) == ["pin", "seed"])
        for item in background.notMoved {
            guard case .unreadable(let error) = item.reason else { Issue.record("\(item)"); continue }
            #expect(error.caseName == "authenticationRequired")
        }
        #expect(keychain.prompts.isEmpty)

        let unlock = AuthenticationContext(reason: "Move your vault")
        let report = try importer.importItems(from: layout, authentication: unlock)
        #expect(report.moved.map(\.key) == ["pin", "seed"])
        #expect(keychain.prompts.map(\.reason) == ["Move your vault"])
    }

    @Test("SimpleKeychain: local items of its service, or only synced ones when it synced")
    func simpleKeychain() throws {
        write(service: "com.example.simple", account: "refresh", "r-1")
        write(
            service: "com.example.simple", account: "cloud", "c-1", synchronizable: true, accessibility: .whenUnlocked)
        let local = try importer.importItems(from: SimpleKeychainLayout(service: "com.example.simple"))
        #expect(local.moved.map(\.key) == ["refresh"])
        let synced = try importer.importItems(
            from: SimpleKeychainLayout(service: "com.example.simple", synchronizable: true))
        #expect(synced.moved.map(\.key) == ["cloud"])
    }

    @Test("SAMKeychain: a key that makes no valid account is reported, unless the app maps it")
    func samKeychain() throws {
        write(service: "MyService", account: "jane@example.com", "pw-1", accessibility: .whenUnlocked)
        write(service: "MyService", account: "jane doe", "pw-2", accessibility: .whenUnlocked)
        let report = try importer.importItems(from: SAMKeychainLayout(service: "MyService"))
        #expect(report.moved.map(\.key) == ["jane@example.com"])
        #expect(report.notMoved == [.init(key: "jane doe", reason: .invalidAccount("jane doe"))])
        #expect(!report.description.contains("pw-"), "the report names keys, never values")

        let mapped = try importer.importItems(
            from: SAMKeychainLayout(service: "MyService"),
            account: { "accounts/" + $0.replacingOccurrences(of: " ", with: "_") })
        #expect(Set(mapped.moved.map(\.account)) == ["accounts/jane@example.com", "accounts/jane_doe"])
    }

    @Test("keychain-swift: items without a service whose account has the prefix; the prefix is dropped")
    func keychainSwift() throws {
        write(service: nil, account: "myapp_token", "t-1", accessibility: .whenUnlocked)
        write(service: nil, account: "unrelated", "u-1", accessibility: .whenUnlocked)
        write(service: "another-library", account: "myapp_other", "o-1")
        let report = try importer.importItems(from: KeychainSwiftLayout(keyPrefix: "myapp_"))
        #expect(report.moved.map(\.key) == ["token"])
        #expect(try stored("token") == "t-1")
        #expect(try stored("other") == nil)
    }

    @Test("originals are removed only when asked and only once verified; a second run finds nothing left")
    func removingOriginals() throws {
        write(service: "com.example.app", account: "token", "sk-1")
        write(service: "com.example.app", account: "bad key", "sk-2")
        let report = try importer.importItems(
            from: KeychainAccessLayout(service: "com.example.app"), removingOriginals: true)
        #expect(report.moved.map(\.originalRemoved) == [true])
        #expect(keychain.count == 1, "the item that did not move is kept")
        #expect(try importer.importItems(from: KeychainAccessLayout(service: "com.example.app")).moved.isEmpty)
    }

    @Test("a run again is harmless; other bytes in the store are kept unless overwriting")
    func conflicts() throws {
        write(service: "com.example.app", account: "token", "sk-1")
        let layout = KeychainAccessLayout(service: "com.example.app")
        _ = try importer.importItems(from: layout)
        #expect(try importer.importItems(from: layout).moved.map(\.key) == ["token"], "the same bytes: moved")
        try destination.saveData(Data("newer".utf8), account: "token")
        #expect(try importer.importItems(from: layout).notMoved == [.init(key: "token", reason: .exists)])
        #expect(try stored("token") == "newer")
        #expect(try importer.importItems(from: layout, overwriting: true).moved.count == 1)
        #expect(try stored("token") == "sk-1")
    }

    @Test("removing an original deletes that one item: not the same account's item on another port")
    func removesExactlyTheVerifiedItem() throws {
        for (port, value) in [(nil, "pw-default"), (8443, "pw-8443")] as [(Int?, String)] {
            let attributes = InternetPasswordAttributes(
                server: "s.example.com", internetProtocol: .https, authenticationType: .default, port: port)
            #expect(
                keychain.add(
                    KeychainQuery(
                        account: "jane", synchronizable: .notSynchronizable, accessibility: .afterFirstUnlock,
                        data: Data(value.utf8), itemClass: .internetPassword, internet: attributes)) == .success)
        }
        // Every port of the host: both items have the key "jane", and only one of them can move there.
        let layout = KeychainAccessLayout(server: URL(string: "https://s.example.com")!, protocolType: .https)
        let report = try importer.importItems(from: layout, removingOriginals: true)
        #expect(report.moved.map(\.originalRemoved) == [true])
        #expect(report.notMoved.map(\.reason) == [.exists])
        #expect(keychain.count == 1, "the item that did not move is still in the Keychain")
        let left = try keychain.copyMatching(
            KeychainQuery(
                account: "jane", matchLimit: .one, returnData: true, itemClass: .internetPassword,
                internet: InternetPasswordAttributes(server: "s.example.com"))
        ).get()
        #expect(left.first.map { String(decoding: $0.data ?? Data(), as: UTF8.self) } != (try stored("jane")))
    }

    @Test("a synced and a local item with one key: overwriting moves one, and the other is kept in the Keychain")
    func sameKeyTwice() throws {
        write(service: "com.example.app", account: "token", "local")
        write(
            service: "com.example.app", account: "token", "synced", synchronizable: true, accessibility: .whenUnlocked)
        let report = try importer.importItems(
            from: KeychainAccessLayout(service: "com.example.app"), removingOriginals: true, overwriting: true)
        #expect(report.moved.count == 1)
        #expect(report.notMoved.map(\.reason) == [.replacedBySameKey])
        #expect(keychain.count == 1, "only the item whose bytes the store holds was removed")
        let kept = try keychain.copyMatching(
            KeychainQuery(
                service: "com.example.app", account: "token", synchronizable: .any, matchLimit: .one,
                returnData: true)
        ).get()
        #expect(kept.first?.data != nil)
        #expect(kept.first?.data != (try destination.readData(account: "token")), "both values still exist")
    }

    @Test("the emulator deletes every item a query matches, as SecItemDelete does")
    func emulatorDeletesEveryMatch() {
        write(service: "svc", account: "a", "1")
        write(service: "svc", account: "b", "2")
        write(service: "svc", account: "c", "3", synchronizable: true, accessibility: .whenUnlocked)
        #expect(keychain.delete(KeychainQuery(service: "svc", synchronizable: .any)) == .success)
        #expect(keychain.count == 0)
    }

    @Test("a device locked since its restart cannot be listed: locked, and nothing moves")
    func locked() throws {
        write(service: "com.example.app", account: "token", "sk-1")
        keychain.reboot()
        #expect(throws: SecretsError.self) {
            try importer.importItems(from: KeychainAccessLayout(service: "com.example.app"))
        }
        #expect(try stored("token") == nil)
    }
}
