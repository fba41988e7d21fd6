import Foundation
import HTTPTypes
import Hummingbird
import WalletServices

/// The public routes of share links, `GET` and `POST /wallet/pass/{token}`. A link that works many times serves the
/// pass itself to an iPhone, iPad or iPod (and to any browser that asks with `?download=1`, as the page's badge does),
/// else a page with the "Add to Apple Wallet" badge; an Android browser gets an "Add to Google Wallet" page instead when
/// the pass's pass type has a Google issuer. A single-use link serves only the page on `GET`, whoever asks:
/// its badge posts back, and only that `POST` (a person's tap) downloads the pass and spends the link. Limited per
/// token and per client address, like the landing page.
struct SharedPassController: Sendable {
    let distribution: PassDistribution
    let limiter: PublicLinkLimiter
    /// Where refused (rate-limited) requests are counted.
    let metrics: ServerMetrics
    /// Hands out "Add to Google Wallet" links, where the server has a Google Wallet set-up.
    var googleLinks: GoogleWalletLinks? = nil

    func addRoutes(to router: Router<WalletRequestContext>) {
        router.get("wallet/pass/:token", use: sharedPass)
        router.post("wallet/pass/:token", use: download)
    }

    @Sendable func sharedPass(request: Request, context: WalletRequestContext) async throws -> Response {
        try await answer(request, context) { shared, nonce in
            // A pass whose Google link cannot be made (its issuer's key is unreadable) still gets the Apple page.
            if Self.isAndroid(request), let googleLinks,
                let link = (try? await googleLinks.link(passID: shared.link.passID)) ?? nil
            {
                return LandingPage.response(
                    .ok,
                    LandingPage.sharedGooglePass(
                        organizationName: shared.organizationName, saveURL: shared.link.singleUse ? nil : link.url,
                        nonce: nonce),
                    nonce: nonce, postsToItself: shared.link.singleUse,
                    formRedirectsTo: Self.googleWalletOrigin)
            }
            guard !shared.link.singleUse, Self.wantsArchive(request) else {
                return LandingPage.response(
                    .ok,
                    LandingPage.sharedPass(
                        organizationName: shared.organizationName, singleUse: shared.link.singleUse, nonce: nonce),
                    nonce: nonce, postsToItself: shared.link.singleUse)
            }
            return try await archive(shared, nonce: nonce)
        }
    }

    /// `POST`: the badge's form, a person's tap: the pass itself, spending a single-use link; with `wallet=google`
    /// (the Google Wallet page's form), a redirect to the pass's "Add to Google Wallet" link, spending it too.
    @Sendable func download(request: Request, context: WalletRequestContext) async throws -> Response {
        let form = String(
            decoding: (try? await request.body.collect(upTo: 1024).readableBytesView).map { Data($0) } ?? Data(),
            as: UTF8.self)
        return try await answer(request, context) { shared, nonce in
            guard form.split(separator: "&").contains("wallet=google"), let googleLinks else {
                return try await archive(shared, nonce: nonce)
            }
            guard let link = try await googleLinks.link(passID: shared.link.passID),
                try await distribution.use(shared, via: "share_link_google")
            else { return notFound(nonce) }
            var response = Response(status: .seeOther, headers: [.location: link.url, .cacheControl: "no-store"])
            response.headers[LandingPage.referrerPolicy] = "no-referrer"
            return response
        }
    }

    /// Where Google Wallet's save links point.
    static let googleWalletOrigin = "https://pay.google.com"

    /// Whether the request comes from an Android browser.
    static func isAndroid(_ request: Request) -> Bool {
        (request.headers[.userAgent] ?? "").contains("Android")
    }

    /// Counts the request against its limits, looks the link up, and answers with `body` for a working link; a page
    /// saying so when it is limited or the link does not work.
    private func answer(
        _ request: Request, _ context: WalletRequestContext,
        _ body: (SharedPass, String) async throws -> Response
    ) async throws -> Response {
        let nonce = LandingPage.makeNonce()
        let token = context.parameters.get("token") ?? ""
        if let wait = limiter.wait(for: request, context: context, token: token) {
            metrics.requestRateLimited()
            return LandingPage.response(
                .tooManyRequests, LandingPage.tooManyRequests(nonce: nonce), nonce: nonce, retryAfter: wait)
        }
        guard let shared = try await distribution.sharedPass(token: token) else { return notFound(nonce) }
        return try await body(shared, nonce)
    }

    /// The pass's archive, the link used; the "does not work" page when another download spent it first.
    private func archive(_ shared: SharedPass, nonce: String) async throws -> Response {
        guard let archive = try await distribution.download(shared) else { return notFound(nonce) }
        var response = ManagementController.pkpassResponse(archive)
        response.headers[LandingPage.referrerPolicy] = "no-referrer"
        return response
    }

    private func notFound(_ nonce: String) -> Response {
        LandingPage.response(.notFound, LandingPage.notFound(nonce: nonce), nonce: nonce)
    }

    /// Whether the request gets the pass itself: it asks for it (`?download=1`) or comes from a device whose Safari
    /// adds a pass from its download at once.
    static func wantsArchive(_ request: Request) -> Bool {
        if request.uri.queryParameters.get("download") == "1" { return true }
        let agent = request.headers[.userAgent] ?? ""
        return ["iPhone", "iPad", "iPod"].contains { agent.contains($0) }
    }
}
