import Foundation
import Secrets

/// Where an authenticator's long-lived credential lives: a Coffer secret store (the Keychain, the Secret Service,
/// an encrypted file store…). It loads the credential, writes back refresh tokens the server rotated, and clears a
/// refresh token the server rejected.
public actor AccessTokenStorage {
    private let store: any SecretsStoring
    private let id: ServiceID<OAuthCredential>

    /// Keeps the credential in `store` at `id` (``OAuthCredential/id`` unless given). A path other than the
    /// default needs a store that writes at any path (``Secrets/SecretsDataStoring``, which
    /// ``Secrets/AggregateSecretsStore`` is).
    public init(store: any SecretsStoring, id: ServiceID<OAuthCredential> = OAuthCredential.id) {
        self.store = store
        self.id = id
    }

    /// The stored credential.
    ///
    /// - Throws: ``TokenAuthenticationError/missingCredential(_:)`` when there is none, or when it lacks what its
    ///   grant needs (a refresh token cleared after `invalid_grant`, say); ``TokenAuthenticationError/credentialStore(_:)``
    ///   for the store's errors (a locked keychain…).
    public func credential() throws(TokenAuthenticationError) -> OAuthCredential {
        let stored: OAuthCredential?
        do {
            stored = try store.read(id)
        } catch {
            throw .credentialStore(error as? SecretsError ?? .unsupported("\(type(of: error))"))
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
    /// still holds `sent`: another process sharing the store (an app and its extension) may have rotated it already,
    /// and its newer token must not be overwritten.
    ///
    /// - Returns: Whether the token was saved.
    @discardableResult
    public func saveRotatedRefreshToken(_ token: String, replacing sent: String?) throws(TokenAuthenticationError)
        -> Bool
    {
        var updated = try stored()
        guard updated.refreshToken == sent else { return false }
        updated.refreshToken = token
        try save(updated)
        return true
    }

    /// Removes the refresh token (keeping the client's identity) after the server answered `invalid_grant` for
    /// `sent`, if the store still holds `sent` (a newer one, rotated by another process, is kept).
    ///
    /// - Returns: Whether the token was removed.
    @discardableResult
    public func clearRefreshToken(_ sent: String?) throws(TokenAuthenticationError) -> Bool {
        var updated = try stored()
        guard updated.refreshToken == sent else { return false }
        updated.refreshToken = nil
        try save(updated)
        return true
    }

    private func stored() throws(TokenAuthenticationError) -> OAuthCredential {
        do {
            guard let stored = try store.read(id) else {
                throw TokenAuthenticationError.missingCredential("there is no credential at \(id.path)")
            }
            return stored
        } catch let error as TokenAuthenticationError {
            throw error
        } catch {
            throw .credentialStore(error as? SecretsError ?? .unsupported("\(type(of: error))"))
        }
    }

    private func save(_ credential: OAuthCredential) throws(TokenAuthenticationError) {
        do {
            if id == OAuthCredential.id {
                try store.save(credential)
            } else if let dataStore = store as? any SecretsDataStoring {
                try dataStore.saveData(credential.encode(), account: id.path)
            } else {
                throw SecretsError.unsupported(
                    "saving a credential at \(id.path) in a store that only writes at a type's own path")
            }
        } catch {
            throw .credentialStore(error as? SecretsError ?? .unsupported("\(type(of: error))"))
        }
    }
}
