import Foundation
import Keychain
import Logging
import Secrets
import SecretsKeychain
import SecretsSecretService

/// Where `@AppSecureStorage` values live: a ``Keychain/KeychainEngine`` (so reads are cached and every wrapper on a
/// key sees the same value), observers notified after each change, and a handler for the errors a property
/// wrapper cannot throw.
public final class SecureStorage: Sendable {
    /// A change observer's registration; dropping it (or calling ``cancel()``) stops the notifications.
    public final class Observation: Sendable {
        private let cancellation: @Sendable () -> Void
        init(_ cancellation: @escaping @Sendable () -> Void) { self.cancellation = cancellation }
        /// Stops the notifications.
        public func cancel() { cancellation() }
        deinit { cancellation() }
    }

    /// The app's store: the Keychain under the app's bundle identifier on Apple platforms, the Secret Service
    /// elsewhere. Errors are logged (keys only, never values).
    public static let standard: SecureStorage = {
        let service = Bundle.main.bundleIdentifier ?? "coffer.app-secure-storage"
        #if canImport(Security)
            let backend: any SecretsBackend = AppleKeychainBackend()
        #else
            let backend: any SecretsBackend = SecretServiceBackend()
        #endif
        return SecureStorage(engine: KeychainEngine(backend: backend, service: service))
    }()

    /// The engine values are read from and written to.
    public let engine: KeychainEngine
    /// Receives every error a wrapper meets, with the key.
    public let errorHandler: @Sendable (_ error: any Error, _ key: String) -> Void
    private let observers = Locked<[String: [UUID: @Sendable () -> Void]]>([:])

    /// Creates a store over `engine`.
    public init(
        engine: KeychainEngine,
        errorHandler: @escaping @Sendable (_ error: any Error, _ key: String) -> Void = Keychain.logError
    ) {
        self.engine = engine
        self.errorHandler = errorHandler
    }

    /// Calls `onChange` after every write or delete of `key` through this store, on the writer's thread.
    public func observe(_ key: String, onChange: @escaping @Sendable () -> Void) -> Observation {
        let id = UUID()
        observers.withLock { $0[key, default: [:]][id] = onChange }
        return Observation { [observers] in observers.withLock { _ = $0[key]?.removeValue(forKey: id) } }
    }

    /// The bytes at `key`, or `nil` (a failure goes to ``errorHandler`` and reads as `nil`).
    func read(_ key: String) -> Data? {
        do {
            return try engine.read(key)
        } catch {
            errorHandler(error, key)
            return nil
        }
    }

    /// Writes `data` at `key` with `accessibility` (`nil` deletes it), then notifies the key's observers.
    func write(_ data: Data?, _ key: String, accessibility: AccessPolicy.Accessibility) {
        do {
            if let data {
                try engine.write(data, key, accessPolicy: AccessPolicy(accessibility: accessibility))
            } else {
                try engine.delete(key)
            }
        } catch {
            errorHandler(error, key)
            return
        }
        for notify in observers.withLock({ Array(($0[key] ?? [:]).values) }) { notify() }
    }
}
