import Foundation

/// A client's `Idempotency-Key`: 1–255 printable ASCII characters. A create retried with the same key and the same
/// request within ``lifetime`` answers what the first one answered and creates nothing.
package struct IdempotencyKey: Hashable, Sendable, CustomStringConvertible {
    /// The key as the client sent it.
    package let value: String

    /// How long a key is remembered.
    package static let lifetime: TimeInterval = 24 * 60 * 60

    /// The key, or `nil` when `value` is empty, longer than 255 characters or not printable ASCII.
    package init?(_ value: String) {
        guard (1...255).contains(value.utf8.count), value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            return nil
        }
        self.value = value
    }

    /// The key itself (it is the client's choice, not a secret).
    package var description: String { value }
}

/// A key claimed for one request: the key and the fingerprint of the request it was first used with.
package struct IdempotencyClaim: Hashable, Sendable {
    /// The key.
    package let key: IdempotencyKey
    /// The SHA-256 of the request (``PassCreationRequest/fingerprint``).
    package let requestHash: Data

    /// Creates a claim.
    package init(key: IdempotencyKey, requestHash: Data) {
        self.key = key
        self.requestHash = requestHash
    }
}

/// What a create answered: the status and the exact body, stored with its idempotency key to be answered again.
package struct StoredResponse: Hashable, Sendable {
    /// The HTTP status.
    package let status: Int
    /// The JSON body.
    package let body: Data
    /// Whether this is a stored answer to an earlier request with the same key (nothing was created now).
    package let replayed: Bool

    /// Creates a response.
    package init(status: Int, body: Data, replayed: Bool) {
        self.status = status
        self.body = body
        self.replayed = replayed
    }
}
