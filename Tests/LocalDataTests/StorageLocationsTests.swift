import CofferTestSupport
import Foundation
import LocalData
import Secrets
import SecretsKeychain
import Testing

@Suite("Storage locations on Apple platforms (injected) and Linux")
struct StorageLocationsTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func apple(groups: @escaping @Sendable (String) -> URL?) -> StorageLocations {
        let home = directory.url
        return StorageLocations(
            applicationIdentifier: "com.example.app",
            platform: .apple(
                StorageLocations.AppleDirectories(
                    documents: home.appending(path: "Documents"),
                    applicationSupport: home.appending(path: "Library/Application Support"),
                    caches: home.appending(path: "Library/Caches"), appGroupContainer: groups)))
    }

    @Test("internal data lives in Application Support/<bundle id>, never in Documents; caches are namespaced")
    func appleDirectories() {
        let locations = apple { _ in nil }
        let home = directory.url.path
        #expect(locations.internalDataDirectory.path == home + "/Library/Application Support/com.example.app")
        #expect(locations.url(for: .caches).path == home + "/Library/Caches/com.example.app")
        #expect(locations.url(for: .documents).path == home + "/Documents")
        #expect(!locations.internalDataDirectory.path.hasPrefix(locations.url(for: .documents).path))
    }

    @Test("the router keeps the keychain overflow store in the internal data directory, not in Documents")
    func overflowIsInternal() async throws {
        let locations = apple { _ in nil }
        let backend = AppleKeychainBackend(emulator: SecItemEmulator())
        let router = StorageRouter(
            configuration: StorageConfiguration(
                applicationIdentifier: "com.example.app", locations: locations, keychainBackend: { backend },
                maximumKeychainValueSize: 64, unregisteredKeyPolicy: .ignore))
        let key = testKey("big", .keychain, serializer: Serializer<Data>.data)
        let big = Data(repeating: 7, count: 4096)
        try await router.set(big, for: key)
        #expect(try await router.get(key) == big)
        let documents = directory.url.appending(path: "Documents").path
        #expect(!FileManager.default.fileExists(atPath: documents), "nothing is written under Documents")
        let internalPath = locations.internalDataDirectory.path
        let written =
            FileManager.default.enumerator(atPath: internalPath)?.allObjects.compactMap { $0 as? String } ?? []
        #expect(written.contains { $0.contains("keychain-overflow") })
    }

    @Test("an earlier version's overflow store under Documents is moved on first use, and its values read back")
    func legacyOverflowMoves() async throws {
        let locations = apple { _ in nil }
        let backend = AppleKeychainBackend(emulator: SecItemEmulator())
        func router() -> StorageRouter {
            StorageRouter(
                configuration: StorageConfiguration(
                    applicationIdentifier: "com.example.app", locations: locations, keychainBackend: { backend },
                    maximumKeychainValueSize: 64, unregisteredKeyPolicy: .ignore))
        }
        let key = testKey("big", .keychain, serializer: Serializer<Data>.data)
        let big = Data(repeating: 7, count: 4096)
        try await router().set(big, for: key)
        // Lay the store out as versions before Application Support kept it: under Documents.
        let legacy = directory.url.appending(path: "Documents/LocalData/keychain-overflow")
        try FileManager.default.createDirectory(
            at: legacy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: locations.keychainOverflowDirectory, to: legacy)

        #expect(try await router().get(key) == big)
        #expect(!FileManager.default.fileExists(atPath: legacy.path))
        #expect(FileManager.default.fileExists(atPath: locations.keychainOverflowDirectory.path))
        #expect(try locations.moveLegacyKeychainOverflowStore() == false, "moved once")
    }

    @Test("an overflow store in both places is left alone and reported, never merged or deleted")
    func legacyOverflowConflict() throws {
        let locations = apple { _ in nil }
        let legacy = directory.url.appending(path: "Documents/LocalData/keychain-overflow")
        for store in [legacy, locations.keychainOverflowDirectory] {
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: store.appending(path: "item"))
        }
        #expect(throws: SecretsError.self) { try locations.moveLegacyKeychainOverflowStore() }
        #expect(FileManager.default.fileExists(atPath: legacy.appending(path: "item").path))
        #expect(
            FileManager.default.fileExists(atPath: locations.keychainOverflowDirectory.appending(path: "item").path))
    }

    @Test("an app group whose container cannot be written is unavailable (macOS answers a path for any group)")
    func unusableGroup() throws {
        // A path under a regular file: it can be neither created nor written, even by root.
        let file = directory.appending("not-a-directory")
        try Data("x".utf8).write(to: file)
        let locations = apple { file.appending(path: $0) }
        #expect {
            try locations.url(for: .documents, inAppGroup: "group.com.example")
        } throws: { error in
            guard case .unavailable(let message) = error as? SecretsError else { return false }
            return message.contains("group.com.example")
        }
    }

    @Test("a writable container is available, and the probe leaves nothing in it")
    func usableGroup() throws {
        let groups = directory.appending("groups")
        let locations = apple { groups.appending(path: $0, directoryHint: .isDirectory) }
        let container = try locations.url(for: .documents, inAppGroup: "group.com.example")
        #expect(container.path == groups.appending(path: "group.com.example").path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: container.path).isEmpty)
        #expect(try locations.url(for: .caches, inAppGroup: "group.com.example").path.hasSuffix("Library/Caches"))
    }

    @Test("a group without a container is unavailable")
    func noContainer() {
        #expect(throws: SecretsError.self) { try apple { _ in nil }.url(for: .documents, inAppGroup: "group.x") }
    }

    @Test("Linux keeps its XDG paths; internal data is the data directory")
    func xdg() {
        let locations = StorageLocations(
            applicationIdentifier: "app", environment: ["HOME": "/home/u"], platform: .xdg)
        #expect(locations.internalDataDirectory.path == "/home/u/.local/share/app")
        #expect(locations.url(for: .documents).path == "/home/u/.local/share/app")
        #expect(locations.url(for: .caches).path == "/home/u/.cache/app")
    }
}

@Suite("Watch session reachability per side")
struct WatchSessionStateTests {
    @Test("a device without WatchConnectivity (iPad, Mac Catalyst, Vision Pro) is never reachable")
    func unsupported() {
        let state = WatchSessionState.unsupported(side: .phone)
        #expect(!state.isReachable)
        #expect(state.unreachableReason?.contains("not supported") == true)
    }

    @Test(
        "a phone needs an activated session, a paired watch and the watch app",
        arguments: [
            (true, true, true, true), (false, true, true, false), (true, false, true, false),
            (true, true, false, false),
        ])
    func phone(activated: Bool, paired: Bool, installed: Bool, reachable: Bool) {
        let state = WatchSessionState(
            side: .phone, isSupported: true, isActivated: activated, isPaired: paired,
            isCounterpartAppInstalled: installed)
        #expect(state.isReachable == reachable)
    }

    @Test("a watch needs an activated session and the iPhone app (isCompanionAppInstalled)")
    func watch() {
        var state = WatchSessionState(
            side: .watch, isSupported: true, isActivated: true, isPaired: true, isCounterpartAppInstalled: true)
        #expect(state.isReachable)
        state.isCounterpartAppInstalled = false
        #expect(state.unreachableReason?.contains("iPhone app") == true)
        state.isCounterpartAppInstalled = true
        state.isActivated = false
        #expect(!state.isReachable)
    }
}
