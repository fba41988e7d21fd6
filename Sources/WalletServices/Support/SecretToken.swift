import CofferSupport
import Crypto
import Foundation
import Secrets

/// Random tokens and identifiers, and the hashes stored in their place.
package enum SecretToken {
    /// A new API token: 32 random bytes, URL-safe Base64 without padding (43 characters).
    package static func makeAPIToken() -> String {
        SecureRandom.bytes(count: 32).base64URLEncodedString
    }

    /// The SHA-256 of a token: what is stored and looked up, so the token itself is never kept.
    package static func hash(_ token: String) -> Data {
        hash(Array(token.utf8))
    }

    /// The SHA-256 of a token's bytes.
    package static func hash(_ token: [UInt8]) -> Data {
        Data(SHA256.hash(data: token))
    }

    /// Compares two byte strings in time that depends only on their lengths.
    package static func constantTimeEquals(_ lhs: Data, _ rhs: Data) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }
}
