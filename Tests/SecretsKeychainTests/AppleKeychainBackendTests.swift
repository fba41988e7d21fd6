import Foundation
import Secrets
import SecretsKeychain
import SecretsTesting
import Testing

/// The emulated app's keychain groups: its default one and the conformance suite's two.
func makeKeychain() -> SecItemEmulator {
    SecItemEmulator(
        defaultAccessGroup: "TEAMID.dev.coffer.tests",
        otherAccessGroups: ["group.conformance.a", "group.conformance.b"])
}

@Suite("The Keychain backend over the SecItem emulator")
struct AppleKeychainBackendTests {
    let keychain = makeKeychain()
    var backend: AppleKeychainBackend { AppleKeychainBackend(emulator: keychain) }

    func query(
        _ account: String = "ai/openai", group: String? = nil, synchronizable: Bool = false,
        policy: AccessPolicy = .defaultSyncableWhenUnlocked
    ) -> SecretQuery<Data> {
        SecretQuery(
            service: "coffer", account: account, accessGroup: group, synchronizable: synchronizable,
            accessPolicy: policy)
    }

    @Test(arguments: SecretsBackendConformance.Check.allCases)
    func conforms(_ check: SecretsBackendConformance.Check) async throws {
        try await SecretsBackendConformance { AppleKeychainBackend(emulator: makeKeychain()) }.run(check)
    }

    @Test("an item without an access group lands in the app's default group, found once by a removed probe")
    func defaultGroup() throws {
        let backend = backend
        try backend.save(Data("v".utf8), for: query())
        #expect(try backend.defaultAccessGroup() == "TEAMID.dev.coffer.tests")
        #expect(keychain.count == 1, "the probe item is gone")
        let items = try keychain.copyMatching(
            KeychainQuery(service: "coffer", synchronizable: .any, matchLimit: .all, returnAttributes: true)
        ).get()
        #expect(items.map(\.accessGroup) == ["TEAMID.dev.coffer.tests"])
    }

    @Test("saving again updates in place; switching to iCloud sync moves the item instead of adding a second")
    func updatesInPlace() throws {
        let backend = backend
        try backend.save(Data("one".utf8), for: query())
        try backend.save(Data("two".utf8), for: query(synchronizable: true))
        #expect(keychain.count == 1)
        #expect(try backend.read(query()) == Data("two".utf8))
        let item = try keychain.copyMatching(
            KeychainQuery(service: "coffer", account: "ai/openai", synchronizable: .any, returnAttributes: true)
        ).get().first
        #expect(item?.synchronizable == true)
        #expect(item?.accessibility == .whenUnlocked)
    }

    @Test("the accessibility class is written; a syncing this-device-only item is refused before any call")
    func accessibility() throws {
        let backend = backend
        try backend.save(Data("v".utf8), for: query(policy: .backgroundThisDeviceOnly))
        let item = try keychain.copyMatching(
            KeychainQuery(service: "coffer", account: "ai/openai", returnAttributes: true)
        ).get().first
        #expect(item?.accessibility == .afterFirstUnlockThisDeviceOnly)
        #expect {
            try backend.save(
                Data("v".utf8), for: query("other", synchronizable: true, policy: .backgroundThisDeviceOnly))
        } throws: { error in
            if case .unsupported = error as? SecretsError { true } else { false }
        }
        #expect(try backend.read(query("other")) == nil)
    }

    @Test("a locked device reads as locked, never as missing; background items stay readable; nothing is lost")
    func lockedDevice() throws {
        let backend = backend
        try backend.save(Data("foreground".utf8), for: query("fg"))
        try backend.save(Data("background".utf8), for: query("bg", policy: .backgroundThisDeviceOnly))
        keychain.setLocked(true)
        #expect(throws: SecretsError.self) { try backend.read(query("fg")) }
        do {
            _ = try backend.read(query("fg"))
        } catch let error as SecretsError {
            guard case .locked = error else { Issue.record("\(error)"); return }
        }
        #expect(try backend.read(query("bg")) == Data("background".utf8))
        #expect(throws: SecretsError.self) { try backend.save(Data("new".utf8), for: query("fg")) }
        keychain.setLocked(false)
        #expect(try backend.read(query("fg")) == Data("foreground".utf8))
    }

    @Test("before the first unlock after a restart, even background items are locked")
    func afterReboot() throws {
        let backend = backend
        try backend.save(Data("background".utf8), for: query("bg", policy: .backgroundThisDeviceOnly))
        keychain.reboot()
        #expect(throws: SecretsError.self) { try backend.read(query("bg")) }
        keychain.setLocked(false)
        #expect(try backend.read(query("bg")) == Data("background".utf8))
    }

    @Test("an access group the app is not entitled to is unavailable and names the entitlement")
    func missingEntitlement() throws {
        do {
            try backend.save(Data("v".utf8), for: query(group: "group.someone-else"))
            Issue.record("saved into an unentitled group")
        } catch let error as SecretsError {
            guard case .unavailable(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.contains("keychain-access-groups"))
            #expect(message.contains("group.someone-else"))
        }
    }

    @Test("a local and a synchronizable item for one path (written by another app) are an ambiguous match")
    func ambiguous() throws {
        let backend = backend
        for synchronizable in [KeychainQuery.Synchronizability.notSynchronizable, .synchronizable] {
            #expect(
                keychain.add(
                    KeychainQuery(
                        service: "coffer", account: "shared", accessGroup: "TEAMID.dev.coffer.tests",
                        synchronizable: synchronizable, data: Data("x".utf8))) == .success)
        }
        #expect {
            try backend.read(query("shared"))
        } throws: { error in
            if case .ambiguousMatch = error as? SecretsError { true } else { false }
        }
        #expect(try backend.delete(query("shared")))
        #expect(keychain.count == 0)
    }
}

@Suite("Every Keychain status maps to the SecretsError a caller can act on")
struct KeychainStatusMappingTests {
    /// A client whose every call answers one status.
    struct FailingClient: SecItemClient {
        let status: KeychainStatus
        func add(_ attributes: KeychainQuery) -> KeychainStatus { status }
        func copyMatching(_ query: KeychainQuery) -> Result<[KeychainItem], KeychainStatusError> {
            .failure(KeychainStatusError(status))
        }
        func update(_ query: KeychainQuery, with changes: KeychainQuery) -> KeychainStatus { status }
        func delete(_ query: KeychainQuery) -> KeychainStatus { status }
    }

    static let cases: [(KeychainStatus, String)] = [
        (.interactionNotAllowed, "locked"), (.userCanceled, "authenticationCancelled"),
        (.authFailed, "authenticationDenied"),
        (.missingEntitlement, "unavailable"), (.notAvailable, "unavailable"), (.param, "unsupported"),
        (.decode, "corruptData"), (KeychainStatus(rawValue: -99_999), "unavailable"),
    ]

    @Test("reads, saves, deletes and lists", arguments: cases)
    func mapping(status: KeychainStatus, expected: String) {
        let backend = AppleKeychainBackend(client: FailingClient(status: status))
        let query = SecretQuery<Data>(service: "coffer", account: "a", accessGroup: "group.explicit")
        let operations: [() throws -> Void] = [
            { _ = try backend.read(query) }, { try backend.save(Data(), for: query) },
            { _ = try backend.delete(query) }, { _ = try backend.listAccounts(service: "coffer", accessGroup: "g") },
        ]
        for operation in operations {
            do {
                try operation()
                Issue.record("\(status) did not throw")
            } catch {
                #expect(Self.caseName(error) == expected, "\(status): \(error)")
            }
        }
    }

    @Test("not found is nil for a read, false for a delete, empty for a list")
    func notFound() throws {
        let backend = AppleKeychainBackend(client: FailingClient(status: .itemNotFound))
        let query = SecretQuery<Data>(service: "coffer", account: "a", accessGroup: "group.explicit")
        #expect(try backend.read(query) == nil)
        #expect(try backend.delete(query) == false)
        #expect(try backend.listAccounts(service: "coffer", accessGroup: "g").isEmpty)
    }

    static func caseName(_ error: any Error) -> String {
        guard let error = error as? SecretsError else { return "\(type(of: error))" }
        return error.caseName
    }
}
