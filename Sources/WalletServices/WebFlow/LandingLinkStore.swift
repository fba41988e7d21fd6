import Foundation

/// A landing link as stored: the SHA-256 of its token (never the token), the pass it adds and the client it belongs
/// to, and when it stops working.
package struct LandingLink: Hashable, Sendable {
    /// SHA-256 of the link's token (``SecretToken/hash(_:)``).
    package var tokenHash: Data
    /// The pass the page adds to Wallet.
    package var passID: UUID
    /// The client whose API user made the link; issuer data is scoped to it.
    package var clientID: UUID
    /// When it was made.
    package var createdAt: Date
    /// When it stops working.
    package var expiresAt: Date

    /// Creates a landing link record.
    package init(tokenHash: Data, passID: UUID, clientID: UUID, createdAt: Date, expiresAt: Date) {
        self.tokenHash = tokenHash
        self.passID = passID
        self.clientID = clientID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// What the landing page needs about a link that still works, read in one query: the link, how the client's tag is
/// looked up (the first of its reference, Pronto and subscription identifiers that it has), and the name shown on the
/// page.
package struct LandingTarget: Hashable, Sendable {
    /// The link.
    package var link: LandingLink
    /// The attribute ``tagValue`` is the tag's value of.
    package var tagAttribute: TagIDAttribute
    /// The tag's value of ``tagAttribute``, as the issuer-data endpoint takes it.
    package var tagValue: String
    /// The pass type's organization name (shown on the page).
    package var organizationName: String

    /// Creates a target.
    package init(link: LandingLink, tagAttribute: TagIDAttribute, tagValue: String, organizationName: String) {
        self.link = link
        self.tagAttribute = tagAttribute
        self.tagValue = tagValue
        self.organizationName = organizationName
    }
}

/// Where landing links are kept (the `landing_links` table), by the SHA-256 of their token.
///
/// ``WalletRepository`` includes it.
package protocol LandingLinkStore: Sendable {
    /// Stores a landing link.
    func createLandingLink(_ link: LandingLink) async throws
    /// The link whose token hashes to `tokenHash`, if it exists and has not expired at `now`, with its tag's lookup
    /// and the pass type's organization name; `nil` otherwise (an unknown and an expired link look the same).
    func landingTarget(tokenHash: Data, now: Date) async throws -> LandingTarget?
    /// Deletes up to `limit` links that expired at or before `now`; returns how many it deleted.
    func deleteExpiredLandingLinks(now: Date, limit: Int) async throws -> Int
}
