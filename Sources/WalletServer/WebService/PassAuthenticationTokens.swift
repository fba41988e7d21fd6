import Crypto
import Foundation
import Secrets

/// The `authenticationToken` of each pass: random per pass, never stored.
///
/// A pass's token is the HMAC-SHA256 of its identifier and a random salt under a server key kept in the secret
/// store (``secretPath``), as URL-safe Base64 (43 characters). The database holds the salt and the token's SHA-256:
/// with the database alone nobody can make a token, and every re-signed pass carries the same token again. A pass
/// gets a new token by getting a new salt.
public struct PassAuthenticationTokens: Sendable {
    /// Where the server key lives in the secret store (shared by replicas when the store is in PostgreSQL).
    public static let secretPath = "wallet/web-service/authentication-key"

    private let key: SymmetricKey

    /// Creates the tokens from a 32-byte key.
    public init(key: SymmetricKey) {
        self.key = key
    }

    /// The server key from `store`, made and stored on first use.
    public static func load(from store: any SecretsDataStoring) throws -> PassAuthenticationTokens {
        if let stored = try store.readData(account: secretPath), stored.count == 32 {
            return PassAuthenticationTokens(key: SymmetricKey(data: stored))
        }
        try store.saveData(SecureRandom.bytes(count: 32), account: secretPath)
        // Read back: when two servers made a key at once, both use the one that was stored last.
        guard let stored = try store.readData(account: secretPath), stored.count == 32 else {
            throw WalletServerError.corruptRecord("the web service's authentication key")
        }
        return PassAuthenticationTokens(key: SymmetricKey(data: stored))
    }

    /// A new random salt.
    public static func makeSalt() -> String { SecureRandom.hex(byteCount: 16) }

    /// The token of the pass `passID` with `salt`.
    public func token(passID: UUID, salt: String) -> String {
        let message = Data("coffer pass authentication\u{0}\(passID.uuidString)\u{0}\(salt)".utf8)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
        return SecretToken.base64URL(Data(mac))
    }

    /// The token of a pass, giving the pass a salt (and storing its token's hash) first when it has none.
    ///
    /// Only a pass's first token writes: every later one (each callback and fetch) reads the salt.
    public func token(passID: UUID, in store: any PassWebServiceStore) async throws -> String {
        if let salt = try await store.authenticationSalt(passID: passID) { return token(passID: passID, salt: salt) }
        let candidate = Self.makeSalt()
        let salt = try await store.authenticationSalt(
            passID: passID, assigning: candidate,
            tokenHash: SecretToken.hash(token(passID: passID, salt: candidate)))
        return token(passID: passID, salt: salt)
    }

    /// Whether the `Authorization` header `authorization` (`ApplePass <token>`) carries the token whose SHA-256 is
    /// `storedHash`, compared in constant time.
    public static func authorizes(_ authorization: String?, storedHash: Data?) -> Bool {
        guard let storedHash, let authorization else { return false }
        let prefix = "ApplePass "
        guard authorization.hasPrefix(prefix) else { return false }
        let token = authorization.dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
        guard token.count >= 16, token.utf8.count <= 512 else { return false }
        return SecretToken.constantTimeEquals(SecretToken.hash(token), storedHash)
    }
}
