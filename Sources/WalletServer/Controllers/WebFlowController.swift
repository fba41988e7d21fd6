import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Secrets
import WalletServices

/// The web flow's routes: `POST /api/v2/in_app_provisioning/web_link` and `…/landing_links` (authenticated like
/// issuer data, and counted by the same `RateLimiter`), and the public landing page `GET /wallet/add/{token}`
/// with its `POST /wallet/add/{token}/session` (limited per token and per client address). An Android browser gets an
/// "Add to Google Wallet" page instead when the pass's pass type has a Google issuer.
struct WebFlowController: Sendable {
    let repository: any APITokenStore
    let webLinks: WebLinkService
    /// Counts each API token's web links and landing links, with its issuer data.
    let limiter: RateLimiter<UUID>
    /// Counts each landing token's and each client address's page views and sessions.
    let publicLimiter: PublicLinkLimiter
    /// Where refused (rate-limited) requests are counted.
    let metrics: ServerMetrics
    /// Hands out "Add to Google Wallet" links to Android browsers, where the server has a Google Wallet set-up.
    var googleLinks: GoogleWalletLinks? = nil

    init(
        repository: any APITokenStore & LandingLinkStore & TagLookup, service: ProvisioningService,
        limiter: RateLimiter<UUID>,
        metrics: ServerMetrics, clientAddress: ClientAddress = ClientAddress(),
        tokenLimit: RateLimit = PublicLinkLimiter.tokenLimit, addressLimit: RateLimit = PublicLinkLimiter.addressLimit,
        clock: any CofferClock = SystemClock()
    ) {
        self.repository = repository
        self.webLinks = WebLinkService(provisioning: service, repository: repository)
        self.limiter = limiter
        self.publicLimiter = PublicLinkLimiter(
            clientAddress: clientAddress, tokenLimit: tokenLimit, addressLimit: addressLimit, clock: clock)
        self.metrics = metrics
    }

    struct LandingLinkRequest: Decodable {
        let tagID: String
        let idAttribute: TagIDAttribute?
        let expiresIn: Int?

        enum CodingKeys: String, CodingKey {
            case tagID = "tag_id"
            case idAttribute = "id_attribute"
            case expiresIn = "expires_in"
        }

        /// The optional keys may be absent but not `null`, as docs/openapi.yaml says.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            tagID = try container.decode(String.self, forKey: .tagID)
            idAttribute = try container.decodeUnlessAbsent(TagIDAttribute.self, forKey: .idAttribute)
            expiresIn = try container.decodeUnlessAbsent(Int.self, forKey: .expiresIn)
        }
    }

    struct WebLinkResponse: Encodable {
        let url: String
        let tagID: String?
        let expiresAt: String

        enum CodingKeys: String, CodingKey {
            case url
            case tagID = "tag_id"
            case expiresAt = "expires_at"
        }
    }

    func addRoutes(to router: Router<WalletRequestContext>) {
        let api = router.group("api/v2/in_app_provisioning")
        api.post("web_link", use: webLink)
        api.post("landing_links", use: createLandingLink)
        router.get("wallet/add/:token", use: landingPage)
        router.post("wallet/add/:token/session", use: landingSession)
    }

    // MARK: Authenticated

    @Sendable func webLink(request: Request, context: WalletRequestContext) async throws -> Response {
        let apiUser = try await authenticate(request)
        let body = try await JSONBody.decode(ProvisioningController.IssuerDataRequest.self, from: request)
        let link = try await ProvisioningController.mappingFailures {
            try await webLinks.webLink(for: apiUser, tagID: body.tagID, attribute: body.idAttribute ?? .referenceID)
        }
        return try json(
            .ok, WebLinkResponse(url: link.url, tagID: link.tagID, expiresAt: Self.timestamp(link.expiresAt)))
    }

    @Sendable func createLandingLink(request: Request, context: WalletRequestContext) async throws -> Response {
        let apiUser = try await authenticate(request)
        let body = try await JSONBody.decode(LandingLinkRequest.self, from: request)
        let link = try await ProvisioningController.mappingFailures {
            try await webLinks.createLandingLink(
                for: apiUser, tagID: body.tagID, attribute: body.idAttribute ?? .referenceID, lifetime: body.expiresIn)
        }
        return try json(.created, WebLinkResponse(url: link.url, tagID: nil, expiresAt: Self.timestamp(link.expiresAt)))
    }

    /// The API user of the request, counted against its issuance limit as for issuer data.
    private func authenticate(_ request: Request) async throws -> APIUser {
        try await ProvisioningController.issuer(of: request, repository: repository, limiter: limiter, metrics: metrics)
    }

    // MARK: Public

    @Sendable func landingPage(request: Request, context: WalletRequestContext) async throws -> Response {
        let nonce = LandingPage.makeNonce()
        let token = context.parameters.get("token") ?? ""
        if let wait = limited(request, context: context, token: token) {
            metrics.requestRateLimited()
            return LandingPage.response(
                .tooManyRequests, LandingPage.tooManyRequests(nonce: nonce), nonce: nonce, retryAfter: wait)
        }
        guard let target = try await webLinks.landingTarget(token: token) else {
            return LandingPage.response(.notFound, LandingPage.notFound(nonce: nonce), nonce: nonce)
        }
        // Android has no Apple Wallet: the same pass in Google Wallet, when its pass type has an issuer and the link's
        // client may still issue it (as the Apple session checks).
        if SharedPassController.isAndroid(request), let googleLinks, try await webLinks.clientMayIssue(target),
            let link = (try? await googleLinks.link(passID: target.link.passID)) ?? nil
        {
            return LandingPage.response(
                .ok,
                LandingPage.sharedGooglePass(
                    organizationName: target.organizationName, saveURL: link.url, nonce: nonce),
                nonce: nonce)
        }
        return LandingPage.response(
            .ok, LandingPage.page(organizationName: target.organizationName, nonce: nonce), nonce: nonce)
    }

    @Sendable func landingSession(request: Request, context: WalletRequestContext) async throws -> Response {
        // Only the page itself (or a client that does not say where it runs) asks: never another site's script.
        if let site = request.headers[Self.fetchSite], site == "cross-site" {
            throw APIError(.forbidden, code: "forbidden", message: "ask from the landing page itself")
        }
        let token = context.parameters.get("token") ?? ""
        if let wait = limited(request, context: context, token: token) {
            metrics.requestRateLimited()
            throw APIError(
                .tooManyRequests, code: "rate_limited",
                message: "this link was asked for too often; try again in \(wait) s",
                headers: [.retryAfter: String(wait), .cacheControl: "no-store"])
        }
        guard let target = try await webLinks.landingTarget(token: token) else { throw Self.landingNotFound }
        let link = try await ProvisioningController.mappingFailures { try await webLinks.webLink(for: target) }
        var response = try json(
            .ok, WebLinkResponse(url: link.url, tagID: nil, expiresAt: Self.timestamp(link.expiresAt)))
        response.headers[LandingPage.referrerPolicy] = "no-referrer"
        return response
    }

    /// Counts the request against its client address and its token (``PublicLinkLimiter``).
    private func limited(_ request: Request, context: WalletRequestContext, token: String) -> Int? {
        publicLimiter.wait(for: request, context: context, token: token)
    }

    /// What an unknown, mistyped or expired landing link answers, the same for each.
    static let landingNotFound = APIError.notFound("this link does not work: it may have expired or be mistyped")

    private static let fetchSite = HTTPField.Name("Sec-Fetch-Site")!

    // MARK: Helpers

    /// A JSON answer no cache keeps.
    private func json(_ status: HTTPResponse.Status, _ value: some Encodable) throws -> Response {
        var response = try JSONBody.response(value, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// `date` as ISO 8601 in UTC, to the second.
    static func timestamp(_ date: Date) -> String { date.formatted(.iso8601) }
}
