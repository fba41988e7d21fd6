import Foundation
import HTTPTypes
import Hummingbird

/// The public route of share links, `GET /wallet/pass/{token}`: the pass itself to an iPhone, iPad or iPod (and to
/// any browser that asks with `?download=1`, as the page's badge does), else a page with the "Add to Apple Wallet"
/// badge. Limited per token and per client address, like the landing page.
struct SharedPassController: Sendable {
    let distribution: PassDistribution
    let limiter: PublicLinkLimiter
    /// Where refused (rate-limited) requests are counted.
    let metrics: ServerMetrics

    /// The methods each of ``addRoutes(to:)``'s paths answers.
    static let methods: [String: [HTTPRequest.Method]] = ["/wallet/pass/{token}": [.get]]

    func addRoutes(to router: Router<WalletRequestContext>) {
        router.get("wallet/pass/:token", use: sharedPass)
    }

    @Sendable func sharedPass(request: Request, context: WalletRequestContext) async throws -> Response {
        let nonce = LandingPage.makeNonce()
        let token = context.parameters.get("token") ?? ""
        if let wait = limiter.wait(for: request, context: context, token: token) {
            metrics.requestRateLimited()
            return LandingPage.response(
                .tooManyRequests, LandingPage.tooManyRequests(nonce: nonce), nonce: nonce, retryAfter: wait)
        }
        let notFound = LandingPage.response(.notFound, LandingPage.notFound(nonce: nonce), nonce: nonce)
        guard let shared = try await distribution.sharedPass(token: token) else { return notFound }
        guard Self.wantsArchive(request) else {
            return LandingPage.response(
                .ok,
                LandingPage.sharedPass(
                    organizationName: shared.organizationName, singleUse: shared.link.singleUse, nonce: nonce),
                nonce: nonce)
        }
        guard let archive = try await distribution.download(shared) else { return notFound }
        var response = ManagementController.pkpassResponse(archive)
        response.headers[LandingPage.referrerPolicy] = "no-referrer"
        return response
    }

    /// Whether the request gets the pass itself: it asks for it (`?download=1`) or comes from a device whose Safari
    /// adds a pass from its download at once.
    static func wantsArchive(_ request: Request) -> Bool {
        if request.uri.queryParameters.get("download") == "1" { return true }
        let agent = request.headers[.userAgent] ?? ""
        return ["iPhone", "iPad", "iPod"].contains { agent.contains($0) }
    }
}
