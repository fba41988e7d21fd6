import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServerTesting
import WalletServices
import X509

/// Two servers on one database, as replicas behind a load balancer (or `coffer serve` beside `coffer admin` on one
/// SQLite file): a fetch one of them answers from memory must never hide a change made through the other.
@Suite("Replicas: a change made through one is fetched from the other once its push is out", .serialized)
struct ReplicaFetchTests {
    static let device = "replica0device0library"
    static let pushToken = String(repeating: "7c", count: 32)

    @Test(
        "after each change through one replica and its push, the other answers the new archive, never 304 or the old",
        arguments: Engine.available)
    func changeSeenByTheOtherReplica(_ engine: Engine) async throws {
        let directory = try TemporaryDirectory()
        var configuration = try await WalletDeviceEndToEndTests.configuration(engine, in: directory)
        let seed = try await WalletDeviceEndToEndTests.seed(configuration)
        let root = try SigningIdentity.certificate(
            from: try Data(contentsOf: configuration.developmentRootURL), role: "the development root")
        try await APNsStandIn.with(clientCertificateAuthority: root) { standIn in
            configuration.apns = APNsConfiguration(
                gateway: .custom(standIn.url), authentication: .certificate, additionalTrustRoots: [standIn.trustRoot])
            let one = try await WalletServerApplication.buildApplication(configuration: configuration)
            let other = try await WalletServerApplication.buildApplication(configuration: configuration)
            try await one.test(.live) { changing in
                try await other.test(.live) { fetching in
                    try await Self.play(
                        changing: changing, fetching: fetching, seed: seed, standIn: standIn, root: root)
                }
            }
        }
    }

    static func play(
        changing: any TestClientProtocol, fetching: any TestClientProtocol, seed: WalletAdministration.DemoSeed,
        standIn: APNsStandIn, root: Certificate
    ) async throws {
        let verifier = DocumentVerifier(trustRoots: [root])
        let bound = try await verifier.verify(
            pkpass: try await WalletDeviceEndToEndTests.bindPass(client: changing, seed: seed)
        ).pass
        let token = try #require(bound.authenticationToken)
        let auth: HTTPFields = [.authorization: "ApplePass \(token)", .contentType: "application/json"]
        let passPath = "/passkit/v1/passes/\(bound.passTypeIdentifier)/\(bound.serialNumber)"
        try await changing.execute(
            uri: "/passkit/v1/devices/\(device)/registrations/\(bound.passTypeIdentifier)/\(bound.serialNumber)",
            method: .post, headers: auth, body: ByteBuffer(string: #"{"pushToken":"\#(pushToken)"}"#)
        ) { #expect($0.status == .created) }

        for change in 1...4 {
            // The other replica serves the pass as it is, twice, so that it may answer the next fetches from memory.
            let (before, lastModified) = try await fetching.execute(uri: passPath, method: .get, headers: auth) {
                response in
                #expect(response.status == .ok)
                return (Data(response.body.readableBytesView), try #require(response.headers[.lastModified]))
            }
            var conditional = auth
            conditional[.ifModifiedSince] = lastModified
            try await fetching.execute(uri: passPath, method: .get, headers: conditional) {
                #expect($0.status == .notModified)
            }

            try await changing.execute(
                uri: "/api/v2/passes/\(seed.tagID)", method: .patch,
                headers: ProvisioningAPI.headers(token: seed.apiToken),
                body: ByteBuffer(string: #"{"fields":{"seat":"Row \#(change)"}}"#)
            ) { #expect($0.status == .ok) }
            try await waitForPush(number: change, at: standIn)

            // At once, and again: the new archive, whatever the device says it has.
            for headers in [conditional, auth, conditional] {
                let after = try await fetching.execute(uri: passPath, method: .get, headers: headers) { response in
                    #expect(response.status == .ok, "change \(change): a 304 hid the change")
                    #expect(response.headers[.lastModified] != lastModified)
                    return Data(response.body.readableBytesView)
                }
                #expect(after != before)
                let pass = try await verifier.verify(pkpass: after).pass
                #expect(pass.fields.value(forKey: "seat") == .text("Row \(change)"))
            }
        }
    }

    /// Waits up to 20 seconds for the stand-in to have received `number` pushes.
    static func waitForPush(number: Int, at standIn: APNsStandIn) async throws {
        for _ in 0..<400 {
            if standIn.received.count >= number { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("push \(number) did not reach the stand-in")
        throw CancellationError()
    }
}
