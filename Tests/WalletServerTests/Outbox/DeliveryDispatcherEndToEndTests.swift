import CofferTestSupport
import Foundation
import Secrets
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServerTesting
import WalletServices
import WalletStore

/// The whole way from a device's registration to its push: the device registers its push token through the web
/// service, a client's change to the pass goes through the pass updater, and the dispatcher it wakes pushes to the
/// APNs stand-in over mutual TLS with the pass type's own certificate.
@Suite("Pass updates reach registered devices")
struct DeliveryDispatcherEndToEndTests {
    static let device = "e2edevice0001"
    static let pushToken = String(repeating: "cd", count: 32)
    static let topic = "pass.dev.coffer.server"

    @Test(
        "a registered pass's change is pushed to the device's token, on the pass type's topic, with its cert",
        arguments: Engine.available)
    func registeredDeviceIsPushed(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine, webService: true) { world in
            try await APNsStandIn.with(clientCertificateAuthority: ProvisioningWorld.identity.root) { standIn in
                try await run(world: world, standIn: standIn)
            }
        }
    }

    func run(world: ProvisioningWorld, standIn: APNsStandIn) async throws {
        let repository = world.repository
        let client = APNsClient(
            configuration: APNsConfiguration(
                gateway: .custom(standIn.url), requestTimeout: 10, additionalTrustRoots: [standIn.trustRoot]))
        let dispatcher = DeliveryDispatcher(
            outbox: repository, client: client,
            identity: { id in
                guard try await repository.passType(id: id)?.passTypeIdentifier == Self.topic else {
                    throw WalletServerError.notFound("pass type \(id)")
                }
                return ProvisioningWorld.identity.signingIdentity
            }, pollInterval: .seconds(3600))
        let updater = PassUpdater(
            store: repository, clock: world.clock, trace: world.service.trace, pushesQueued: { dispatcher.wake() })
        let router = WalletServerApplication.makeRouter(
            repository: repository, service: world.service, logger: Logger(label: "test"), updater: updater)
        let running = Task { try await dispatcher.run() }
        defer { running.cancel() }
        try await Application(router: router).test(.router) { http in
            let apiToken = try await repository.createAPIUser(clientID: world.apiUser.clientID, name: "tests").token
            let pkpass = try await PassWebServiceTests.bind(client: http, apiToken: apiToken)
            let verified = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(
                pkpass: pkpass)
            let passToken = try #require(verified.pass.authenticationToken)
            let status = try await http.execute(
                uri: "/passkit/v1/devices/\(Self.device)/registrations/\(Self.topic)/PASS-001", method: .post,
                headers: [.authorization: "ApplePass \(passToken)", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"pushToken":"\#(Self.pushToken)"}"#)
            ) { $0.status }
            #expect(status == .created)
            #expect(standIn.received.isEmpty)

            let passID = try #require(try await repository.pass(tagID: world.tag.id)?.id)
            try await updater.update(passID: passID, PassChange(fields: ["event": .text("Moved to Hall B")]))
            #expect(await DeliveryDispatcherTests.eventually { standIn.received.count == 1 })
            let push = try #require(standIn.received.first)
            #expect(push.path == "/3/device/" + Self.pushToken)
            #expect(push.headers["apns-topic"] == Self.topic)
            #expect(push.status == 200)
            #expect(push.clientCertificateSubject?.contains(Self.topic) == true)
        }
        running.cancel()
        try await running.value
    }
}
