import Foundation

/// Where share links are kept (the `share_links` table), by the SHA-256 of their token. ``WalletRepository``
/// includes it.
package protocol ShareLinkStore: TagLookup {
    /// Stores `link` unless its pass has `maximumLinks` links that still work at `now`; returns whether it did. The
    /// pass's expired links are deleted first, in the same transaction.
    func createShareLink(_ link: ShareLink, maximumLinks: Int, now: Date) async throws -> Bool
    /// The pass's links that the client made, newest first.
    func shareLinks(passID: UUID, clientID: UUID) async throws -> [ShareLink]
    /// Deletes the client's link `id` of the pass; returns whether there was one.
    func deleteShareLink(id: UUID, passID: UUID, clientID: UUID) async throws -> Bool
    /// Gives the pass a new token (`assignment`) and ends its registrations, device pushes, share links and kept
    /// archive, and gives it a new Google Wallet object (queueing its write at `now`), in one transaction.
    func rotateAuthentication(passID: UUID, assignment: PassAuthenticationTokens.Assignment, now: Date) async throws
    /// The link whose token hashes to `tokenHash` if it still works at `now` and its pass is still its client's, with
    /// the pass's serial number and the pass type's organization name; `nil` otherwise, whichever the reason.
    func sharedPass(tokenHash: Data, now: Date) async throws -> SharedPass?
    /// Marks the link used at `now` if it still works then, atomically (of two concurrent uses of a single-use link,
    /// one wins); returns whether it did.
    func useShareLink(id: UUID, now: Date) async throws -> Bool
}

/// What a share link's page and download need, read in one query.
package struct SharedPass: Hashable, Sendable {
    /// The link.
    package var link: ShareLink
    /// The pass's serial number (the download's file name).
    package var serialNumber: String
    /// The pass type's organization name (shown on the page).
    package var organizationName: String

    /// Creates the record.
    package init(link: ShareLink, serialNumber: String, organizationName: String) {
        self.link = link
        self.serialNumber = serialNumber
        self.organizationName = organizationName
    }
}
