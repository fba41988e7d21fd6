import Foundation
import Secrets
import WalletPasses

/// Loads pass types' signing identities from Coffer's secret store and keeps them in memory for a while.
///
/// Decrypting and parsing an identity costs far more than a signature; the cache keeps each one after its first
/// use and checks that it is really for the pass type and team it is stored under. Entries are reloaded after
/// ``reloadInterval``, so a renewed certificate imported by `coffer admin pass-type import` reaches a running
/// server without a restart.
public actor SigningIdentityCache {
    private struct Entry {
        let identity: SigningIdentity
        let loadedAt: ContinuousClock.Instant
    }

    private let store: any SecretsDataStoring
    private var entries: [String: Entry] = [:]
    /// How long a loaded identity is used before it is read from the store again.
    public let reloadInterval: Duration

    /// Creates a cache over `store`.
    public init(store: any SecretsDataStoring, reloadInterval: Duration = .seconds(60)) {
        self.store = store
        self.reloadInterval = reloadInterval
    }

    /// The identity of `passType`.
    ///
    /// - Throws: ``WalletPassesError/unreadableKey(_:)`` when the store has none at the pass type's path,
    ///   ``WalletPassesError/identityMismatch(expected:found:)`` when the stored one is for another pass type.
    public func identity(for passType: PassType) throws -> SigningIdentity {
        let now = ContinuousClock.now
        if let entry = entries[passType.signingKeyPath], now - entry.loadedAt < reloadInterval {
            return entry.identity
        }
        let identity = try SigningIdentity(from: store, at: passType.signingKeyPath)
        try identity.check(passTypeIdentifier: passType.passTypeIdentifier, teamIdentifier: passType.teamIdentifier)
        entries[passType.signingKeyPath] = Entry(identity: identity, loadedAt: now)
        return identity
    }

    /// Drops the identity kept for `path`, so that the next use reads the store.
    public func forget(path: String) {
        entries[path] = nil
    }
}
