import Foundation
import NIOPosix
import Secrets
import WalletPasses

/// Loads pass types' signing identities from Coffer's secret store and keeps them in memory for a while.
///
/// Decrypting and parsing an identity costs far more than a signature; the cache keeps each one after its first
/// use and checks that it is really for the pass type and team it is stored under. Entries are reloaded after
/// ``reloadInterval`` (10 seconds by default), so a renewed certificate imported by `coffer admin pass-type import`
/// reaches every running server, every replica on one PostgreSQL database included, within that time and without a
/// restart. (An import stores the identity at a new path and switches the pass type's record to it, so a server
/// that reads the record sees the new identity at once.)
///
/// The store is read on a thread of `NIOThreadPool.singleton`, never on Swift concurrency's few threads: a store
/// in PostgreSQL blocks its caller until the database answers.
public actor SigningIdentityCache {
    private struct Entry {
        let identity: SigningIdentity
        let loadedAt: ContinuousClock.Instant
    }

    private let store: any SecretsDataStoring
    private var entries: [String: Entry] = [:]
    /// How long a loaded identity is used before it is read from the store again.
    package let reloadInterval: Duration

    /// Creates a cache over `store`.
    public init(store: any SecretsDataStoring, reloadInterval: Duration = .seconds(10)) {
        self.store = store
        self.reloadInterval = reloadInterval
    }

    /// The identity of `passType`.
    ///
    /// - Throws: `WalletPassesError/unreadableKey(_:)` when the store has none at the pass type's path,
    ///   `WalletPassesError/identityMismatch(expected:found:)` when the stored one is for another pass type,
    ///   `SecretsError` when the store cannot be read.
    public func identity(for passType: PassType) async throws -> SigningIdentity {
        let now = ContinuousClock.now
        let path = passType.signingKeyPath
        if let entry = entries[path], now - entry.loadedAt < reloadInterval {
            return entry.identity
        }
        let store = store
        let identity = try await NIOThreadPool.singleton.runIfActive {
            try SigningIdentity(from: store, at: path)
        }
        try identity.check(passTypeIdentifier: passType.passTypeIdentifier, teamIdentifier: passType.teamIdentifier)
        // Identities replaced by an import (their paths are no longer used) leave once they are stale.
        entries = entries.filter { now - $0.value.loadedAt < reloadInterval }
        entries[path] = Entry(identity: identity, loadedAt: now)
        return identity
    }

    /// Drops the identity kept for `path`, so that the next use reads the store.
    package func forget(path: String) {
        entries[path] = nil
    }
}
