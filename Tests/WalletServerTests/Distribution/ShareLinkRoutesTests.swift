import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SQLKit
import Secrets
import Testing
import WalletDocuments
import WalletPasses

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("Getting a pass onto a device: the backend's .pkpass download, and share links that serve it")
struct ShareLinkRoutesTests {
    typealias W = ManagementWorld

    static let iPhone =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
        + "Version/18.4 Mobile/15E148 Safari/604.1"
    static let desktop =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"

    /// Makes a share link for the world's pass; the answer's JSON object.
    static func create(
        _ client: any TestClientProtocol, _ world: ManagementWorld, body: String? = nil
    ) async throws -> [String: JSONValue] {
        let answer = try await W.send(
            client, .post, "/api/v2/passes/PASS-001/share_links", token: world.token, body: body)
        #expect(answer.status == .created, "\(answer.text)")
        #expect(answer.headers[.cacheControl] == "no-store")
        return try JSONDecoder().decode([String: JSONValue].self, from: answer.body)
    }

    /// The path of a share link's URL.
    static func path(_ link: [String: JSONValue]) throws -> String {
        guard case .string(let url)? = link["url"], let path = URLComponents(string: url)?.path else {
            throw TestFailure("the share link has no URL")
        }
        return path
    }

    /// Opens a share link as a browser with `agent` would.
    static func open(_ client: any TestClientProtocol, _ path: String, agent: String) async throws -> Answer {
        try await Answer.send(client, .get, path, headers: [.userAgent: agent])
    }

    /// Checks that `answer` is the world's pass, signed, as Wallet takes it, and that openssl verifies it.
    static func expectPass(_ answer: Answer, in world: ManagementWorld) throws {
        #expect(answer.status == .ok, "\(answer.text)")
        #expect(answer.headers[.contentType] == "application/vnd.apple.pkpass")
        #expect(answer.headers[.contentDisposition] == #"attachment; filename="PASS-001.pkpass""#)
        #expect(answer.headers[.cacheControl] == "no-store")
        let verified = try OpenSSL.verify(
            pkpass: answer.body, root: Data(try ProvisioningWorld.identity.rootPEM.utf8), in: world.world.directory)
        #expect(verified.outcome.status == 0, "\(verified.outcome.errorOutput)")
    }

    @Test(
        "the backend downloads the signed .pkpass; another client's token gets 404, none 401",
        arguments: Engine.available)
    func backendDownload(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let answer = try await W.send(client, .get, "/api/v2/passes/PASS-001/pkpass", token: world.token)
            try Self.expectPass(answer, in: world)
            let pass = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(
                pkpass: answer.body)
            #expect(pass.pass.serialNumber == "PASS-001")
            let byPronto = try await W.send(
                client, .get, "/api/v2/passes/9001/pkpass?id_attribute=pronto_tag_id", token: world.token)
            #expect(byPronto.body == answer.body, "one kept archive, whichever identifier names the tag")
            let other = try await W.send(client, .get, "/api/v2/passes/PASS-001/pkpass", token: world.otherToken)
            #expect(other.status == .notFound)
            let anonymous = try await W.send(client, .get, "/api/v2/passes/PASS-001/pkpass", token: nil)
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test(
        "a share link serves the pass to an iPhone and a badge page to a desktop browser", arguments: Engine.available)
    func shareLinkServesThePass(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let link = try await Self.create(client, world)
            let path = try Self.path(link)
            #expect(path.hasPrefix("/wallet/pass/"))
            #expect(path.count == "/wallet/pass/".count + 43)
            #expect(link["single_use"] == .bool(false))
            guard case .string(let expires)? = link["expires_at"] else { throw TestFailure("no expires_at") }
            let expiry = try #require(ISO8601.date(expires))
            #expect(abs(expiry.timeIntervalSince(world.world.clock.now) - 7 * 86_400) < 2)

            try Self.expectPass(try await Self.open(client, path, agent: Self.iPhone), in: world)

            let page = try await Self.open(client, path, agent: Self.desktop)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            #expect(page.text.contains(#"href="?download=1""#))
            #expect(page.text.contains("Acme Events has a pass for you"))
            #expect(!page.text.contains("<script"), "the page needs no script")
            try Self.expectPass(try await Self.open(client, path + "?download=1", agent: Self.desktop), in: world)
        }
    }

    @Test(
        "a single-use link is spent only by the tap that posts its badge; visits and scanners see the page",
        arguments: Engine.available)
    func singleUse(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let path = try Self.path(try await Self.create(client, world, body: #"{"single_use":true}"#))
            let page = try await Self.open(client, path, agent: Self.desktop)
            #expect(page.status == .ok)
            #expect(page.text.contains("This link works once"))
            #expect(page.text.contains(#"<form method="post">"#))
            #expect(page.headers[.contentSecurityPolicy]?.contains("form-action 'self'") == true)
            // An iPhone's visit (a person, or a link preview with an iPhone's user agent) and a crawler that follows
            // ?download=1: the page again, and the link still works.
            for (agent, query) in [(Self.iPhone, ""), (Self.desktop, "?download=1"), (Self.iPhone, "?download=1")] {
                let visit = try await Self.open(client, path + query, agent: agent)
                #expect(visit.status == .ok)
                #expect(visit.headers[.contentType] == "text/html; charset=utf-8")
            }
            try Self.expectPass(
                try await Answer.send(client, .post, path, headers: [.userAgent: Self.iPhone]), in: world)
            let again = try await Answer.send(client, .post, path, headers: [.userAgent: Self.iPhone])
            #expect(again.status == .notFound)
            #expect(again.headers[.contentType] == "text/html; charset=utf-8")
            #expect(try await Self.open(client, path, agent: Self.desktop).status == .notFound)
            let listed = try await W.send(client, .get, "/api/v2/passes/PASS-001/share_links", token: world.token)
            #expect(listed.text.contains(#""used_at":"#))
        }
    }

    @Test("a link stops working when it expires or is revoked; the list never shows a URL", arguments: Engine.available)
    func expiryAndRevocation(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let short = try Self.path(try await Self.create(client, world, body: #"{"expires_in":60}"#))
            let revoked = try await Self.create(client, world)
            let listed = try await W.send(client, .get, "/api/v2/passes/PASS-001/share_links", token: world.token)
            #expect(listed.status == .ok)
            let list = try JSONDecoder().decode([String: [[String: JSONValue]]].self, from: listed.body)
            #expect(list["share_links"]?.count == 2)
            #expect(list["share_links"]?.allSatisfy { $0["url"] == nil } == true)

            guard case .string(let id)? = revoked["id"] else { throw TestFailure("no id") }
            let revoke = "/api/v2/passes/PASS-001/share_links/\(id)"
            #expect(try await W.send(client, .delete, revoke, token: world.otherToken).status == .notFound)
            // Without an https public URL passes carry no token: rotating one is refused, and the link stays.
            let rotating = try await W.send(client, .delete, revoke + "?rotate_token=true", token: world.token)
            #expect(rotating.status == .conflict, "\(rotating.text)")
            #expect(rotating.text.contains("nothing to rotate"))
            #expect(try await Self.open(client, try Self.path(revoked), agent: Self.desktop).status == .ok)
            #expect(try await W.send(client, .delete, revoke, token: world.token).status == .noContent)
            #expect(try await W.send(client, .delete, revoke, token: world.token).status == .notFound)
            #expect(try await Self.open(client, try Self.path(revoked), agent: Self.iPhone).status == .notFound)

            #expect(try await Self.open(client, short, agent: Self.desktop).status == .ok)
            world.world.clock.advance(by: 61)
            #expect(try await Self.open(client, short, agent: Self.iPhone).status == .notFound)
        }
    }

    @Test(
        "bad requests are refused and store nothing: lifetimes, nulls, non-JSON, unknown and malformed links",
        arguments: Engine.available)
    func badRequests(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let create = "/api/v2/passes/PASS-001/share_links"
            for body in [
                #"{"expires_in":59}"#, #"{"expires_in":2592001}"#, #"{"single_use":null}"#, #"{"expires_in":"1h"}"#,
                "not json", "[]",
            ] {
                let answer = try await W.send(client, .post, create, token: world.token, body: body)
                #expect(answer.status == .badRequest, "\(body): \(answer.text)")
            }
            #expect(
                try await W.send(client, .post, "/api/v2/passes/NOPE/share_links", token: world.token).status
                    == .notFound)
            #expect(
                try await W.send(client, .post, create, token: world.otherToken).status == .notFound,
                "another client's tag is not found")
            let rows = try await world.world.database.sql.select().column("id").from("share_links").all()
            #expect(rows.isEmpty)
            for path in [
                "/wallet/pass/short", "/wallet/pass/" + String(repeating: "A", count: 43), "/wallet/pass/%2e%2e",
            ] {
                let answer = try await Self.open(client, path, agent: Self.iPhone)
                #expect(answer.status == .notFound, "\(path)")
                #expect(answer.headers[.contentType] == "text/html; charset=utf-8")
            }
            for id in ["not-a-uuid", UUID().uuidString] {
                let answer = try await W.send(client, .delete, "\(create)/\(id)", token: world.token)
                #expect(answer.status == .notFound)
            }
        }
    }

    @Test(
        "only the token's SHA-256 is stored, and a pass has at most 100 working links", arguments: [Engine.sqliteFile])
    func storedHashedAndCapped(_ engine: Engine) async throws {
        try await W.run(engine) { client, world in
            let path = try Self.path(try await Self.create(client, world))
            let token = String(path.dropFirst("/wallet/pass/".count))
            let stored = try await world.world.database.sql.select().column("token_hash").from("share_links")
                .all(decodingColumn: "token_hash", as: Data.self)
            #expect(stored == [SecretToken.hash(token)])
            for _ in 1..<PassDistribution.maximumLinksPerPass { _ = try await Self.create(client, world) }
            let refused = try await W.send(
                client, .post, "/api/v2/passes/PASS-001/share_links", token: world.token)
            #expect(refused.status == .conflict)
            #expect(refused.text.contains("revoke one"))
            // Expired links no longer count.
            world.world.clock.advance(by: TimeInterval(PassDistribution.defaultLinkLifetime + 1))
            _ = try await Self.create(client, world)
        }
    }
}

/// A failure a test raises itself.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
