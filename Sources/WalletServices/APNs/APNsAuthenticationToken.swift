import CofferSupport
import Secrets
import Crypto
import Foundation

/// The provider token APNs authenticates token-based requests with: a JSON Web Token signed with ES256 by an
/// ``APNsSigningKey`` (header `{"alg":"ES256","kid":<key ID>}`, claims `{"iss":<team ID>,"iat":<seconds>}`).
///
/// One token serves every request until it is ``renewalAge`` old (50 minutes): APNs refuses tokens older than an
/// hour (`ExpiredProviderToken`) and throttles providers that make new ones more often than every 20 minutes
/// (`TooManyProviderTokenUpdates`). ``bearer()`` makes a token the first time and renews it when due; ``renew(after:)``
/// drops a token APNs called expired. The token is a credential: it is never logged.
package final class APNsAuthenticationToken: Sendable {
    /// How old a token gets before the next request makes a new one.
    package static let renewalAge: TimeInterval = 50 * 60

    private struct Issued {
        let token: String
        let issuedAt: Date
    }

    /// The key that signs the tokens.
    package let key: APNsSigningKey
    private let clock: any CofferClock
    private let issued = Locked<Issued?>(nil)

    /// Creates a token source signing with `key`, reading the time from `clock`.
    package init(key: APNsSigningKey, clock: any CofferClock = SystemClock()) {
        self.key = key
        self.clock = clock
    }

    /// The token to send now (as `authorization: bearer <token>`), made anew when none was made yet or the last one
    /// is ``renewalAge`` old.
    package func bearer() throws -> String {
        let now = clock.now
        return try issued.withLock { issued in
            if let current = issued, now.timeIntervalSince(current.issuedAt) < Self.renewalAge,
                now >= current.issuedAt
            {
                return current.token
            }
            let token = try Self.make(key: key, issuedAt: now)
            issued = Issued(token: token, issuedAt: now)
            return token
        }
    }

    /// Drops `token` if it is still the current one, so that the next ``bearer()`` makes a new one (after APNs
    /// answered `ExpiredProviderToken`).
    package func renew(after token: String) {
        issued.withLock { issued in
            if issued?.token == token { issued = nil }
        }
    }

    /// A token signed by `key`, issued at `issuedAt` (whole seconds since 1970).
    package static func make(key: APNsSigningKey, issuedAt: Date) throws -> String {
        let header = #"{"alg":"ES256","kid":"\#(key.keyID)"}"#
        let claims = #"{"iss":"\#(key.teamID)","iat":\#(Int64(issuedAt.timeIntervalSince1970.rounded(.down)))}"#
        let signingInput = Data(header.utf8).base64URLEncodedString + "." + Data(claims.utf8).base64URLEncodedString
        // ES256 in a JWT is the raw r || s pair (64 bytes), not DER.
        let signature = try key.privateKey.signature(for: Data(signingInput.utf8))
        return signingInput + "." + signature.rawRepresentation.base64URLEncodedString
    }
}
