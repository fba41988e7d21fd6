import Foundation
import Keychain
import Logging
import Secrets
import SecretsPlatform

/// Where `@AppSecureStorage` values live: a ``Keychain/KeychainEngine`` (so reads are cached and every wrapper on a
/// key sees the same value), observers notified after each change, and a handler for the errors a property
/// wrapper cannot throw.
///
/// ## Sharing a SecretsStore
///
/// Made with ``init(store:authentication:errorHandler:)``, the values live in a ``Secrets/SecretsStore`` the rest
/// of the app shares (a background refresh saving a new token through it, say), and the storage follows the store's
/// ``Secrets/SecretsStore/changes()``: each change empties the engine's cache and notifies the key's observers, so
/// wrappers read the new value and SwiftUI views using it update.
///
/// A property wrapper reads and writes synchronously, and the actor cannot be awaited there, so:
/// - **reads** stay synchronous: from the engine's cache, else straight from the store's underlying
///   ``Secrets/SecretsDataStoring`` on the caller's thread (as a Keychain read always is). Between a write made
///   elsewhere returning and its change reaching this storage, a cached read may still answer the previous value;
///   the change notification follows, and every read after it answers the new value.
/// - **writes** are queued and sent to the actor one at a time, in the order they were made (so they serialize with
///   every other writer of the item and are reported to the store's subscribers). Until the store has a write,
///   reads of its key answer it, so a wrapper reads its own writes at once. A write that fails goes to
///   ``errorHandler``, and the key then reads what is stored. ``flush()`` waits for the queue (before the app is
///   suspended, say).
/// - Items take the store's service and access policy; a wrapper asking for another accessibility is reported to
///   ``errorHandler`` (``Secrets/SecretsError/unsupported(_:)``) and nothing is written.
///
/// ## Items that need the user
///
/// A storage whose policy makes the user authenticate (Face ID, Touch ID, the passcode) reads through its
/// ``authentication`` context, or a wrapper's own: one prompt serves the reads made with a context until its reuse
/// window ends, and a context that may not prompt reads such items as `nil`, reporting
/// ``Secrets/SecretsError/authenticationRequired(item:)`` to ``errorHandler``. Such items are never cached.
public final class SecureStorage: Sendable {
    /// A change observer's registration; dropping it (or calling ``cancel()``) stops the notifications.
    public final class Observation: Sendable {
        private let cancellation: @Sendable () -> Void
        init(_ cancellation: @escaping @Sendable () -> Void) { self.cancellation = cancellation }
        /// Stops the notifications.
        public func cancel() { cancellation() }
        deinit { cancellation() }
    }

    /// The app's store, under the app's bundle identifier: the platform's store as ``SecretsPlatform/SecretsStack``
    /// chooses it (the Keychain on Apple platforms, the Secret Service on Linux). Where it cannot be used, every read
    /// and write reports why to ``errorHandler``. Errors are logged (keys only, never values).
    public static let standard: SecureStorage = {
        let service = Bundle.main.bundleIdentifier ?? "coffer.app-secure-storage"
        let backend: any SecretsBackend
        do throws(SecretsError) {
            backend = try SecretsError.catching {
                try SecretsStack.select(configuration: SecretsConfiguration(service: service)).backend
            }
        } catch {
            backend = UnavailableBackend(error)
        }
        return SecureStorage(engine: KeychainEngine(backend: backend, service: service))
    }()

    /// The engine values are read from and written to.
    public let engine: KeychainEngine
    /// Receives every error a wrapper meets, with the key.
    public let errorHandler: @Sendable (_ error: any Error, _ key: String) -> Void
    /// The shared store the values live in, when made with ``init(store:authentication:errorHandler:)``.
    public var store: SecretsStore? { follower?.store }
    /// How reads of items that need the user may prompt, unless a wrapper names its own context; `nil`: the
    /// platform's default.
    public let authentication: AuthenticationContext?
    private let observers: Locked<[String: [UUID: @Sendable () -> Void]]>
    private let follower: StoreFollower?
    private let storePolicy: AccessPolicy?

    /// Creates a store over `engine`, whose reads prompt as `authentication` says.
    public init(
        engine: KeychainEngine, authentication: AuthenticationContext? = nil,
        errorHandler: @escaping @Sendable (_ error: any Error, _ key: String) -> Void = Keychain.logError
    ) {
        self.engine = engine
        self.authentication = authentication
        self.errorHandler = errorHandler
        self.observers = Locked([:])
        self.follower = nil
        self.storePolicy = nil
    }

    /// Creates a storage whose values live in `store`, shared with the rest of the app, and that follows its
    /// changes (see "Sharing a SecretsStore" above). Its ``engine`` caches the store's items and reads them from
    /// the store's ``Secrets/SecretsStore/base``; write through the wrappers or the store, not the engine.
    public init(
        store: SecretsStore, authentication: AuthenticationContext? = nil,
        errorHandler: @escaping @Sendable (_ error: any Error, _ key: String) -> Void = Keychain.logError
    ) {
        let configuration = store.aggregateStore?.configuration
        let engine = KeychainEngine(
            backend: StoreItemsBackend(base: store.base),
            service: configuration?.service ?? SecretsConfiguration.defaultService,
            accessGroup: configuration?.accessGroup,
            accessPolicy: configuration?.accessPolicy ?? .defaultSyncableWhenUnlocked)
        self.authentication = authentication
        let observers = Locked<[String: [UUID: @Sendable () -> Void]]>([:])
        self.observers = observers
        self.engine = engine
        self.errorHandler = errorHandler
        self.storePolicy = configuration?.accessPolicy ?? .defaultSyncableWhenUnlocked
        self.follower = StoreFollower(
            store: store, clearCache: { engine.clearCache() },
            notify: { key in Self.notify(observers, key) }, report: errorHandler)
    }

    /// Calls `onChange` after every write or delete of `key` through this store, on the writer's thread.
    public func observe(_ key: String, onChange: @escaping @Sendable () -> Void) -> Observation {
        let id = UUID()
        observers.withLock { $0[key, default: [:]][id] = onChange }
        return Observation { [observers] in observers.withLock { _ = $0[key]?.removeValue(forKey: id) } }
    }

    /// Returns once every wrapper write made so far has reached the shared store (or failed and been reported);
    /// at once for a storage over an engine, whose writes are done when the setter returns.
    public func flush() async {
        await follower?.flush()
    }

    /// The bytes at `key`, read with `authentication` (else the storage's), or `nil` (a failure goes to
    /// ``errorHandler`` and reads as `nil`).
    func read(_ key: String, authentication: AuthenticationContext? = nil) -> Data? {
        if let pending = follower?.pendingValue(key) { return pending }
        do {
            return try AuthenticationContext.withCurrent(authentication ?? self.authentication) {
                try engine.read(key)
            }
        } catch {
            errorHandler(error, key)
            return nil
        }
    }

    /// Writes `data` at `key` with `accessibility` (`nil` deletes it), then notifies the key's observers.
    func write(_ data: Data?, _ key: String, accessibility: AccessPolicy.Accessibility) {
        if let follower, let storePolicy {
            guard data == nil || AccessPolicy(accessibility: accessibility) == storePolicy else {
                errorHandler(
                    SecretsError.unsupported(
                        "'\(key)' asks for another accessibility than the shared SecretsStore keeps its items with: "
                            + "use the store's, or keep the key in a SecureStorage over its own engine"), key)
                return
            }
            follower.enqueue(data, key)
            Self.notify(observers, key)
            return
        }
        do {
            try AuthenticationContext.withCurrent(authentication) {
                if let data {
                    // The wrapper names the accessibility; the storage's access-control flags stay.
                    let policy = AccessPolicy(
                        accessibility: accessibility, accessControl: engine.accessPolicy.accessControl)
                    try engine.write(data, key, accessPolicy: policy)
                } else {
                    try engine.delete(key)
                }
            }
        } catch {
            errorHandler(error, key)
            return
        }
        Self.notify(observers, key)
    }

    private static func notify(_ observers: Locked<[String: [UUID: @Sendable () -> Void]]>, _ key: String) {
        for notify in observers.withLock({ Array(($0[key] ?? [:]).values) }) { notify() }
    }
}
