import Foundation
import Secrets
import SecretsKeychain
import Testing

@Suite("Reinstalls: the container goes with the app, the Keychain stays; the guard wipes only a fresh installation")
struct ReinstallGuardTests {
    static let appIdentifier = "com.example.app"
    let keychain = SecItemEmulator(defaultAccessGroup: "TEAMID.com.example.app", otherAccessGroups: ["TEAMID.shared"])
    let container = FileManager.default.temporaryDirectory.appendingPathComponent("container-\(UUID().uuidString)")
    var backend: AppleKeychainBackend { AppleKeychainBackend(emulator: keychain) }
    let scopes = [
        ReinstallGuard.Scope(service: "app"), ReinstallGuard.Scope(service: "app", accessGroup: "TEAMID.shared"),
    ]

    var installation: ReinstallGuard.Installation {
        ReinstallGuard.Installation(appIdentifier: Self.appIdentifier, container: container)
    }

    func launch(
        _ policy: ReinstallGuard.Policy, installation: ReinstallGuard.Installation? = nil,
        scopes: [ReinstallGuard.Scope]? = nil, wipesShared: Bool = true, clock: any CofferClock = SystemClock()
    ) throws -> ReinstallGuard.Outcome {
        try ReinstallGuard(
            policy: policy, backend: backend, scopes: scopes ?? self.scopes,
            installation: installation ?? self.installation, wipesSharedAccessGroups: wipesShared, clock: clock
        ).run()
    }

    func save(_ account: String, service: String = "app", group: String? = nil) throws {
        try backend.save(
            Data(account.utf8), for: SecretQuery<Data>(service: service, account: account, accessGroup: group))
    }

    /// Installing the app: the system makes its empty container.
    func install() throws {
        for folder in ["Documents", "Library/Preferences", "Library/Caches", "tmp"] {
            try FileManager.default.createDirectory(
                at: container.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    /// Deleting the app: its container goes, its Keychain items stay.
    func deleteApp() throws {
        try FileManager.default.removeItem(at: container)
    }

    @Test("wipeOnFirstLaunch: after a reinstall the app's services and groups are emptied, once; others are kept")
    func wipesOnce() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        try install()
        #expect(
            try launch(.wipeOnFirstLaunch)
                == .init(isFirstLaunch: true, finding: .freshInstallation, removedItems: 0, keptItems: 0))
        try save("token")
        try save("shared-token", group: "TEAMID.shared")
        try save("other", service: "another-service")
        #expect(try launch(.wipeOnFirstLaunch).finding == .launchedBefore)
        #expect(
            try backend.read(SecretQuery<Data>(service: "app", account: "token")) != nil, "a relaunch wipes nothing")

        try deleteApp()
        #expect(keychain.count == 3, "the Keychain outlives the app")
        try install()
        #expect(
            try launch(.wipeOnFirstLaunch)
                == .init(isFirstLaunch: true, finding: .freshInstallation, removedItems: 2, keptItems: 0))
        #expect(try backend.read(SecretQuery<Data>(service: "app", account: "token")) == nil)
        #expect(try backend.listAccounts(service: "app", accessGroup: "TEAMID.shared").isEmpty)
        #expect(try backend.read(SecretQuery<Data>(service: "another-service", account: "other")) != nil)

        try save("new-token")
        #expect(try launch(.wipeOnFirstLaunch).removedItems == 0)
        #expect(try backend.read(SecretQuery<Data>(service: "app", account: "new-token")) != nil, "only once")
    }

    @Test(
        "the update that adopts the guard deletes nothing: the container holds the app's files, or is not new",
        arguments: [
            "Documents/notes.json", "Library/Preferences/com.example.app.plist",
            "Library/Application Support/db.sqlite",
            "Library/Application Support/Coffer/store/secrets.enc", nil,
        ])
    func upgradeKeepsEverything(_ earlierFile: String?) throws {
        defer { try? FileManager.default.removeItem(at: container) }
        // Version 1, without the guard, was installed and used: a token in the Keychain, maybe a file of its own.
        try install()
        try save("token")
        try save("shared-token", group: "TEAMID.shared")
        let clock = ManualClock(Date())
        if let earlierFile {
            let file = container.appendingPathComponent(earlierFile)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: file)
        } else {
            // A version 1 that kept nothing but Keychain items: its container was made at its installation.
            clock.advance(by: 30 * 86_400)
        }
        // Version 2 adopts the guard.
        let outcome = try launch(.wipeOnFirstLaunch, clock: clock)
        #expect(outcome == .init(isFirstLaunch: true, finding: .updated, removedItems: 0, keptItems: 2))
        #expect(keychain.count == 2)
        #expect(try launch(.wipeOnFirstLaunch, clock: clock).finding == .launchedBefore)
        #expect(keychain.count == 2, "and no later launch wipes either")
    }

    @Test("keep: a reinstalled app finds its items, and learns that they are from before")
    func keeps() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        try install()
        _ = try launch(.keep)
        try save("token")
        try deleteApp()
        try install()
        #expect(
            try launch(.keep) == .init(isFirstLaunch: true, finding: .freshInstallation, removedItems: 0, keptItems: 1))
        #expect(try backend.read(SecretQuery<Data>(service: "app", account: "token")) != nil)
        #expect(try launch(.keep).isFirstLaunch == false)
    }

    @Test("a wipe that meets a locked device throws, and the next launch wipes again")
    func interruptedWipe() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        try install()
        _ = try launch(.keep)
        try save("token")
        try deleteApp()
        try install()
        keychain.reboot()
        #expect(throws: SecretsError.self) { try launch(.wipeOnFirstLaunch) }
        keychain.setLocked(false)
        #expect(
            try launch(.wipeOnFirstLaunch)
                == .init(isFirstLaunch: true, finding: .freshInstallation, removedItems: 1, keptItems: 0))
    }

    @Test("each app has its own marker: one app's launch or interrupted wipe decides nothing for another")
    func markersPerApp() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        // Two apps that share a home (as outside the App Sandbox), each with its own items.
        try install()
        let first = ReinstallGuard.Installation(appIdentifier: "com.example.first", container: container)
        let second = ReinstallGuard.Installation(appIdentifier: "com.example.second", container: container)
        let firstScopes = [ReinstallGuard.Scope(service: "first")]
        let secondScopes = [ReinstallGuard.Scope(service: "second")]
        #expect(try launch(.keep, installation: first, scopes: firstScopes).isFirstLaunch)
        #expect(try launch(.keep, installation: second, scopes: secondScopes).isFirstLaunch, "not the first's marker")
        try save("token", service: "second")

        let markers = try FileManager.default.contentsOfDirectory(
            atPath: container.appendingPathComponent("Library/Application Support/Coffer/installation").path)
        #expect(Set(markers) == ["app-com.example.first.installation", "app-com.example.second.installation"])
        // The first app's wipe is interrupted: its marker says so. The second app's next launch is unaffected.
        try Data("wiping\n".utf8).write(
            to: container.appendingPathComponent(
                "Library/Application Support/Coffer/installation/app-com.example.first.installation"))
        #expect(try launch(.wipeOnFirstLaunch, installation: second, scopes: secondScopes).finding == .launchedBefore)
        #expect(try backend.read(SecretQuery<Data>(service: "second", account: "token")) != nil)
    }

    @Test("without a container of its own to tell by (Linux, macOS outside the sandbox), nothing is wiped")
    func noContainer() throws {
        let identifier = "com.example.no-container.\(UUID().uuidString)"
        let marker = SecretsConfiguration.dataDirectory(named: "installation")
            .appendingPathComponent("app-\(identifier).installation")
        defer { try? FileManager.default.removeItem(at: marker) }
        try save("token")
        let outcome = try launch(
            .wipeOnFirstLaunch, installation: .init(appIdentifier: identifier, container: nil))
        #expect(outcome == .init(isFirstLaunch: true, finding: .undetermined, removedItems: 0, keptItems: 1))
        #expect(FileManager.default.fileExists(atPath: marker.path))
    }

    @Test("a shared access group is wiped only when asked for by name; the app's own group needs no asking")
    func sharedGroupsNeedConsent() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        try save("shared-token", group: "TEAMID.shared")
        try install()
        #expect(throws: SecretsError.self) { try launch(.wipeOnFirstLaunch, wipesShared: false) }
        #expect(keychain.count == 1, "refused before anything was deleted")
        #expect(
            try launch(
                .wipeOnFirstLaunch,
                scopes: [.init(service: "app"), .init(service: "app", accessGroup: "TEAMID.com.example.app")],
                wipesShared: false
            ).finding == .freshInstallation)
        #expect(keychain.count == 1, "another group's item is not the app's")
    }

    @Test("a marker it cannot understand is corruptData, and nothing is deleted")
    func corruptMarker() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        try install()
        _ = try launch(.keep)
        try save("token")
        let marker = container.appendingPathComponent(
            "Library/Application Support/Coffer/installation/app-com.example.app.installation")
        try Data("garbage".utf8).write(to: marker)
        #expect(throws: SecretsError.corruptData("the installation marker at \(marker.path)")) {
            try launch(.wipeOnFirstLaunch)
        }
        #expect(keychain.count == 1)
    }
}
