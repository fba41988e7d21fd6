import Foundation
import Logging
import Secrets

/// The web flow (Wallet's own "Add to Apple Wallet" from a web page): links that open Apple Wallet at
/// `https://wallet.apple.com/securePassSession#<issuer data>&<signature>`, and the landing links a client can send to
/// its users, whose page fetches such a link when tapped.
///
/// Every web link is made by ``ProvisioningService/issuerData(for:tagID:attribute:)``: the same scoping to the
/// client, the same session (only the newest one can complete a binding) and the same callback as the in-app flow.
package struct WebLinkService: Sendable {
    /// Where Wallet's web flow starts; the fragment carries the issuer data and its signature.
    package static let walletSessionURL = "https://wallet.apple.com/securePassSession"
    /// How long a landing link lasts when the request does not say: 12 hours. A link is also spent once the pass it
    /// adds is bound, whichever comes first.
    package static let defaultLandingLifetime: TimeInterval = 12 * 3_600
    /// The shortest and longest landing link lifetimes accepted, in seconds: a minute to 7 days.
    package static let landingLifetimes: ClosedRange<Int> = 60...(7 * 86_400)
    /// The path landing pages are served under, followed by the token.
    package static let landingPath = "/wallet/add/"

    /// A link that opens Apple Wallet with fresh issuer data.
    package struct WebLink: Hashable, Sendable {
        /// `https://wallet.apple.com/securePassSession#<base64 issuer data>&<base64 signature>`.
        package var url: String
        /// The tag's identifier.
        package var tagID: String
        /// When the issuer data's session stops being accepted (the device accepts the data for 300 s at most).
        package var expiresAt: Date
    }

    /// A landing link just made: the only time its token exists outside the recipient's hands.
    package struct CreatedLandingLink: Hashable, Sendable, CustomStringConvertible {
        /// The page's public URL, token included.
        package var url: String
        /// When it stops working.
        package var expiresAt: Date

        /// The link without its token: `<redacted>`.
        package var description: String { "CreatedLandingLink(url: <redacted>, expiresAt: \(expiresAt))" }
    }

    let provisioning: ProvisioningService
    let repository: any LandingLinkStore & TagLookup

    /// Creates the service over the provisioning service that signs issuer data and the repository that keeps the
    /// landing links.
    package init(provisioning: ProvisioningService, repository: any LandingLinkStore & TagLookup) {
        self.provisioning = provisioning
        self.repository = repository
    }

    /// The URL Wallet opens for issuer data `response`: its two Base64 strings, exactly as the issuer-data endpoint
    /// returns them, joined by `&` in the fragment.
    package static func walletURL(for response: ProvisioningService.IssuerDataResponse) -> String {
        "\(walletSessionURL)#\(response.issuerData)&\(response.signature)"
    }

    /// Signs fresh issuer data for the client's tag (as the issuer-data endpoint does) and returns it as a web link.
    package func webLink(for apiUser: APIUser, tagID: String, attribute: TagIDAttribute) async throws -> WebLink {
        // Read before signing, so the expiry given is never later than the session's own.
        let started = provisioning.clock.now
        let response = try await provisioning.issuerData(for: apiUser, tagID: tagID, attribute: attribute)
        return WebLink(
            url: Self.walletURL(for: response), tagID: response.tagID,
            expiresAt: started.addingTimeInterval(provisioning.sessionLifetime))
    }

    /// Makes a landing link for the client's tag, valid for `lifetime` seconds (``landingLifetimes``): 32 random
    /// bytes, URL-safe Base64, stored only as their SHA-256. Expired links are deleted a few at a time as new ones
    /// are made.
    ///
    /// - Throws: ``ProvisioningService/Failure/notFound(_:)`` when the client has no pass for the tag,
    ///   ``ProvisioningService/Failure/invalidRequest(_:)`` for a tag or lifetime out of bounds.
    package func createLandingLink(
        for apiUser: APIUser, tagID: String, attribute: TagIDAttribute, lifetime: Int? = nil
    ) async throws -> CreatedLandingLink {
        guard !tagID.isEmpty, tagID.count <= 256 else {
            throw ProvisioningService.Failure.invalidRequest("tag_id must be 1–256 characters")
        }
        let seconds = lifetime ?? Int(Self.defaultLandingLifetime)
        guard Self.landingLifetimes.contains(seconds) else {
            throw ProvisioningService.Failure.invalidRequest(
                "expires_in must be \(Self.landingLifetimes.lowerBound) to \(Self.landingLifetimes.upperBound) seconds")
        }
        guard
            let target = try await repository.issuanceTarget(
                clientID: apiUser.clientID, attribute: attribute, value: tagID)
        else { throw ProvisioningService.Failure.notFound("no pass for this tag") }
        guard target.clientMayIssue else {
            throw ProvisioningService.Failure.forbidden(
                ProvisioningService.notGranted(target.passType.passTypeIdentifier))
        }
        let now = provisioning.clock.now
        let links = repository
        _ = try await links.deleteExpiredLandingLinks(now: now, limit: 16)
        let token = SecretToken.makeAPIToken()
        let link = LandingLink(
            tokenHash: SecretToken.hash(token), passID: target.passID, clientID: apiUser.clientID, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(seconds)))
        try await links.createLandingLink(link)
        provisioning.logger.info(
            "made a landing link", metadata: ["pass": "\(target.passID)", "client": "\(apiUser.clientID)"])
        return CreatedLandingLink(url: publicBaseURL + Self.landingPath + token, expiresAt: link.expiresAt)
    }

    /// The landing link `token` names, if it is well formed, exists and has not expired; `nil` otherwise, whichever
    /// the reason.
    package func landingTarget(token: String) async throws -> LandingTarget? {
        guard Self.isWellFormed(token: token) else { return nil }
        return try await repository.landingTarget(tokenHash: SecretToken.hash(token), now: provisioning.clock.now)
    }

    /// Whether the landing link's client may still issue its pass: its pass type was not taken from the client since
    /// the link was made.
    package func clientMayIssue(_ target: LandingTarget) async throws -> Bool {
        try await repository.issuanceTarget(
            clientID: target.link.clientID, attribute: target.tagAttribute, value: target.tagValue)?.clientMayIssue
            ?? false
    }

    /// A fresh web link for a landing link's pass: issuer data signed now, scoped to the link's client.
    package func webLink(for target: LandingTarget) async throws -> WebLink {
        // The link stands for the API user who made it: only its client's identifier is used (for scoping, and in
        // the log line).
        let owner = APIUser(
            id: target.link.clientID, clientID: target.link.clientID, name: "landing link", tokenHash: Data())
        return try await webLink(for: owner, tagID: target.tagValue, attribute: target.tagAttribute)
    }

    /// The server's public URL without a trailing slash: the callback URL less its path.
    package var publicBaseURL: String {
        let callback = provisioning.callbackURL
        let path = "/api/v2/in_app_provisioning/callback"
        if callback.hasSuffix(path) { return String(callback.dropLast(path.count)) }
        guard var components = URLComponents(string: callback) else { return callback }
        (components.path, components.query, components.fragment) = ("", nil, nil)
        return components.string ?? callback
    }

    /// Whether `token` can be a landing token: 43 characters of URL-safe Base64 (32 bytes, unpadded).
    package static func isWellFormed(token: String) -> Bool {
        token.utf8.count == 43
            && token.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    return true
                default:
                    return false
                }
            }
    }
}
