import CofferTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import ProntoWalletSDK
import SwiftASN1
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import X509
import WalletServices
import WalletStore

/// The SDK against a real WalletServer on a loopback port, configured with `.development(host:)` as an app on a
/// developer's machine would be.
@Suite("ProntoWalletSDK end to end against WalletServer on loopback")
struct ProntoWalletEndToEndTests {
    static func wallet(_ server: ProvisioningServer, apiKey: String, timeout: TimeInterval = 60) -> ProntoWallet {
        let wallet = ProntoWallet()
        wallet.configure(
            with: ProntoConfiguration(apiKey: apiKey, environment: .development(host: server.host), timeout: timeout))
        return wallet
    }

    static func expect(
        _ expected: String, from operation: () async throws -> some Any,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            _ = try await operation()
            Issue.record("succeeded; expected \(expected)", sourceLocation: sourceLocation)
        } catch {
            let name = (error as? ProvisioningError).map { "\($0)" } ?? "\(type(of: error)): \(error)"
            #expect(name.hasPrefix(expected), "got \(name)", sourceLocation: sourceLocation)
        }
    }

    @Test("happy path: issuer data and the device's bound pass from the callback both verified by openssl")
    func happyPath() async throws {
        try await ProvisioningServer.run { server in
            let seed = try await server.administration.seedDemo()
            let wallet = Self.wallet(server, apiKey: seed.apiToken)

            let issued = try await wallet.issuerData(for: seed.tagID)
            #expect(UUID(uuidString: issued.tagId) != nil, "the server names the tag by its own ID")
            let rootPEM = try server.rootPEM
            // Waiting for openssl off Swift's threads: the server in this process needs them meanwhile.
            let verified = try await ChildProcess.detached {
                try OpenSSL.verify(
                    signature: issued.signature, content: issued.issuerData, root: rootPEM, in: server.directory)
            }
            #expect(verified.status == 0, "\(verified.errorOutput)")
            let binding = try JSONDecoder().decode(IssuerBindingData.self, from: issued.issuerData)
            #expect(binding.callbackURL == "http://\(server.host)/api/v2/in_app_provisioning/callback")

            let device = WalletDeviceEmulator()
            let result = try await wallet.provisionPass(tagId: seed.tagID, idAttribute: .referenceId, presenter: device)
            #expect(result == .added)
            let pkpass = try #require(await device.pkpass)
            let bound = try await ChildProcess.detached {
                try OpenSSL.verify(pkpass: pkpass, root: rootPEM, in: server.directory)
            }
            #expect(bound.outcome.status == 0, "\(bound.outcome.errorOutput)")
            let root = try Certificate(pemEncoded: String(decoding: try server.rootPEM, as: UTF8.self))
            let pass = try await DocumentVerifier(trustRoots: [root]).verify(pkpass: pkpass).pass
            #expect(pass.fidoProfile?.keyHash == "c0ffee")
            #expect(pass.issuerBindingData?.issuerBindingData == "0a0b0c0d", "the hex the device sent")
            #expect(
                issued.pass
                    == WalletPassIdentity(passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber),
                "the server names the pass the device got, so that the app finds it in Wallet")
        }
    }

    @Test("each id attribute finds the tag by that identifier")
    func idAttributes() async throws {
        try await ProvisioningServer.run { server in
            let client = try await server.administration.createClient(name: "Attributes")
            let (_, token) = try await server.administration.createAPIUser(clientID: client.id, name: "app")
            let tag = try await server.administration.createTag(
                clientID: client.id, referenceID: "REF-1", prontoTagID: "PT-1", subscriptionID: "SUB-1")
            _ = try await server.administration.createPass(tagID: tag.id)
            let wallet = Self.wallet(server, apiKey: token)
            for (identifier, attribute) in [
                ("REF-1", TagIdAttribute.referenceId), ("PT-1", .prontoTagId), ("SUB-1", .subscriptionId),
            ] {
                #expect(
                    try await wallet.issuerData(for: identifier, idAttribute: attribute).issuerData.isEmpty == false)
            }
            await Self.expect("notFound") { try await wallet.issuerData(for: "REF-1", idAttribute: .prontoTagId) }
        }
    }

    /// WalletServer's 401 carries `WWW-Authenticate`, which hangs a plain URLSession request on Linux past any timeout
    /// (swift-corelibs-foundation #5456); the time limit turns a regression into a failure instead of a stuck run.
    /// It is generous: with the whole suite running beside a competing load (.ci/soak-tests.sh), this test took 90 s,
    /// its server's start included.
    @Test(
        "a wrong or revoked key is notAuthorized, at once: the 401 carries WWW-Authenticate", .timeLimit(.minutes(3)))
    func wrongKey() async throws {
        try await ProvisioningServer.run { server in
            let seed = try await server.administration.seedDemo()
            await Self.expect("notAuthorized") {
                try await Self.wallet(server, apiKey: "not-a-token").issuerData(for: seed.tagID)
            }
            let users = try await server.administration.apiUsers(clientID: seed.clientID)
            try await server.administration.revokeAPIUser(id: try #require(users.first).id)
            await Self.expect("notAuthorized") {
                try await Self.wallet(server, apiKey: seed.apiToken).issuerData(for: seed.tagID)
            }
            let device = WalletDeviceEmulator()
            await Self.expect("notAuthorized") {
                try await Self.wallet(server, apiKey: "not-a-token").provisionPass(tagId: seed.tagID, presenter: device)
            }
            #expect(await device.signedIssuerData == nil)
        }
    }

    @Test("another client's tag, a missing tag and a tag without a pass are notFound")
    func notFound() async throws {
        try await ProvisioningServer.run { server in
            let mine = try await server.administration.seedDemo()
            let theirs = try await server.administration.seedDemo()
            let passless = try await server.administration.createTag(clientID: mine.clientID, referenceID: "NO-PASS")
            let wallet = Self.wallet(server, apiKey: mine.apiToken)
            await Self.expect("notFound") { try await wallet.issuerData(for: theirs.tagID) }
            await Self.expect("notFound") { try await wallet.issuerData(for: "NO-SUCH-TAG") }
            await Self.expect("notFound") { try await wallet.issuerData(for: try #require(passless.referenceID)) }
        }
    }

    @Test("a server that is down is a network error: connection refused")
    func serverDown() async throws {
        let port = try LoopbackSocket.closedPort()
        let wallet = ProntoWallet()
        wallet.configure(with: ProntoConfiguration(apiKey: "k", environment: .development(host: "127.0.0.1:\(port)")))
        await Self.expect("networkError") { try await wallet.issuerData(for: "t") }
        do {
            _ = try await wallet.issuerData(for: "t")
        } catch ProvisioningError.networkError(let error) {
            #expect((error as? URLError)?.code == .cannotConnectToHost)
        }
    }

    @Test("a server that never answers is a network error: timed out, after the configured timeout")
    func timeout() async throws {
        let silent = try LoopbackSocket()
        defer { silent.close() }
        let wallet = ProntoWallet()
        wallet.configure(
            with: ProntoConfiguration(
                apiKey: "k", environment: .development(host: "127.0.0.1:\(silent.port)"), timeout: 1))
        do {
            _ = try await wallet.issuerData(for: "t")
            Issue.record("a silent server answered")
        } catch ProvisioningError.networkError(let error) {
            #expect((error as? URLError)?.code == .timedOut)
        }
    }

    @Test(
        "cancelling the task while a server is silent ends the request with CancellationError", .timeLimit(.minutes(1)))
    func cancellation() async throws {
        let silent = try LoopbackSocket()
        defer { silent.close() }
        let wallet = ProntoWallet()
        wallet.configure(
            with: ProntoConfiguration(apiKey: "k", environment: .development(host: "127.0.0.1:\(silent.port)")))
        let request = Task { try await wallet.issuerData(for: "t") }
        try await Task.sleep(for: .milliseconds(200))
        request.cancel()
        await #expect(throws: CancellationError.self) { try await request.value }
    }

    @Test(
        "malformed answers from a misbehaving server",
        arguments: [
            ("html", "invalidResponse"), ("missing", "invalidResponse"), ("truncated", "invalidResponse"),
            ("boom", #"serverError(statusCode: 500, message: Optional("database exploded"))"#),
            ("gateway", "serverError(statusCode: 502, message: nil)"), ("forbidden", "notAuthorized"),
        ])
    func malformedAnswers(tag: String, expected: String) async throws {
        let router = Router()
        router.post("api/v2/in_app_provisioning/issuer_data") { request, context -> Response in
            let fields = try await request.decode(as: [String: String].self, context: context)
            let (status, type, body): (HTTPResponse.Status, String, String) =
                switch fields["tag_id"] {
                case "html": (.ok, "text/html", "<html>hello</html>")
                case "missing": (.ok, "application/json", #"{"tag_id":"missing"}"#)
                case "truncated": (.ok, "application/json", #"{"issuer_data":"AAEC","sig"#)
                case "boom": (.internalServerError, "application/json", #"{"error":{"message":"database exploded"}}"#)
                case "forbidden": (.forbidden, "application/json", "{}")
                default: (.badGateway, "text/html", "<html>Bad gateway</html>")
                }
            return Response(
                status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                let wallet = ProntoWallet()
                wallet.configure(
                    with: ProntoConfiguration(
                        apiKey: "k", environment: .development(host: "127.0.0.1:\(try #require(client.port))")))
                await Self.expect(expected) { try await wallet.issuerData(for: tag) }
            }
    }
}
