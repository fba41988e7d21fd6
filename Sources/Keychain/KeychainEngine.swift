import Foundation
import Secrets

/// The concrete keychain behind ``Keychain``: items of one service in a ``Secrets/SecretsBackend`` (the Apple
/// Keychain, the Secret Service, the encrypted file store…), with a cache-aside in-memory copy of what was read
/// or written.
///
/// Reads look in the cache first and fill it from the store on a miss; an item whose policy makes the user
/// authenticate is never cached, so that each read asks the store (and its ``Secrets/AuthenticationContext``).
/// Writes and deletes go to the store first and touch the cache only once the store succeeded, so a failing store
/// never leaves the cache saying otherwise; they are serialized, so the cache ends up holding the store's last value.
/// A read that raced a write never puts the older value back into the cache (each key carries a generation that
/// writes advance). Thread-safe.
public final class KeychainEngine: Sendable {
    private struct State {
        var cache: [String: Data] = [:]
        var generations: [String: UInt64] = [:]
        var epoch: UInt64 = 0
    }

    /// The store.
    public let backend: any SecretsBackend
    /// The service every key lives under.
    public let service: String
    /// The access group, or `nil` for the default one.
    public let accessGroup: String?
    /// Whether items sync over iCloud (where the store supports it).
    public let synchronizable: Bool
    /// When items may be read.
    public let accessPolicy: AccessPolicy

    private let state = Locked(State())
    private let writes = Locked(())

    /// Creates an engine over `backend`.
    public init(
        backend: any SecretsBackend, service: String = "coffer", accessGroup: String? = nil,
        synchronizable: Bool = false, accessPolicy: AccessPolicy = .defaultSyncableWhenUnlocked
    ) {
        self.backend = backend
        self.service = service
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
        self.accessPolicy = accessPolicy
    }

    /// The bytes at `key`: from the cache, else from the store (and then cached).
    public func read(_ key: String) throws -> Data? {
        let (cached, generation) = state.withLock { state in
            (state.cache[key], (state.epoch, state.generations[key, default: 0]))
        }
        if let cached { return cached }
        let data = try backend.read(query(key))
        guard !accessPolicy.accessControl.requiresUserAuthentication else { return data }
        state.withLock { state in
            // Only if no write or reset happened meanwhile: otherwise this value may already be stale.
            if let data, (state.epoch, state.generations[key, default: 0]) == generation { state.cache[key] = data }
        }
        return data
    }

    /// Stores `data` at `key` (with `accessPolicy`, else the engine's); the cache holds it once the store does.
    public func write(_ data: Data, _ key: String, accessPolicy: AccessPolicy? = nil) throws {
        try writes.withLock { _ in
            var query = query(key)
            if let accessPolicy { query.accessPolicy = accessPolicy }
            try backend.save(data, for: query)
            let cached = !query.accessPolicy.accessControl.requiresUserAuthentication
            state.withLock { state in
                state.cache[key] = cached ? data : nil
                state.generations[key, default: 0] &+= 1
            }
        }
    }

    /// Removes `key` from the store, then from the cache; returns whether the store had it.
    @discardableResult
    public func delete(_ key: String) throws -> Bool {
        try writes.withLock { _ in
            let deleted = try backend.delete(query(key))
            state.withLock { state in
                state.cache.removeValue(forKey: key)
                state.generations[key, default: 0] &+= 1
            }
            return deleted
        }
    }

    /// Deletes every key of the service from the store and empties the cache.
    public func reset() throws {
        try writes.withLock { _ in
            defer {
                state.withLock { state in
                    state.cache.removeAll()
                    state.epoch &+= 1
                }
            }
            for account in try backend.listAccounts(service: service, accessGroup: accessGroup) {
                try backend.delete(query(account))
            }
        }
    }

    /// Forgets the cached values (the store keeps them); the next reads go to the store.
    public func clearCache() {
        state.withLock { state in
            state.cache.removeAll()
            state.epoch &+= 1
        }
    }

    /// The keys of the service in the store, sorted.
    public func keys() throws -> [String] {
        try backend.listAccounts(service: service, accessGroup: accessGroup)
    }

    private func query(_ key: String) -> SecretQuery<Data> {
        SecretQuery(
            service: service, account: key, accessGroup: accessGroup, synchronizable: synchronizable,
            accessPolicy: accessPolicy)
    }
}
