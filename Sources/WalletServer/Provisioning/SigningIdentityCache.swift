import Foundation
import Secrets
import WalletPasses

/// Loads pass types' signing identities from Coffer's secret store, once each.
///
/// Decrypting and parsing an identity costs far more than a signature; the cache keeps each one in memory after
/// its first use and checks that it is really for the pass type and team it is stored under.
public actor SigningIdentityCache {
    private let store: any SecretsDataStoring
    private var identities: [String: SigningIdentity] = [:]

    /// Creates a cache over `store`.
    public init(store: any SecretsDataStoring) {
        self.store = store
    }

    /// The identity of `passType`.
    ///
    /// - Throws: ``WalletPassesError/unreadableKey(_:)`` when the store has none at the pass type's path,
    ///   ``WalletPassesError/identityMismatch(expected:found:)`` when the stored one is for another pass type.
    public func identity(for passType: PassType) throws -> SigningIdentity {
        if let cached = identities[passType.signingKeyPath] { return cached }
        let identity = try SigningIdentity(from: store, at: passType.signingKeyPath)
        try identity.check(passTypeIdentifier: passType.passTypeIdentifier, teamIdentifier: passType.teamIdentifier)
        identities[passType.signingKeyPath] = identity
        return identity
    }
}
