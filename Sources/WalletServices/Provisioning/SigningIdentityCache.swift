import Foundation
import NIOPosix
import Secrets
import WalletDocuments
import WalletOrders
import WalletPasses

/// Loads pass types' signing identities from Coffer's secret store and keeps them in memory for a while.
///
/// Decrypting and parsing an identity costs far more than a signature; the cache keeps each one after its first
/// use and checks that it is really for the pass type and team it is stored under. Entries are reloaded after
/// ``reloadInterval`` (10 seconds by default). Every new identity is stored at a new path and the pass type's record
/// switched to it (``PassTypeIdentities``), so a server that reads the record signs with it at once, on every
/// replica and without a restart.
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
    /// - Throws: `WalletDocumentError/unreadableKey(_:)` when the store has none at the pass type's path,
    ///   `WalletDocumentError/identityMismatch(expected:found:)` when the stored one is for another pass type,
    ///   `SecretsError` when the store cannot be read.
    public func identity(for passType: PassType) async throws -> SigningIdentity {
        try await identity(at: passType.signingKeyPath, of: passType)
    }

    /// When `passType` stops being able to sign: its current certificate's end or, when a staged identity loads and
    /// takes over by then, that one's.
    ///
    /// - Throws: What ``identity(for:)`` throws for the current identity.
    package func signingEnd(of passType: PassType) async throws -> Date {
        let current = try await identity(for: passType).notValidAfter
        guard let nextPath = passType.nextSigningKeyPath, let activatesAt = passType.nextActivatesAt,
            activatesAt <= current, let next = try? await identity(at: nextPath, of: passType)
        else { return current }
        return max(current, next.notValidAfter)
    }

    /// The identity stored at `path` (the current, staged or replaced one of `passType`), checked to be the pass
    /// type's.
    package func identity(at path: String, of passType: PassType) async throws -> SigningIdentity {
        let now = ContinuousClock.now
        if let entry = entries[path], now - entry.loadedAt < reloadInterval {
            return entry.identity
        }
        let store = store
        let identity = try await NIOThreadPool.singleton.runIfActive {
            try SigningIdentity(from: store, at: path)
        }
        try Self.check(identity, of: passType)
        // Identities replaced by an import (their paths are no longer used) leave once they are stale.
        entries = entries.filter { now - $0.value.loadedAt < reloadInterval }
        entries[path] = Entry(identity: identity, loadedAt: now)
        return identity
    }

    /// Throws `WalletDocumentError/identityMismatch(expected:found:)` unless `identity` is `passType`'s: a Pass Type ID
    /// certificate of its identifier and team, or for an order type, the Order Type ID certificate of its identifier
    /// and team.
    package static func check(_ identity: SigningIdentity, of passType: PassType) throws {
        switch passType.kind {
        case .pass:
            try identity.check(
                passTypeIdentifier: passType.passTypeIdentifier, teamIdentifier: passType.teamIdentifier)
        case .order:
            try SigningIdentity.check(identity.certificate, orderTypeIdentifier: passType.passTypeIdentifier)
            guard identity.teamIdentifier == passType.teamIdentifier else {
                throw WalletDocumentError.identityMismatch(
                    expected: "order type \(passType.passTypeIdentifier) (team \(passType.teamIdentifier))",
                    found: "team \(identity.teamIdentifier ?? "none")")
            }
        }
    }

    /// Drops the identity kept for `path`, so that the next use reads the store.
    package func forget(path: String) {
        entries[path] = nil
    }
}
