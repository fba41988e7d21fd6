import Foundation
import Logging
import Secrets
import WalletDocuments

/// Hands passes out: the signed `.pkpass` of a client's tag for its backend, and share links that serve it to a
/// phone (random, expiring, stored as a hash, revocable, optionally single-use).
///
/// Every archive comes from ``PassRenderer/signedArchive(passID:signingTime:)``: a pass that has not changed since
/// it was last signed costs no signature.
package struct PassDistribution: Sendable {
    /// How long a share link lasts when the request does not say: 7 days.
    package static let defaultLinkLifetime = 7 * 86_400
    /// The shortest and longest share link lifetimes accepted, in seconds: a minute to 30 days.
    package static let linkLifetimes: ClosedRange<Int> = 60...(30 * 86_400)
    /// The most working share links one pass may have at once.
    package static let maximumLinksPerPass = 100
    /// The path share links are served under, followed by the token.
    package static let sharePath = "/wallet/pass/"

    /// A share link just made: the only time its token exists outside the recipient's hands.
    package struct CreatedShareLink: Hashable, Sendable, CustomStringConvertible {
        /// The stored link.
        package var link: ShareLink
        /// The link's public URL, token included.
        package var url: String

        /// The link without its token: `<redacted>`.
        package var description: String { "CreatedShareLink(id: \(link.id), url: <redacted>)" }
    }

    /// A pass's signed archive and the name to save it under.
    package struct Archive: Sendable {
        /// The `.pkpass` bytes.
        package var pkpass: Data
        /// `<serial number>.pkpass`, with every character but letters, digits, `.`, `-` and `_` replaced by `_`.
        package var fileName: String
    }

    let repository: any ShareLinkStore & PassTraceStore
    let renderer: PassRenderer
    /// The server's public URL without a trailing slash, as share links carry it.
    let publicBaseURL: @Sendable () -> String
    let clock: any CofferClock
    /// Where downloads go in their passes' traces.
    let trace: PassEventRecorder
    let logger: Logger

    /// Creates the service; downloads go in their passes' traces through `trace`.
    package init(
        repository: any ShareLinkStore & PassTraceStore, renderer: PassRenderer,
        publicBaseURL: @escaping @Sendable () -> String,
        clock: any CofferClock = SystemClock(), trace: PassEventRecorder,
        logger: Logger = Logger(label: "coffer.distribution")
    ) {
        self.repository = repository
        self.renderer = renderer
        self.publicBaseURL = publicBaseURL
        self.clock = clock
        self.trace = trace
        self.logger = logger
    }

    /// The signed archive of the pass of the client's tag whose `attribute` is `value`.
    package func archive(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> Archive {
        let target = try await repository.managedPass(clientID: clientID, attribute: attribute, value: value)
        guard let pkpass = try await renderer.signedArchive(passID: target.passID, signingTime: clock.now) else {
            throw PassManagementFailure.notFound("a tag '\(value)' (\(attribute.rawValue)) with a pass")
        }
        trace.note([trace.event(.downloaded, passID: target.passID, details: ["via": .string("api")])])
        return Archive(pkpass: pkpass, fileName: Self.fileName(serialNumber: target.serialNumber))
    }

    /// Makes a share link for the pass of the client's tag, valid for `lifetime` seconds (``linkLifetimes``, by
    /// default ``defaultLinkLifetime``): 32 random bytes, URL-safe Base64, stored only as their SHA-256.
    ///
    /// - Throws: ``PassManagementFailure/invalidRequest(_:)`` for a lifetime out of bounds,
    ///   ``PassManagementFailure/conflict(_:)`` when the pass has ``maximumLinksPerPass`` working links.
    package func createShareLink(
        clientID: UUID, attribute: TagIDAttribute, value: String, lifetime: Int?, singleUse: Bool
    ) async throws -> CreatedShareLink {
        let seconds = lifetime ?? Self.defaultLinkLifetime
        guard Self.linkLifetimes.contains(seconds) else {
            throw PassManagementFailure.invalidRequest(
                "expires_in must be \(Self.linkLifetimes.lowerBound) to \(Self.linkLifetimes.upperBound) seconds")
        }
        let passID = try await repository.managedPass(clientID: clientID, attribute: attribute, value: value).passID
        let now = clock.now
        let token = SecretToken.makeAPIToken()
        let link = ShareLink(
            tokenHash: SecretToken.hash(token), passID: passID, clientID: clientID, singleUse: singleUse,
            createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(seconds)))
        guard try await repository.createShareLink(link, maximumLinks: Self.maximumLinksPerPass, now: now) else {
            throw PassManagementFailure.conflict(
                "\(Self.maximumLinksPerPass) working share links for this pass (the most it may have; revoke one)")
        }
        logger.info(
            "made a share link",
            metadata: ["pass": "\(passID)", "client": "\(clientID)", "share_link": "\(link.id)"])
        return CreatedShareLink(link: link, url: publicBaseURL() + Self.sharePath + token)
    }

    /// The share links the client made for the pass of its tag, newest first (never their tokens).
    package func shareLinks(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> [ShareLink] {
        let passID = try await repository.managedPass(clientID: clientID, attribute: attribute, value: value).passID
        return try await repository.shareLinks(passID: passID, clientID: clientID)
    }

    /// Revokes (deletes) the client's share link `id` of the pass of its tag.
    ///
    /// A revoked link serves nothing more, but whoever downloaded the pass through it holds the pass's
    /// `authenticationToken`, which keeps fetching updates. With `rotatingToken` the pass also gets a new token: every
    /// earlier holder (its owner's devices included, which must add the pass again) loses its updates, the pass's
    /// device registrations and its other share links end.
    ///
    /// - Throws: ``PassManagementFailure/notFound(_:)`` when there is no such link,
    ///   ``PassManagementFailure/unsupportedHere(_:)`` for `rotatingToken` when passes carry no token (no https
    ///   public URL).
    package func revokeShareLink(
        id: UUID, clientID: UUID, attribute: TagIDAttribute, value: String, rotatingToken: Bool = false
    ) async throws {
        let passID = try await repository.managedPass(clientID: clientID, attribute: attribute, value: value).passID
        let tokens = renderer.webService?.tokens
        if rotatingToken, tokens == nil {
            throw PassManagementFailure.unsupportedHere(
                "passes carry no authentication token here (the server's public URL is not https): nothing to rotate")
        }
        guard try await repository.deleteShareLink(id: id, passID: passID, clientID: clientID) else {
            throw PassManagementFailure.notFound("a share link \(id) of this pass")
        }
        logger.info("revoked a share link", metadata: ["pass": "\(passID)", "share_link": "\(id)"])
        guard rotatingToken, let tokens else { return }
        try await repository.rotateAuthentication(
            passID: passID, assignment: tokens.newToken(passID: passID).assignment, now: clock.now)
        logger.notice(
            "gave a pass a new authentication token; its registrations and share links ended",
            metadata: ["pass": "\(passID)", "share_link": "\(id)"])
        await trace.record(trace.event(.tokenRotated, passID: passID, details: ["share_link": .string(id.uuidString)]))
    }

    /// The pass a share link serves, if `token` is well formed and its link still works; `nil` otherwise, whichever
    /// the reason. Looking does not use the link.
    package func sharedPass(token: String) async throws -> SharedPass? {
        guard WebLinkService.isWellFormed(token: token) else { return nil }
        return try await repository.sharedPass(tokenHash: SecretToken.hash(token), now: clock.now)
    }

    /// The archive a share link serves, signed (or kept) first and then the link used, so that a single-use link is
    /// spent only on a download that happened; `nil` when the link no longer works (another download spent it).
    package func download(_ shared: SharedPass) async throws -> Archive? {
        guard let pkpass = try await renderer.signedArchive(passID: shared.link.passID, signingTime: clock.now),
            try await repository.useShareLink(id: shared.link.id, now: clock.now)
        else { return nil }
        logger.info(
            "served a pass through a share link",
            metadata: ["pass": "\(shared.link.passID)", "share_link": "\(shared.link.id)"])
        trace.note([
            trace.event(
                .downloaded, passID: shared.link.passID,
                details: ["via": .string("share_link"), "share_link": .string(shared.link.id.uuidString)])
        ])
        return Archive(pkpass: pkpass, fileName: Self.fileName(serialNumber: shared.serialNumber))
    }

    /// Uses a share link for a hand-out other than its download (`via`, as the trace names it: an "Add to Google
    /// Wallet" link); whether it still worked.
    package func use(_ shared: SharedPass, via: String) async throws -> Bool {
        guard try await repository.useShareLink(id: shared.link.id, now: clock.now) else { return false }
        logger.info(
            "handed out a pass through a share link",
            metadata: ["pass": "\(shared.link.passID)", "share_link": "\(shared.link.id)", "via": "\(via)"])
        trace.note([
            trace.event(
                .downloaded, passID: shared.link.passID,
                details: ["via": .string(via), "share_link": .string(shared.link.id.uuidString)])
        ])
        return true
    }

    /// `<serial number>.pkpass`, safe in a `Content-Disposition` header and on any file system.
    static func fileName(serialNumber: String) -> String {
        let safe = serialNumber.unicodeScalars.prefix(100).map { scalar -> Character in
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", ".", "-", "_": return Character(scalar)
            default: return "_"
            }
        }
        let name = String(safe).trimmingCharacters(in: CharacterSet(charactersIn: "."))
        return (name.isEmpty ? "pass" : name) + ".pkpass"
    }
}
