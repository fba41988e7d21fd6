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

/// What a share link hands over is the pass with its `authenticationToken`: these are the ways an issuer takes that
/// back, and the device cap a holder of the token can no longer fill for good.
@Suite("Share links and the pass's token: rotation, rebinding, unsharing, and a device cap that recovers")
struct ShareLinkHoldersTests {
    typealias Fixture = PassWebServiceTests.Fixture

    /// A share link of the bound pass, made through the API with `apiToken`; its path.
    static func makeLink(_ fixture: Fixture, apiToken: String, singleUse: Bool = false) async throws -> String {
        let made = try await Answer.send(
            fixture.client, .post, "/api/v2/passes/PASS-001/share_links", headers: ManagementWorld.headers(apiToken),
            body: singleUse ? #"{"single_use":true}"# : nil)
        #expect(made.status == .created, "\(made.text)")
        let object = try JSONDecoder().decode([String: JSONValue].self, from: made.body)
        guard case .string(let url)? = object["url"], let path = URLComponents(string: url)?.path else {
            throw TestFailure("the share link has no URL")
        }
        return path
    }

    /// The token in the pass a share link's download serves.
    static func downloadedToken(_ fixture: Fixture, path: String) async throws -> String? {
        let answer = try await Answer.send(fixture.client, .post, path)
        guard answer.status == .ok else { return nil }
        return try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(pkpass: answer.body)
            .pass
            .authenticationToken
    }

    static func linkID(_ fixture: Fixture, apiToken: String) async throws -> String {
        let listed = try await Answer.send(
            fixture.client, .get, "/api/v2/passes/PASS-001/share_links", headers: ManagementWorld.headers(apiToken))
        let object = try JSONDecoder().decode([String: [[String: JSONValue]]].self, from: listed.body)
        guard case .string(let id)? = object["share_links"]?.last?["id"] else { throw TestFailure("no link listed") }
        return id
    }

    @Test(
        "revoking a link leaves its downloads working; revoke-and-rotate ends every earlier holder",
        arguments: Engine.available)
    func revokeAndRotate(_ engine: Engine) async throws {
        try await PassWebServiceTests().withFixture(engine) { fixture in
            let apiToken = try await fixture.world.repository.createAPIUser(
                clientID: fixture.world.apiUser.clientID, name: "links"
            ).token
            #expect(try await fixture.register() == .created)
            let first = try await Self.makeLink(fixture, apiToken: apiToken)
            #expect(try await Self.downloadedToken(fixture, path: first) == fixture.token)
            let firstID = try await Self.linkID(fixture, apiToken: apiToken)
            let second = try await Self.makeLink(fixture, apiToken: apiToken)

            // A plain revocation: the link serves nothing, but the token its download carried still works.
            let revoked = try await Answer.send(
                fixture.client, .delete, "/api/v2/passes/PASS-001/share_links/\(firstID)",
                headers: ManagementWorld.headers(apiToken))
            #expect(revoked.status == .noContent)
            #expect(try await Answer.send(fixture.client, .post, first).status == .notFound)
            let stillFetches = try await fixture.client.execute(
                uri: fixture.passPath, method: .get, headers: fixture.auth
            ) { $0.status }
            #expect(stillFetches == .ok)

            let secondID = try await Self.linkID(fixture, apiToken: apiToken)
            let bad = try await Answer.send(
                fixture.client, .delete, "/api/v2/passes/PASS-001/share_links/\(secondID)?rotate_token=maybe",
                headers: ManagementWorld.headers(apiToken))
            #expect(bad.status == .badRequest)
            let rotated = try await Answer.send(
                fixture.client, .delete, "/api/v2/passes/PASS-001/share_links/\(secondID)?rotate_token=true",
                headers: ManagementWorld.headers(apiToken))
            #expect(rotated.status == .noContent)
            let oldToken = try await fixture.client.execute(
                uri: fixture.passPath, method: .get, headers: fixture.auth
            ) { $0.status }
            #expect(oldToken == .unauthorized, "every earlier holder loses the pass's updates")
            let passID = try #require(try await fixture.world.repository.pass(tagID: fixture.world.tag.id)?.id)
            #expect(try await fixture.world.repository.registrationCount(of: .pass, id: passID) == 0)
            #expect(try await Answer.send(fixture.client, .post, second).status == .notFound)

            let fresh = try await Self.makeLink(fixture, apiToken: apiToken)
            let newToken = try #require(try await Self.downloadedToken(fixture, path: fresh))
            #expect(newToken != fixture.token)
            let fetched = try await fixture.client.execute(
                uri: fixture.passPath, method: .get, headers: [.authorization: "ApplePass \(newToken)"]
            ) { $0.status }
            #expect(fetched == .ok)
            await fixture.world.service.trace.flush()
            let kinds = try await fixture.world.repository.latestPassEvents(passID: passID, limit: 50).map(\.kind)
            #expect(kinds.contains(.tokenRotated))
        }
    }

    @Test("binding the pass again ends its share links: none serves the new token", arguments: Engine.available)
    func rebindingEndsLinks(_ engine: Engine) async throws {
        try await PassWebServiceTests().withFixture(engine) { fixture in
            let apiToken = try await fixture.world.repository.createAPIUser(
                clientID: fixture.world.apiUser.clientID, name: "links"
            ).token
            let link = try await Self.makeLink(fixture, apiToken: apiToken)
            _ = try await PassWebServiceTests.bind(client: fixture.client, apiToken: apiToken)
            #expect(try await Answer.send(fixture.client, .post, link).status == .notFound)
            #expect(try await Answer.send(fixture.client, .get, link).status == .notFound)
        }
    }

    @Test("unsharing a pass type from a client ends that client's links to passes of the type")
    func unsharingEndsLinks() async throws {
        try await PassWebServiceTests().withFixture(.sqliteFile) { fixture in
            let apiToken = try await fixture.world.repository.createAPIUser(
                clientID: fixture.world.apiUser.clientID, name: "links"
            ).token
            let link = try await Self.makeLink(fixture, apiToken: apiToken)
            let passTypeID = try #require(
                try await fixture.world.repository.pass(tagID: fixture.world.tag.id)?.passTypeID)
            #expect(
                try await fixture.world.repository.revokePassType(
                    passTypeID: passTypeID, clientID: fixture.world.apiUser.clientID))
            #expect(try await Answer.send(fixture.client, .get, link).status == .notFound)
            let rows = try await fixture.world.database.sql.select().column("id").from("share_links").all()
            #expect(rows.isEmpty)
        }
    }

    @Test(
        "a pass at its device cap makes room in place of a device unseen for three days, never a seen one",
        arguments: Engine.available)
    func deviceCapRecovers(_ engine: Engine) async throws {
        try await PassWebServiceTests().withFixture(engine, maximumDevicesPerPass: 3) { fixture in
            let clock = fixture.world.clock
            func register(_ device: String) async throws -> HTTPResponse.Status {
                try await fixture.client.execute(
                    uri: "/passkit/v1/devices/\(device)/registrations/\(fixture.passType)/PASS-001", method: .post,
                    headers: fixture.auth, body: ByteBuffer(string: #"{"pushToken":"abcdef"}"#)
                ) { $0.status }
            }
            // Three made-up devices fill the cap; a real phone is refused.
            for device in ["fakedevice0001", "fakedevice0002", "fakedevice0003"] {
                #expect(try await register(device) == .created)
            }
            #expect(try await register("ownersphone0001") == .forbidden)
            // Two days on, one of them registers again: it is seen.
            clock.advance(by: 2 * 86_400)
            #expect(try await register("fakedevice0002") == .ok)
            clock.advance(by: DeviceRegistrations.staleRegistrationAge - 2 * 86_400 + 60)
            #expect(try await register("ownersphone0001") == .created, "the one unseen longest made room")
            #expect(try await register("ownersphone0002") == .created)
            #expect(try await register("ownersphone0003") == .forbidden, "every other device was seen since")
            let devices = try await fixture.world.database.sql.select().column("device_library_identifier")
                .from("pass_registrations").all(decodingColumn: "device_library_identifier", as: String.self)
            #expect(Set(devices) == ["fakedevice0002", "ownersphone0001", "ownersphone0002"])
        }
    }
}
