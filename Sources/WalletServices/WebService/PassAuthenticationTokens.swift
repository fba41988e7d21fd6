import CofferSupport
import Crypto
import Foundation
import Secrets

/// The `authenticationToken` of each pass: random per pass, never stored.
///
/// A pass's token is the HMAC-SHA256 of its identifier and a random salt under a server key kept in the secret
/// store (``secretPath``), as URL-safe Base64 (43 characters). The database holds the salt and the token's SHA-256:
/// with the database alone nobody can make a token, and every re-signed pass carries the same token again. A pass
/// gets a new token by getting a new salt.
package struct PassAuthenticationTokens: Sendable {
    /// Where the server key lives in the secret store (shared by replicas when the store is in PostgreSQL).
    package static let secretPath = "wallet/web-service/authentication-key"

    private let key: SymmetricKey
    /// What seals the archives kept for fetches, under a key derived from this one.
    let archiveSeal: KeptArchiveSeal

    /// Creates the tokens from a 32-byte key.
    package init(key: SymmetricKey) {
        self.key = key
        archiveSeal = KeptArchiveSeal(webServiceKey: key)
    }

    /// The server key from `store`, made and stored on first use, while `lock` keeps every other server out, so that
    /// servers starting together make one key.
    ///
    /// A key is made only when there is none and no pass has a token yet: tokens made under a lost key would never
    /// verify again, so a missing key with tokens out, or a stored value that is not 32 bytes, is an error, never a
    /// silent replacement.
    ///
    /// - Throws: ``WalletServerError/secretUnusable(_:)`` saying what to restore.
    package static func load(from store: any SecretsDataStoring, lockingWith lock: any WebServiceKeyLock) async throws
        -> PassAuthenticationTokens
    {
        try await lock.withWebServiceKeyLock { passesCarryTokens in
            if let stored = try store.readData(account: secretPath) {
                guard stored.count == 32 else {
                    throw WalletServerError.secretUnusable(
                        "the web service's authentication key (\(secretPath) in the secret store) is \(stored.count) "
                            + "bytes, not 32: restore it from a backup of the secret store; it is not replaced, "
                            + "because a new key would lock every issued pass out of its updates")
                }
                return PassAuthenticationTokens(key: SymmetricKey(data: stored))
            }
            guard try await !passesCarryTokens() else {
                throw WalletServerError.secretUnusable(
                    "the web service's authentication key (\(secretPath) in the secret store) is missing, but passes "
                        + "carry tokens made under it: restore it from a backup of the secret store; a new key would "
                        + "lock every issued pass out of its updates")
            }
            let key = SecureRandom.bytes(count: 32)
            try store.saveData(key, account: secretPath)
            guard try store.readData(account: secretPath) == key else {
                throw WalletServerError.secretUnusable(
                    "the web service's authentication key changed while it was being stored: start the server again")
            }
            return PassAuthenticationTokens(key: SymmetricKey(data: key))
        }
    }

    /// A pass's salt with the hash of the token it makes: what the database keeps of a pass's token.
    package struct Assignment: Hashable, Sendable {
        /// The random salt the token is made from.
        package var salt: String
        /// The SHA-256 of the token.
        package var tokenHash: Data

        /// Creates an assignment.
        package init(salt: String, tokenHash: Data) {
            self.salt = salt
            self.tokenHash = tokenHash
        }
    }

    /// A new random salt.
    package static func makeSalt() -> String { SecureRandom.hex(byteCount: 16) }

    /// A new token for the pass `passID` (a new salt), with what the database keeps of it: a rebound pass gets one,
    /// so that whoever held it before can no longer fetch, register or unregister.
    package func newToken(passID: UUID) -> (token: String, assignment: Assignment) {
        let salt = Self.makeSalt()
        let token = token(passID: passID, salt: salt)
        return (token, Assignment(salt: salt, tokenHash: SecretToken.hash(token)))
    }

    /// The token of the pass `passID` with `salt`.
    package func token(passID: UUID, salt: String) -> String {
        let message = Data("coffer pass authentication\u{0}\(passID.uuidString)\u{0}\(salt)".utf8)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: key)
        return Data(mac).base64URLEncodedString
    }

    /// A new token for the order `orderID` (a new salt), with what the database keeps of it.
    package func newToken(orderID: UUID) -> (token: String, assignment: Assignment) {
        let salt = Self.makeSalt()
        let token = token(orderID: orderID, salt: salt)
        return (token, Assignment(salt: salt, tokenHash: SecretToken.hash(token)))
    }

    /// The token of the order `orderID` with `salt`: made like a pass's, under a label of its own.
    package func token(orderID: UUID, salt: String) -> String {
        let message = Data("coffer order authentication\u{0}\(orderID.uuidString)\u{0}\(salt)".utf8)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key)).base64URLEncodedString
    }

    /// What a pass's trace keeps of a device's library identifier: the first 16 hexadecimal digits of its HMAC under
    /// the server key, the same on every replica and across restarts, and no way back to the identifier.
    package func deviceDigest(_ deviceLibraryIdentifier: String) -> String {
        let message = Data("coffer device\u{0}\(deviceLibraryIdentifier)".utf8)
        return String(HMAC<SHA256>.authenticationCode(for: message, using: key).hexString.prefix(16))
    }

    /// The token of a pass, giving the pass a salt (and storing its token's hash) first when it has none.
    ///
    /// Only a pass's first token writes: every later one (each callback and fetch) reads the salt.
    package func token(passID: UUID, in store: any PassWebServiceStore) async throws -> String {
        if let salt = try await store.authenticationSalt(passID: passID) { return token(passID: passID, salt: salt) }
        let candidate = Self.makeSalt()
        let salt = try await store.authenticationSalt(
            passID: passID, assigning: candidate,
            tokenHash: SecretToken.hash(token(passID: passID, salt: candidate)))
        return token(passID: passID, salt: salt)
    }

    /// Whether the `Authorization` header `authorization` (`ApplePass <token>`, or `AppleOrder <token>` with that
    /// `scheme`) carries the token whose SHA-256 is `storedHash`, compared in constant time.
    package static func authorizes(_ authorization: String?, storedHash: Data?, scheme: String = "ApplePass") -> Bool {
        guard let storedHash, let authorization else { return false }
        let header = authorization.utf8
        guard header.starts(with: scheme.utf8), header.dropFirst(scheme.utf8.count).first == UInt8(ascii: " ") else {
            return false
        }
        // The header's optional white space (spaces and tabs) around the token, as HTTP allows it.
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var token = Array(header.dropFirst(scheme.utf8.count + 1).drop(while: isSpace))
        while let last = token.last, isSpace(last) { token.removeLast() }
        guard (16...512).contains(token.count) else { return false }
        return SecretToken.constantTimeEquals(SecretToken.hash(token), storedHash)
    }
}
