import Foundation
import Logging
import Secrets
import SecretsPlatform

/// Everything a ``StorageRouter`` is built from; the defaults suit an app on its own platform.
public struct StorageConfiguration: Sendable {
    /// The service name of key-store items and the name of the app's directories (the bundle identifier by
    /// default).
    public var applicationIdentifier: String
    /// Where the file domains are.
    public var locations: StorageLocations
    /// The keychain access group items are shared through (`nil`: the app's default).
    public var keychainAccessGroup: String?
    /// Opens the key store of the ``StorageDomain/keychain`` domain, on first use. By default the platform's
    /// (``SecretsPlatform/SecretsStack``): the Keychain, or the Secret Service on Linux (without one, keychain keys
    /// fail with `unavailable`).
    public var keychainBackend: @Sendable () throws -> any SecretsBackend
    /// A ``Secrets/SecretsStore`` the ``StorageDomain/keychain`` domain's values are kept in, shared with the rest of
    /// the app (`nil`: they go straight to ``keychainBackend``). The router's reads and writes then go through the
    /// actor, and the store's ``Secrets/SecretsStore/changes()`` reports them; keys take the store's service and
    /// access policy (a key asking for another policy is refused). Keys for encrypted domains and the overflow store
    /// stay in ``keychainBackend``, which by default is then the store's primary backend. A value too big for the
    /// key store moves to the overflow file, and the store reports its item deleted.
    public var keychainStore: SecretsStore?
    /// The largest value kept in the key store itself; bigger ones go to an encrypted file whose key is in the key
    /// store (``KeychainValueStore``).
    public var maximumKeychainValueSize: Int
    /// The largest value in a file domain.
    public var maximumFileValueSize: Int
    /// The largest value in a defaults domain.
    public var maximumDefaultsValueSize: Int
    /// The providers of key material, by source. Unless set, ``KeyMaterialSource/default`` is a random key kept
    /// in the key store (``StoredKeyMaterialProvider``).
    public var keyMaterialProviders: [KeyMaterialSource: any KeyMaterialProviding]
    /// What carries values to the paired watch: WatchConnectivity where it exists, nothing elsewhere.
    public var syncTransport: (any SyncTransport)?
    /// The device kind, for ``PlatformAvailability``.
    public var platform: StoragePlatform
    /// What happens when a key no registered catalog lists is used.
    public var unregisteredKeyPolicy: UnregisteredKeyPolicy
    /// Where the router logs (key names, never values).
    public var logger: Logger

    /// A configuration; every argument has a default.
    public init(
        applicationIdentifier: String = StorageLocations.defaultApplicationIdentifier,
        locations: StorageLocations? = nil,
        keychainAccessGroup: String? = nil,
        keychainBackend: (@Sendable () throws -> any SecretsBackend)? = nil,
        keychainStore: SecretsStore? = nil,
        maximumKeychainValueSize: Int = 16 * 1024,
        maximumFileValueSize: Int = 16 * 1024 * 1024,
        maximumDefaultsValueSize: Int = 512 * 1024,
        keyMaterialProviders: [KeyMaterialSource: any KeyMaterialProviding] = [:],
        syncTransport: (any SyncTransport)? = StorageConfiguration.platformSyncTransport,
        platform: StoragePlatform = .current,
        unregisteredKeyPolicy: UnregisteredKeyPolicy = .assertInDebug,
        logger: Logger = Logger(label: "coffer.localdata")
    ) {
        self.applicationIdentifier = applicationIdentifier
        self.locations = locations ?? StorageLocations(applicationIdentifier: applicationIdentifier)
        self.keychainAccessGroup = keychainAccessGroup
        let backend = SharedBackend(keychainBackend ?? Self.defaultKeychainBackend(keychainStore))
        self.keychainStore = keychainStore
        self.keychainBackend = backend.get
        self.maximumKeychainValueSize = maximumKeychainValueSize
        self.maximumFileValueSize = maximumFileValueSize
        self.maximumDefaultsValueSize = maximumDefaultsValueSize
        var providers = keyMaterialProviders
        if providers[.default] == nil {
            providers[.default] = StoredKeyMaterialProvider(service: applicationIdentifier, backend: backend.get)
        }
        self.keyMaterialProviders = providers
        self.syncTransport = syncTransport
        self.platform = platform
        self.unregisteredKeyPolicy = unregisteredKeyPolicy
        self.logger = logger
    }

    /// The key store used when none is given: the shared store's primary backend when it has one, else the
    /// platform's.
    private static func defaultKeychainBackend(
        _ store: SecretsStore?
    ) -> @Sendable () throws -> any SecretsBackend {
        if let aggregate = store?.aggregateStore {
            let primary = aggregate.backends[aggregate.options.primaryIndex]
            return { primary }
        }
        return { try SecretsStack.select().backend }
    }

    /// WatchConnectivity's default session where the framework exists, otherwise none.
    public static var platformSyncTransport: (any SyncTransport)? {
        #if canImport(WatchConnectivity)
            return WatchConnectivityTransport()
        #else
            return nil
        #endif
    }
}

/// A key store opened once, on first use, and shared by the keychain value store and the key material provider.
private final class SharedBackend: Sendable {
    private let make: @Sendable () throws -> any SecretsBackend
    private let opened = Locked<(any SecretsBackend)?>(nil)

    init(_ make: @escaping @Sendable () throws -> any SecretsBackend) {
        self.make = make
    }

    @Sendable func get() throws -> any SecretsBackend {
        try opened.withLock { opened in
            if let opened { return opened }
            let backend = try make()
            opened = backend
            return backend
        }
    }
}
