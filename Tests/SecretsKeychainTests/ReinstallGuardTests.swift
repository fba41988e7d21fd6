import Foundation
import Secrets
import SecretsKeychain
import Testing

@Suite("Reinstalls: the container goes with the app, the Keychain stays; the guard wipes the app's items once")
struct ReinstallGuardTests {
    let keychain = SecItemEmulator(defaultAccessGroup: "TEAMID.com.example.app", otherAccessGroups: ["TEAMID.shared"])
    let container = FileManager.default.temporaryDirectory.appendingPathComponent("container-\(UUID().uuidString)")
    var backend: AppleKeychainBackend { AppleKeychainBackend(client: keychain) }
    let scopes = [
        ReinstallGuard.Scope(service: "app"), ReinstallGuard.Scope(service: "app", accessGroup: "TEAMID.shared"),
    ]

    func launch(_ policy: ReinstallGuard.Policy) throws -> ReinstallGuard.Outcome {
        try ReinstallGuard(
            policy: policy, backend: backend, scopes: scopes,
            markerDirectory: container.appendingPathComponent("Library/Application Support/Coffer/installation")
        ).run()
    }

    func save(_ account: String, service: String = "app", group: String? = nil) throws {
        try backend.save(
            Data(account.utf8), for: SecretQuery<Data>(service: service, account: account, accessGroup: group))
    }

    /// Deleting the app: its container goes, its Keychain items stay.
    func deleteApp() throws {
        try FileManager.default.removeItem(at: container)
    }

    @Test("wipeOnFirstLaunch: after a reinstall the app's services and groups are emptied, once; others are kept")
    func wipesOnce() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        #expect(try launch(.wipeOnFirstLaunch) == .init(isFirstLaunch: true, removedItems: 0, keptItems: 0))
        try save("token")
        try save("shared-token", group: "TEAMID.shared")
        try save("other", service: "another-service")
        #expect(try launch(.wipeOnFirstLaunch).isFirstLaunch == false)
        #expect(
            try backend.read(SecretQuery<Data>(service: "app", account: "token")) != nil, "a relaunch wipes nothing")

        try deleteApp()
        #expect(keychain.count == 3, "the Keychain outlives the app")
        #expect(try launch(.wipeOnFirstLaunch) == .init(isFirstLaunch: true, removedItems: 2, keptItems: 0))
        #expect(try backend.read(SecretQuery<Data>(service: "app", account: "token")) == nil)
        #expect(try backend.listAccounts(service: "app", accessGroup: "TEAMID.shared").isEmpty)
        #expect(try backend.read(SecretQuery<Data>(service: "another-service", account: "other")) != nil)

        try save("new-token")
        #expect(try launch(.wipeOnFirstLaunch).removedItems == 0)
        #expect(try backend.read(SecretQuery<Data>(service: "app", account: "new-token")) != nil, "only once")
    }

    @Test("keep: a reinstalled app finds its items, and learns that they are from before")
    func keeps() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        _ = try launch(.keep)
        try save("token")
        try deleteApp()
        #expect(try launch(.keep) == .init(isFirstLaunch: true, removedItems: 0, keptItems: 1))
        #expect(try backend.read(SecretQuery<Data>(service: "app", account: "token")) != nil)
        #expect(try launch(.keep).isFirstLaunch == false)
    }

    @Test("a wipe that meets a locked device throws, and the next launch wipes again")
    func interruptedWipe() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        _ = try launch(.keep)
        try save("token")
        try deleteApp()
        keychain.reboot()
        #expect(throws: SecretsError.self) { try launch(.wipeOnFirstLaunch) }
        keychain.setLocked(false)
        #expect(try launch(.wipeOnFirstLaunch) == .init(isFirstLaunch: true, removedItems: 1, keptItems: 0))
    }

    @Test("a marker it cannot understand is corruptData, and nothing is deleted")
    func corruptMarker() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        _ = try launch(.keep)
        try save("token")
        let marker = container.appendingPathComponent("Library/Application Support/Coffer/installation/installation")
        try Data("garbage".utf8).write(to: marker)
        #expect(throws: SecretsError.corruptData("the installation marker at \(marker.path)")) {
            try launch(.wipeOnFirstLaunch)
        }
        #expect(keychain.count == 1)
    }
}
