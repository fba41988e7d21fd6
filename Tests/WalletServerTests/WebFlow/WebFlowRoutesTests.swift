import CofferTestSupport
import Crypto
import Foundation
import Secrets
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Testing
import WalletDocuments
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("The web flow: a Wallet link for a tag, and landing pages that fetch a fresh one when tapped")
struct WebFlowRoutesTests {
    static let webLink = "/api/v2/in_app_provisioning/web_link"
    static let landingLinks = "/api/v2/in_app_provisioning/landing_links"

    /// Runs `body` with a test client over a fresh world and the world's API token: the whole router, or, when
    /// `publicLimits` is given, only the web flow's routes with those per-token and per-address limits on a clock
    /// that stands still.
    func withClient(
        _ engine: Engine, issuanceLimiter: RateLimiter<UUID> = RateLimiter<UUID>(limit: .default),
        publicLimits: (token: RateLimit, address: RateLimit)? = nil,
        _ body: @Sendable (any TestClientProtocol, ProvisioningWorld, String) async throws -> Void
    ) async throws {
        try await ProvisioningWorld.withClient(engine, tokenName: "web", body) { world in
            guard let publicLimits else {
                return WalletServerApplication.makeRouter(
                    repository: world.repository, service: world.service, logger: .init(label: "test"),
                    issuanceLimiter: issuanceLimiter)
            }
            let router = Router(context: WalletRequestContext.self)
            WebFlowController(
                repository: world.repository, service: world.service, limiter: issuanceLimiter,
                metrics: ServerMetrics(), tokenLimit: publicLimits.token, addressLimit: publicLimits.address,
                clock: ManualClock()
            ).addRoutes(to: router)
            return router
        }
    }

    /// Makes a landing link for the world's tag and returns its URL's token.
    func landingToken(
        _ client: any TestClientProtocol, _ token: String, body: String = #"{"tag_id":"PASS-001"}"#
    ) async throws -> String {
        let answer = try await Answer.send(
            client, .post, Self.landingLinks, headers: ProvisioningAPI.headers(token: token), body: body)
        try #require(answer.status == .created, "\(answer.text)")
        let url = try #require(try answer.json()["url"])
        return String(try #require(url.split(separator: "/").last))
    }

    /// The issuer data and signature a Wallet URL's fragment carries, base64-decoded, after checking the URL's shape.
    static func walletFragment(_ url: String) throws -> (issuerData: Data, signature: Data) {
        let parts = url.split(separator: "#", maxSplits: 1)
        try #require(parts.count == 2 && parts[0] == "https://wallet.apple.com/securePassSession", "\(url)")
        let halves = parts[1].split(separator: "&", omittingEmptySubsequences: false)
        try #require(halves.count == 2, "the fragment is not two strings joined by &")
        return (
            try #require(Data(base64Encoded: String(halves[0]))), try #require(Data(base64Encoded: String(halves[1])))
        )
    }

    /// Checks that openssl verifies `signature` over `issuerData` against the test root; returns the binding data.
    static func verified(_ parts: (issuerData: Data, signature: Data), in world: ProvisioningWorld) throws
        -> IssuerBindingData
    {
        let openssl = try OpenSSL.verify(
            signature: parts.signature, content: parts.issuerData,
            root: Data(try ProvisioningWorld.identity.rootPEM.utf8), in: world.directory)
        #expect(openssl.status == 0, "\(openssl.errorOutput)")
        return try JSONDecoder().decode(IssuerBindingData.self, from: parts.issuerData)
    }

    // MARK: The authenticated endpoints

    @Test(
        "web_link answers a Wallet URL whose fragment is openssl-verified issuer data; the callback binds it",
        arguments: Engine.available)
    func webLink(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, token in
            let answer = try await Answer.send(
                client, .post, Self.webLink, headers: ProvisioningAPI.headers(token: token),
                body: #"{"tag_id":"9001","id_attribute":"pronto_tag_id"}"#)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.headers[.cacheControl] == "no-store")
            let json = try answer.json()
            #expect(json["tag_id"] == world.tag.id.uuidString)
            let binding = try Self.verified(try Self.walletFragment(try #require(json["url"])), in: world)
            #expect(
                binding.creationDate
                    == Date(timeIntervalSince1970: world.clock.now.timeIntervalSince1970.rounded(.down)))
            #expect(binding.callbackURL == world.service.callbackURL)
            let expiry = try #require(ISO8601.date(json["expires_at"]))
            #expect(abs(expiry.timeIntervalSince(world.clock.now) - IssuerBindingData.maximumAge) < 1)

            let callback = try await Answer.send(
                client, .post, "/api/v2/in_app_provisioning/callback?sessionIdentifier=\(binding.sessionIdentifier)",
                headers: [.contentType: "application/json"], body: #"{"issuerBindingData":"0a0b","keyHash":"c0ffee"}"#)
            #expect(callback.status == .ok)
            #expect(callback.headers[.contentType] == "application/vnd.apple.pkpass")
        }
    }

    @Test("the Wallet URL joins the issuer-data endpoint's two strings with & in the fragment, unchanged")
    func walletURL() {
        let response = ProvisioningService.IssuerDataResponse(
            issuerData: "eyJh+b/c=", signature: "MIA+/w==", tagID: "t", passTypeIdentifier: "pass.example",
            serialNumber: "1")
        #expect(
            WebLinkService.walletURL(for: response)
                == "https://wallet.apple.com/securePassSession#eyJh+b/c=&MIA+/w==")
    }

    @Test(
        "web_link and landing_links refuse a missing, unknown or revoked token with 401 and a challenge",
        arguments: Engine.available)
    func unauthorized(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, _ in
            let revoked = try await world.repository.createAPIUser(clientID: world.apiUser.clientID, name: "old")
            _ = try await world.repository.revokeAPIUser(id: revoked.apiUser.id)
            for path in [Self.webLink, Self.landingLinks] {
                for headers in [
                    ProvisioningAPI.headers(token: "not-a-token"), ProvisioningAPI.headers(token: revoked.token),
                    [.contentType: "application/json"],
                ] {
                    let answer = try await Answer.send(
                        client, .post, path, headers: headers, body: #"{"tag_id":"PASS-001"}"#)
                    #expect(answer.status == .unauthorized, "\(path)")
                    #expect(answer.headers[.wwwAuthenticate] != nil)
                    #expect(!answer.text.contains("not-a-token"))
                }
            }
        }
    }

    @Test(
        "another client's tag, an unknown tag, a tag without a pass and the wrong attribute are 404 on both",
        arguments: Engine.available)
    func scopedToTheClient(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, token in
            let other = try await world.repository.createClient(name: "Other")
            let otherToken = try await world.repository.createAPIUser(clientID: other.id, name: "o").token
            let user = try await world.repository.createUser(clientID: world.apiUser.clientID, externalReference: nil)
            try await world.repository.createTag(
                ClientTag(clientID: world.apiUser.clientID, userID: user.id, referenceID: "NOPASS"))
            let cases: [(String, String)] = [
                (otherToken, #"{"tag_id":"PASS-001"}"#), (token, #"{"tag_id":"MISSING"}"#),
                (token, #"{"tag_id":"NOPASS"}"#), (token, #"{"tag_id":"PASS-001","id_attribute":"subscription_id"}"#),
            ]
            for path in [Self.webLink, Self.landingLinks] {
                for (caller, body) in cases {
                    let answer = try await Answer.send(
                        client, .post, path, headers: ProvisioningAPI.headers(token: caller), body: body)
                    #expect(answer.status == .notFound, "\(path) \(body)")
                    #expect(answer.errorCode == "not_found")
                }
            }
            let rows = try await world.database.sql.select().column("*").from("landing_links").all()
            #expect(rows.isEmpty)
        }
    }

    @Test(
        "a missing, garbled or mistyped body is 400 on both; so is a lifetime out of bounds",
        arguments: Engine.available)
    func badRequests(_ engine: Engine) async throws {
        // More requests than the default burst: the limit has its own test.
        try await withClient(engine, issuanceLimiter: RateLimiter<UUID>(limit: .unlimited)) { client, _, token in
            let common = [
                "", "{", "[]", #"{"id_attribute":"reference_id"}"#, #"{"tag_id":5}"#, #"{"tag_id":null}"#,
                #"{"tag_id":"PASS-001","id_attribute":"email"}"#, #"{"tag_id":"PASS-001","id_attribute":null}"#,
                #"{"tag_id":""}"#, "{\"tag_id\":\"\(String(repeating: "x", count: 257))\"}",
            ]
            let lifetimes = [
                #"{"tag_id":"PASS-001","expires_in":0}"#, #"{"tag_id":"PASS-001","expires_in":59}"#,
                #"{"tag_id":"PASS-001","expires_in":604801}"#, #"{"tag_id":"PASS-001","expires_in":-5}"#,
                #"{"tag_id":"PASS-001","expires_in":"3600"}"#, #"{"tag_id":"PASS-001","expires_in":null}"#,
                #"{"tag_id":"PASS-001","expires_in":1.5}"#,
            ]
            for (path, bodies) in [(Self.webLink, common), (Self.landingLinks, common + lifetimes)] {
                for body in bodies {
                    let answer = try await Answer.send(
                        client, .post, path, headers: ProvisioningAPI.headers(token: token), body: body)
                    #expect(answer.status == .badRequest, "\(path) \(body.prefix(60))")
                    #expect(answer.errorCode == "bad_request")
                }
            }
            let answer = try await Answer.send(
                client, .post, Self.landingLinks, headers: ProvisioningAPI.headers(token: token),
                body: #"{"tag_id":"PASS-001","expires_in":59}"#)
            #expect(answer.text.contains("expires_in must be 60 to 604800 seconds"))
        }
    }

    @Test(
        "issuer_data, web_link and landing_links draw on the same bucket per API token: 429 with Retry-After",
        arguments: Engine.available)
    func sharedIssuanceLimit(_ engine: Engine) async throws {
        let clock = ManualClock()
        let limiter = RateLimiter<UUID>(limit: RateLimit(perMinute: 2, burst: 2), clock: clock)
        try await withClient(engine, issuanceLimiter: limiter) { client, _, token in
            let body = #"{"tag_id":"PASS-001"}"#
            #expect(
                try await Answer.send(
                    client, .post, ProvisioningAPI.issuerData, headers: ProvisioningAPI.headers(token: token),
                    body: body
                ).status == .ok)
            #expect(
                try await Answer.send(
                    client, .post, Self.webLink, headers: ProvisioningAPI.headers(token: token), body: body
                )
                .status == .ok)
            for path in [Self.landingLinks, Self.webLink, ProvisioningAPI.issuerData] {
                let answer = try await Answer.send(
                    client, .post, path, headers: ProvisioningAPI.headers(token: token), body: body)
                #expect(answer.status == .tooManyRequests, "\(path)")
                #expect(answer.headers[.retryAfter] == "30")
                #expect(answer.errorCode == "rate_limited")
            }
            clock.advance(by: .seconds(30))
            #expect(
                try await Answer.send(
                    client, .post, Self.landingLinks, headers: ProvisioningAPI.headers(token: token), body: body
                ).status
                    == .created)
        }
    }

    // MARK: Landing links

    @Test(
        "a landing link: 43 URL-safe characters under the public URL, stored as SHA-256, 12 hours by default",
        arguments: Engine.available)
    func landingLinkStorage(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, token in
            let answer = try await Answer.send(
                client, .post, Self.landingLinks, headers: ProvisioningAPI.headers(token: token),
                body: #"{"tag_id":"PASS-001"}"#)
            #expect(answer.status == .created)
            #expect(answer.headers[.cacheControl] == "no-store")
            let json = try answer.json()
            #expect(Set(json.keys) == ["url", "expires_at"])
            let url = try #require(json["url"])
            #expect(url.hasPrefix("https://wallet.example.com/wallet/add/"))
            let linkToken = String(url.dropFirst("https://wallet.example.com/wallet/add/".count))
            #expect(linkToken.count == 43)
            #expect(linkToken.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            let expiry = try #require(ISO8601.date(json["expires_at"]))
            #expect(abs(expiry.timeIntervalSince(world.clock.now) - 12 * 3_600) < 1)

            let hour = try await Answer.send(
                client, .post, Self.landingLinks, headers: ProvisioningAPI.headers(token: token),
                body: #"{"tag_id":"PASS-001","id_attribute":"reference_id","expires_in":3600}"#)
            let hourExpiry = try #require(ISO8601.date(try hour.json()["expires_at"]))
            #expect(abs(hourExpiry.timeIntervalSince(world.clock.now) - 3600) < 1)
            let second = String(try #require(try hour.json()["url"]?.split(separator: "/").last))
            #expect(second != linkToken)

            let rows = try await world.database.sql.select().column("*").from("landing_links").all()
            #expect(rows.count == 2)
            let hashes = try rows.map { try $0.decode(column: "token_hash", as: Data.self) }
            #expect(
                Set(hashes) == [
                    Data(SHA256.hash(data: Data(linkToken.utf8))), Data(SHA256.hash(data: Data(second.utf8))),
                ])
            let passID = try await world.repository.pass(tagID: world.tag.id)?.id.uuidString
            for row in rows {
                #expect(try row.decode(column: "pass_id", as: String.self) == passID)
                #expect(try row.decode(column: "client_id", as: String.self) == world.apiUser.clientID.uuidString)
                for column in row.allColumns {
                    let text = (try? row.decode(column: column, as: String.self)) ?? ""
                    #expect(!text.contains(linkToken) && !text.contains(second), "\(column) holds the token")
                }
            }
        }
    }

    @Test(
        "landing page: strict CSP with nonce, no-store, no-referrer, lang, landmarks, named button, all local",
        arguments: Engine.available)
    func landingPage(_ engine: Engine) async throws {
        try await withClient(engine) { client, _, token in
            let linkToken = try await landingToken(client, token)
            let first = try await Answer.send(client, .get, "/wallet/add/\(linkToken)")
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "text/html; charset=utf-8")
            #expect(first.headers[.cacheControl] == "no-store")
            #expect(first.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            #expect(first.headers[.xContentTypeOptions] == "nosniff")
            #expect(first.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
            let policy = try #require(first.headers[.contentSecurityPolicy])
            let nonce = try #require(policy.firstMatch(of: /script-src 'nonce-([A-Za-z0-9+\/=]{24})'/)?.1)
            for directive in [
                "default-src 'none'", "style-src 'nonce-\(nonce)'", "connect-src 'self'", "base-uri 'none'",
                "form-action 'none'", "frame-ancestors 'none'",
            ] {
                #expect(policy.contains(directive), "\(directive)")
            }
            #expect(!policy.contains("unsafe"))
            let html = first.text
            #expect(html.contains("<html lang=\"en\">"))
            #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width"))
            #expect(html.contains("<main>") && html.contains("<footer>"))
            #expect(html.contains("<style nonce=\"\(nonce)\">") && html.contains("<script nonce=\"\(nonce)\">"))
            #expect(html.components(separatedBy: "<script").count == 2, "one script, the inline one")
            #expect(html.contains("<button type=\"button\" id=\"add-to-wallet\""))
            #expect(html.contains("<span class=\"visually-hidden\">Add to Apple Wallet</span>"))
            #expect(html.contains("aria-hidden=\"true\""))
            #expect(html.contains("role=\"status\""))
            #expect(html.contains("prefers-reduced-motion:reduce") && html.contains(":focus-visible"))
            #expect(html.contains("Acme Events has a pass for you"))
            // Nothing is loaded from anywhere: no src or href at all, and the only URL is the one the script checks.
            #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("url("))
            #expect(html.matches(of: /https?:\/\//).count == 1)
            #expect(html.contains("'https://wallet.apple.com/'"))
            #expect(!html.contains(linkToken), "the page does not repeat its token")

            let second = try await Answer.send(client, .get, "/wallet/add/\(linkToken)")
            #expect(second.headers[.contentSecurityPolicy] != policy, "each page gets its own nonce")
        }
    }

    @Test("the organization's name is escaped on the page")
    func escaping() {
        let html = LandingPage.page(organizationName: #"<script>alert("x")</script> & Co's"#, nonce: "n")
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co&#39;s"))
    }

    @Test(
        "tapping posts to /session: a Wallet URL signed at the tap (hours after the link was made) that binds",
        arguments: Engine.available)
    func landingSession(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, token in
            let linkToken = try await landingToken(client, token)
            world.clock.advance(by: 6 * 3_600)
            let answer = try await Answer.send(
                client, .post, "/wallet/add/\(linkToken)/session",
                headers: [HTTPField.Name("Sec-Fetch-Site")!: "same-origin"])
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.headers[.cacheControl] == "no-store")
            #expect(answer.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            let binding = try Self.verified(try Self.walletFragment(try #require(try answer.json()["url"])), in: world)
            #expect(
                binding.creationDate
                    == Date(timeIntervalSince1970: world.clock.now.timeIntervalSince1970.rounded(.down)))

            // A second tap makes newer issuer data; only its session completes a binding, as with issuer_data.
            world.clock.advance(by: 1)
            let again = try await Answer.send(client, .post, "/wallet/add/\(linkToken)/session")
            let newer = try Self.verified(try Self.walletFragment(try #require(try again.json()["url"])), in: world)
            let body = #"{"issuerBindingData":"0a0b","keyHash":"c0ffee"}"#
            let callback = "/api/v2/in_app_provisioning/callback?sessionIdentifier="
            let stale = try await Answer.send(
                client, .post, callback + binding.sessionIdentifier, headers: [.contentType: "application/json"],
                body: body)
            #expect(stale.status == .notFound)
            let bound = try await Answer.send(
                client, .post, callback + newer.sessionIdentifier, headers: [.contentType: "application/json"],
                body: body)
            #expect(bound.status == .ok)
        }
    }

    @Test(
        "an expired, unknown, tampered or malformed token gets one 404 page, and one JSON 404 when tapped",
        arguments: Engine.available)
    func unusableTokens(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, token in
            let expiring = try await landingToken(client, token, body: #"{"tag_id":"PASS-001","expires_in":60}"#)
            let lasting = try await landingToken(client, token)
            let flipped = String(lasting.dropLast()) + (lasting.last == "A" ? "B" : "A")
            #expect(try await Answer.send(client, .get, "/wallet/add/\(expiring)").status == .ok)
            world.clock.advance(by: 60)
            let tokens = [
                expiring, SecretToken.makeAPIToken(), flipped, "short", lasting + "A", String(lasting.dropLast()) + ".",
            ]
            var pages = Set<String>()
            var errors = Set<String>()
            for candidate in tokens {
                let page = try await Answer.send(client, .get, "/wallet/add/\(candidate)")
                #expect(page.status == .notFound, "\(candidate)")
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(page.headers[.cacheControl] == "no-store")
                #expect(page.text.contains("<h1>This link does not work</h1>"))
                #expect(!page.text.contains(candidate))
                let nonce = try #require(page.headers[.contentSecurityPolicy]?.firstMatch(of: /'nonce-([^']+)'/)?.1)
                pages.insert(page.text.replacingOccurrences(of: String(nonce), with: "NONCE"))
                let tap = try await Answer.send(client, .post, "/wallet/add/\(candidate)/session")
                #expect(tap.status == .notFound, "\(candidate)")
                #expect(tap.errorCode == "not_found")
                errors.insert(tap.text)
            }
            #expect(pages.count == 1, "every unusable token gets the same page")
            #expect(errors.count == 1, "every unusable token gets the same error")
            #expect(try await Answer.send(client, .get, "/wallet/add/\(lasting)").status == .ok)
        }
    }

    @Test("expired landing links are deleted, a few at a time, as new ones are made", arguments: Engine.available)
    func expiredLinksDeleted(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, token in
            for _ in 0..<3 {
                _ = try await landingToken(client, token, body: #"{"tag_id":"PASS-001","expires_in":60}"#)
            }
            world.clock.advance(by: 61)
            let kept = try await landingToken(client, token)
            let rows = try await world.database.sql.select().column("token_hash").from("landing_links").all()
            #expect(try rows.map { try $0.decode(column: "token_hash", as: Data.self) } == [SecretToken.hash(kept)])
        }
    }

    @Test(
        "public routes are limited per token and per client address (via X-Forwarded-For), with Retry-After",
        arguments: Engine.available)
    func publicLimits(_ engine: Engine) async throws {
        let limits = (
            token: RateLimit(perMinute: 6, burst: 2), address: RateLimit(perMinute: 12, burst: 4)
        )
        try await withClient(engine, publicLimits: limits) { client, _, token in
            let linkToken = try await landingToken(client, token)
            let from = { (address: String) -> HTTPFields in [HTTPField.Name("X-Forwarded-For")!: "10.0.0.9, \(address)"]
            }
            // Per token: two views from two addresses, then the token is spent, whoever asks.
            #expect(
                try await Answer.send(client, .get, "/wallet/add/\(linkToken)", headers: from("192.0.2.1")).status
                    == .ok)
            #expect(
                try await Answer.send(client, .post, "/wallet/add/\(linkToken)/session", headers: from("192.0.2.2"))
                    .status
                    == .ok)
            let page = try await Answer.send(client, .get, "/wallet/add/\(linkToken)", headers: from("192.0.2.3"))
            #expect(page.status == .tooManyRequests)
            #expect(page.headers[.retryAfter] == "10")
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains("<h1>Too many tries</h1>"))
            let tap = try await Answer.send(
                client, .post, "/wallet/add/\(linkToken)/session", headers: from("192.0.2.4"))
            #expect(tap.status == .tooManyRequests)
            #expect(tap.errorCode == "rate_limited")
            #expect(tap.headers[.retryAfter] == "10")

            // Per address: four guesses at tokens, then the address is spent, whatever the token.
            for _ in 0..<4 {
                let guess = try await Answer.send(
                    client, .get, "/wallet/add/\(SecretToken.makeAPIToken())", headers: from("198.51.100.7"))
                #expect(guess.status == .notFound)
            }
            let fifth = try await Answer.send(client, .get, "/wallet/add/short", headers: from("198.51.100.7"))
            #expect(fifth.status == .tooManyRequests)
            #expect(fifth.headers[.retryAfter] == "5")
            // Another address is not affected.
            let other = try await Answer.send(client, .get, "/wallet/add/short", headers: from("198.51.100.8"))
            #expect(other.status == .notFound)
        }
    }

    @Test("a cross-site request for a session is refused before the token is looked at", arguments: Engine.available)
    func crossSite(_ engine: Engine) async throws {
        try await withClient(engine) { client, _, token in
            let linkToken = try await landingToken(client, token)
            let answer = try await Answer.send(
                client, .post, "/wallet/add/\(linkToken)/session",
                headers: [HTTPField.Name("Sec-Fetch-Site")!: "cross-site"])
            #expect(answer.status == .forbidden)
            #expect(answer.errorCode == "forbidden")
        }
    }

    @Test(
        "a landing link is spent once the pass it adds is bound: its page then answers 404", arguments: Engine.available
    )
    func landingLinkSpentByBinding(_ engine: Engine) async throws {
        try await withClient(engine) { client, world, token in
            let linkToken = try await landingToken(client, token)
            #expect(try await Answer.send(client, .get, "/wallet/add/\(linkToken)").status == .ok)
            let session = try await Answer.send(client, .post, "/wallet/add/\(linkToken)/session")
            let url = try #require(try session.json()["url"])
            let binding = try Self.verified(try Self.walletFragment(url), in: world)
            let callback = try await Answer.send(
                client, .post, "/api/v2/in_app_provisioning/callback?sessionIdentifier=\(binding.sessionIdentifier)",
                headers: [.contentType: "application/json"], body: #"{"issuerBindingData":"0a0b","keyHash":"c0ffee"}"#)
            #expect(callback.status == .ok)
            #expect(try await Answer.send(client, .get, "/wallet/add/\(linkToken)").status == .notFound)
            #expect(try await Answer.send(client, .post, "/wallet/add/\(linkToken)/session").status == .notFound)
            let rows = try await world.database.sql.select().column("*").from("landing_links").all()
            #expect(rows.isEmpty)
        }
    }

    @Test("a device library identifier in a web service path reaches the log only as its digest")
    func redactedDevicePaths() {
        let logged = LoggedPath.redacted("/passkit/v1/devices/device-123/registrations/pass.a/S1")
        #expect(logged.hasPrefix("/passkit/v1/devices/") && logged.hasSuffix("/registrations/pass.a/S1"))
        #expect(!logged.contains("device-123"))
        #expect(logged == LoggedPath.redacted("/passkit/v1/devices/device-123/registrations/pass.a/S1"))
    }

    @Test(
        "a path no route matched is logged folded, cut to three segments, with a landing or share token redacted",
        arguments: [
            ("/wallet/pass/abcDEF_-123", "/wallet/pass/<redacted>"), ("/Wallet/PASS/abc?x", "/wallet/pass/<redacted>"),
            ("//wallet//pass/abcDEF_-123/x", "/wallet/pass/<redacted>/…"),
            ("/wallet/add/abcDEF_-123/session", "/wallet/add/<redacted>/…"),
            ("/wallet/add/abcDEF_-123", "/wallet/add/<redacted>"), ("/WALLET/Add/abc", "/wallet/add/<redacted>"),
            ("/health", "/health"), ("/wallet/other", "/wallet/other"),
            ("/api/v2/passes/jane@example.com/nope", "/api/v2/passes/…"),
        ])
    func unmatchedPaths(_ path: String, _ logged: String) {
        #expect(LoggedPath.logged(path, route: nil) == logged)
        #expect(LoggedPath.logged(path, route: "NotFound") == logged)
    }

    @Test("the request log shows the matched route's pattern, never a token, tag value or device in the path")
    func requestLogShowsRoutes() async throws {
        let lines = Recorder()
        let logger = Logger(label: "routes") { _ in RecordingLogHandler(recorder: lines, logLevel: .trace) }
        try await PassWebServiceTests().withFixture(.sqliteFile, logger: logger) { fixture in
            let token = SecretToken.makeAPIToken()
            let device = "secretdevice0042"
            for path in [
                "//wallet/pass/\(token)", "/wallet//pass/\(token)", "//wallet/add/\(token)",
                "//passkit/v1/devices/\(device)/registrations/\(fixture.passType)",
                "/passkit//v1/devices/\(device)/registrations/\(fixture.passType)/PASS-001",
                "//api/v2/passes/jane%40example.com", "/api/v2/passes/jane@example.com/pkpass",
            ] {
                _ = try await Answer.send(fixture.client, .get, path, headers: fixture.auth)
            }
            let logged = lines.values.joined(separator: "\n")
            #expect(logged.contains("/wallet/pass/{token}") || logged.contains("/wallet/pass/:token"), "\(logged)")
            for secret in [token, device, "jane", "PASS-001"] {
                #expect(!logged.contains(secret), "\(secret) reached the log")
            }
            #expect(logged.contains(DeviceIdentifierDigest.logValue(device)), "the device appears as its digest")
        }
    }

    @Test("a wrong method on a landing path is 405 with Allow", arguments: Engine.available)
    func wrongMethod(_ engine: Engine) async throws {
        try await withClient(engine) { client, _, _ in
            let answer = try await Answer.send(client, .delete, "/wallet/add/\(SecretToken.makeAPIToken())")
            #expect(answer.status == .methodNotAllowed)
            #expect(answer.headers[.allow] == "GET")
        }
    }
}
