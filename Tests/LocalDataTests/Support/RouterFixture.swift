import CofferTestSupport
import Foundation
import LocalData
import Secrets
import SecretsAudit
import SecretsKeychain
import SecretsSecretService

/// A router over temporary directories, an emulated Apple Keychain (or the real Secret Service) and a sync
/// transport the test can read.
struct RouterFixture {
    let directory: TemporaryDirectory
    let keychain: SecItemEmulator
    let keychainBackend: any SecretsBackend
    let transport: InMemorySyncTransport
    let router: StorageRouter
    /// The shared store the keychain domain sits on, when the fixture was made with `sharedStore`.
    let store: SecretsStore?
    let applicationIdentifier: String
    /// An app group of the test's own (its defaults suite and container are unique to the test).
    let appGroup: String

    init(
        secretService: Bool = false,
        keyMaterialProviders: [KeyMaterialSource: any KeyMaterialProviding] = [:],
        platform: StoragePlatform = .phone,
        unregisteredKeyPolicy: UnregisteredKeyPolicy = .reject,
        maximumKeychainValueSize: Int = 16 * 1024,
        transport: InMemorySyncTransport = InMemorySyncTransport(),
        sharedStore: Bool = false, storeAccessibility: AccessPolicy.Accessibility = .whenUnlocked,
        audited: Bool = false
    ) throws {
        let directory = try TemporaryDirectory(prefix: "coffer-localdata")
        let unique = UUID().uuidString.prefix(8).lowercased()
        self.directory = directory
        self.applicationIdentifier = "dev.coffer.localdata-tests.\(unique)"
        self.appGroup = "group.dev.coffer.tests.\(unique)"
        self.keychain = SecItemEmulator()
        self.keychainBackend =
            secretService ? SecretServiceBackend() : AppleKeychainBackend(emulator: keychain) as any SecretsBackend
        self.transport = transport
        let root = directory.url
        let backend = keychainBackend
        let store = sharedStore ? Self.makeStore(backend, applicationIdentifier, storeAccessibility, audited) : nil
        self.store = store
        let locations = StorageLocations(
            applicationIdentifier: applicationIdentifier,
            environment: [
                "HOME": root.path, "XDG_DATA_HOME": root.appending(path: "data").path,
                "XDG_CACHE_HOME": root.appending(path: "cache").path,
            ],
            appGroupContainer: { root.appending(path: "groups/\($0)", directoryHint: .isDirectory) })
        self.router = StorageRouter(
            configuration: StorageConfiguration(
                applicationIdentifier: applicationIdentifier, locations: locations, keychainBackend: { backend },
                keychainStore: store, maximumKeychainValueSize: maximumKeychainValueSize,
                keyMaterialProviders: keyMaterialProviders,
                syncTransport: transport, platform: platform, unregisteredKeyPolicy: unregisteredKeyPolicy))
    }

    /// A store over `backend` keeping items with `accessibility`, behind an audit (with no sinks) if `audited`.
    private static func makeStore(
        _ backend: any SecretsBackend, _ service: String, _ accessibility: AccessPolicy.Accessibility, _ audited: Bool
    ) -> SecretsStore {
        let aggregate = AggregateSecretsStore(
            backend: backend,
            configuration: SecretsConfiguration(
                service: service, accessPolicy: AccessPolicy(accessibility: accessibility)))
        return audited ? SecretsStore(aggregate, audit: SecretsAudit(sinks: [])) : SecretsStore(aggregate)
    }

    /// Every file under the fixture's directory with its bytes.
    func filesOnDisk() throws -> [(path: String, bytes: Data)] {
        guard let enumerator = FileManager.default.enumerator(at: directory.url, includingPropertiesForKeys: nil)
        else { return [] }
        return try enumerator.compactMap { $0 as? URL }
            .filter { (try $0.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true }
            .map { ($0.path, try Data(contentsOf: $0)) }
    }

    /// Removes what the test left in shared places: its defaults suite and its Secret Service items.
    func cleanUp() throws {
        UserDefaults.standard.removePersistentDomain(forName: appGroup)
        let configHome =
            ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"] ?? NSHomeDirectory() + "/.config"
        try? FileManager.default.removeItem(atPath: "\(configHome)/\(appGroup).plist")
        for account in try keychainBackend.listAccounts(service: applicationIdentifier, accessGroup: nil) {
            try keychainBackend.delete(SecretQuery<Data>(service: applicationIdentifier, account: account))
        }
    }
}
