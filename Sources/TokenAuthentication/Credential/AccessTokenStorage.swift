import Foundation
import Secrets

/// Where an authenticator's long-lived credential lives: a Coffer secret store (the Keychain, the Secret Service,
/// an encrypted file store…). It loads the credential, writes back refresh tokens the server rotated, and clears a
/// refresh token the server rejected.
///
/// Every access goes through a ``Secrets/SecretsStore``: the one the app shares (the initializer that takes one),
/// or one of its own over a synchronous store. Backend calls run off the cooperative pool, and the compare-and-swap
/// of a rotated refresh token runs under the store's write lock for the credential
/// (``Secrets/SecretsStore/update(account:_:)``), so storages, background refreshes and sign-in flows sharing one
/// store never overwrite each other's newer token.
///
/// ```swift
/// let secrets = SecretsStore(backend: AppleKeychainBackend())
/// let authenticator = PublicRequestAuthenticator(
///     endpoint: TokenEndpoint(url: tokenURL), storage: AccessTokenStorage(store: secrets))
/// ```
public actor AccessTokenStorage {
    /// The store every access goes through.
    public nonisolated let store: SecretsStore
    /// Where the credential is kept.
    public nonisolated let id: ServiceID<OAuthCredential>

    /// Keeps the credential in `store`, shared with the rest of the app, at `id` (``OAuthCredential/id`` unless
    /// given).
    public init(store: SecretsStore, id: ServiceID<OAuthCredential> = OAuthCredential.id) {
        self.store = store
        self.id = id
    }

    /// Keeps the credential in `store` at `id` (``OAuthCredential/id`` unless given), through a
    /// ``Secrets/SecretsStore`` of this storage's own. A path other than the default needs a store that writes at
    /// any path (``Secrets/SecretsDataStoring``, which ``Secrets/AggregateSecretsStore`` is); share one
    /// ``Secrets/SecretsStore`` (the initializer that takes one) so that other components' writes serialize
    /// with this storage's.
    public init(store: any SecretsStoring, id: ServiceID<OAuthCredential> = OAuthCredential.id) {
        let data = store as? any SecretsDataStoring ?? CredentialOnlyStore(store: store)
        self.init(store: SecretsStore(data), id: id)
    }

    /// The stored credential.
    ///
    /// - Throws: ``TokenAuthenticationError/missingCredential(_:)`` when there is none, or when it lacks what its
    ///   grant needs (a refresh token cleared after `invalid_grant`, say); ``TokenAuthenticationError/credentialStore(_:)``
    ///   for the store's errors (a locked keychain…).
    public func credential() async throws(TokenAuthenticationError) -> OAuthCredential {
        let stored: OAuthCredential?
        do {
            stored = try await store.read(id)
        } catch {
            throw .credentialStore(error)
        }
        guard let stored else {
            throw .missingCredential("there is no credential at \(id.path): save one first")
        }
        if let issue = stored.validate().first {
            throw .missingCredential("the credential at \(id.path) cannot be used: \(issue.message)")
        }
        return stored
    }

    /// Saves the refresh token the server issued in place of `sent`, the one it consumed (RFC 6749 §6), if the store
    /// still holds `sent`: another storage or process sharing the store (an app and its extension) may have rotated
    /// it already, and its newer token must not be overwritten.
    ///
    /// - Returns: Whether the token was saved.
    @discardableResult
    public func saveRotatedRefreshToken(_ token: String, replacing sent: String?) async throws(TokenAuthenticationError)
        -> Bool
    {
        try await replaceRefreshToken(sent, with: token)
    }

    /// Removes the refresh token (keeping the client's identity) after the server answered `invalid_grant` for
    /// `sent`, if the store still holds `sent` (a newer one, rotated by another storage or process, is kept).
    ///
    /// - Returns: Whether the token was removed.
    @discardableResult
    public func clearRefreshToken(_ sent: String?) async throws(TokenAuthenticationError) -> Bool {
        try await replaceRefreshToken(sent, with: nil)
    }

    /// The compare-and-swap both changes make: read, compare and write under the store's lock for the item.
    private func replaceRefreshToken(_ sent: String?, with token: String?) async throws(TokenAuthenticationError)
        -> Bool
    {
        let path = id.path
        let outcome = Locked<TokenAuthenticationError?>(nil)
        let done: SecretsStoreUpdate
        do throws(SecretsError) {
            done = try await store.update(account: path) {
                (current: Data?) throws(SecretsError) -> SecretsStoreUpdate in
                guard let current else {
                    outcome.withLock { $0 = .missingCredential("there is no credential at \(path)") }
                    return .keep
                }
                var credential: OAuthCredential
                do throws(TokenAuthenticationError) {
                    credential = try Self.decode(current, at: path)
                } catch {
                    outcome.withLock { $0 = error }
                    return .keep
                }
                guard credential.refreshToken == sent else { return .keep }
                credential.refreshToken = token
                do {
                    return .save(try credential.encode())
                } catch {
                    throw .encodingFailed(type: "OAuthCredential", reason: "\(type(of: error))")
                }
            }
        } catch {
            throw .credentialStore(error)
        }
        if let failure = outcome.withLock({ $0 }) { throw failure }
        return done != .keep
    }

    private static func decode(_ data: Data, at path: String) throws(TokenAuthenticationError) -> OAuthCredential {
        do {
            return try OAuthCredential(decode: data)
        } catch {
            throw .credentialStore(
                .decodingFailed(account: path, type: "OAuthCredential", reason: "\(type(of: error))"))
        }
    }
}
