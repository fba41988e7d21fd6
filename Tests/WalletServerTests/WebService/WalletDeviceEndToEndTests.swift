import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOSSL
import Secrets
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServerTesting
import X509
import WalletServices
import WalletStore

/// Plays Wallet against a running server (the whole application as `coffer serve` builds it, listening on a
/// loopback port, with its push dispatcher) and an APNs stand-in that checks the pass type's client certificate.
@Suite("End to end, as a device would: issue, register, update, push, list, fetch, unregister", .serialized)
struct WalletDeviceEndToEndTests {
    static let device = "e2e0device0library0id"
    static let pushToken = String(repeating: "5a", count: 32)

    /// The server's configuration over `engine`, passes naming an https web service.
    static func configuration(_ engine: Engine, in directory: TemporaryDirectory) async throws
        -> WalletServerConfiguration
    {
        var configuration = WalletServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory.appending("data"),
            databaseURL: try await engine.makeDatabaseURL(in: directory),
            publicURL: URL(string: "https://wallet.example.com")!)
        if engine == .postgres {
            try EncryptedFileBackend.createKeyFile(at: directory.appending("store.key"))
            configuration.secretStoreKey = .keyFile(directory.appending("store.key"))
        }
        configuration.sessionPurgeInterval = nil
        return configuration
    }

    /// Seeds a client, its API token and a demo tag (making the development pass type), before the server starts.
    static func seed(_ configuration: WalletServerConfiguration) async throws -> WalletAdministration.DemoSeed {
        let storage = try await WalletServerStorage.open(configuration: configuration)
        do {
            let seed = try await WalletAdministration(storage: storage).seedDemo()
            try await storage.shutdown()
            return seed
        } catch {
            try? await storage.shutdown()
            throw error
        }
    }

    @Test(
        "a pass's whole life after issuance, with pushes over HTTP/2 and TLS client authentication",
        arguments: Engine.available)
    func lifeOfAPass(_ engine: Engine) async throws {
        let directory = try TemporaryDirectory()
        var configuration = try await Self.configuration(engine, in: directory)
        let seed = try await Self.seed(configuration)
        let rootPEM = try Data(contentsOf: configuration.developmentRootURL)
        let root = try SigningIdentity.certificate(from: rootPEM, role: "the development root")
        try await APNsStandIn.with(clientCertificateAuthority: root) { standIn in
            configuration.apns = APNsConfiguration(
                gateway: .custom(standIn.url), authentication: .certificate, additionalTrustRoots: [standIn.trustRoot])
            let application = try await WalletServerApplication.buildApplication(configuration: configuration)
            try await application.test(.live) { client in
                try await Self.play(
                    client: client, seed: seed, standIn: standIn, root: root, rootPEM: rootPEM, directory: directory)
            }
        }
    }

    static func play(
        client: any TestClientProtocol, seed: WalletAdministration.DemoSeed, standIn: APNsStandIn, root: Certificate,
        rootPEM: Data, directory: TemporaryDirectory
    ) async throws {
        let basic = ProvisioningAPI.headers(token: seed.apiToken)
        // 1. Issue: issuer data, then the device's callback binds the pass.
        let bound = try await bindPass(client: client, seed: seed)
        let verifier = DocumentVerifier(trustRoots: [root])
        let first = try await verifier.verify(pkpass: bound).pass
        let token = try #require(first.authenticationToken)
        #expect(first.webServiceURL == "https://wallet.example.com/passkit")
        let passType = first.passTypeIdentifier
        let serial = first.serialNumber
        let auth: HTTPFields = [.authorization: "ApplePass \(token)", .contentType: "application/json"]
        let registration = "/passkit/v1/devices/\(device)/registrations/\(passType)/\(serial)"
        let list = "/passkit/v1/devices/\(device)/registrations/\(passType)"
        let passPath = "/passkit/v1/passes/\(passType)/\(serial)"

        // 2. Register.
        try await client.execute(
            uri: registration, method: .post, headers: auth,
            body: ByteBuffer(string: #"{"pushToken":"\#(pushToken)"}"#)
        ) { #expect($0.status == .created) }
        let initialTag = try await client.execute(uri: list, method: .get) { response in
            #expect(response.status == .ok)
            let body = try JSONDecoder().decode(SerialNumbers.self, from: Data(response.body.readableBytesView))
            #expect(body.serialNumbers == [serial])
            return body.lastUpdated
        }

        // 3. Update through the management API, as a client's backend would.
        try await client.execute(
            uri: "/api/v2/passes/\(seed.tagID)", method: .patch, headers: basic,
            body: ByteBuffer(string: #"{"fields":{"seat":"Row 7, seat 12"}}"#)
        ) { #expect($0.status == .ok) }

        // 4. The push reaches the stand-in: the pass type's topic, an empty payload, the pass type's certificate.
        let push = try await waitForPush(at: standIn)
        #expect(push.path == "/3/device/\(pushToken)")
        #expect(push.headers["apns-topic"] == passType)
        #expect(push.body == "{}")
        #expect(push.status == 200)
        #expect(push.clientCertificateSubject?.contains(passType) == true)

        // 5. List the updated passes from the tag the device had.
        try await client.execute(uri: "\(list)?passesUpdatedSince=\(initialTag)", method: .get) { response in
            #expect(response.status == .ok)
            let body = try JSONDecoder().decode(SerialNumbers.self, from: Data(response.body.readableBytesView))
            #expect(body.serialNumbers == [serial])
            #expect(body.lastUpdated != initialTag)
        }

        // 6. Fetch the pass: 200 with the new field, then 304 while it does not change.
        let (updated, lastModified) = try await client.execute(uri: passPath, method: .get, headers: auth) {
            response in
            #expect(response.status == .ok)
            return (Data(response.body.readableBytesView), response.headers[.lastModified])
        }
        let pass = try await verifier.verify(pkpass: updated).pass
        #expect(pass.fields.value(forKey: "seat") == .text("Row 7, seat 12"))
        #expect(pass.fidoProfile?.keyHash == "4e11", "the binding is kept")
        #expect(pass.issuerBindingData?.issuerBindingData == "b1d1")
        #expect(pass.nfc != nil)
        #expect(pass.authenticationToken == token)
        let openssl = try OpenSSL.verify(pkpass: updated, root: rootPEM, in: directory)
        #expect(openssl.outcome.status == 0, "\(openssl.outcome.errorOutput)")
        var conditional = auth
        conditional[.ifModifiedSince] = lastModified
        try await client.execute(uri: passPath, method: .get, headers: conditional) {
            #expect($0.status == .notModified)
        }

        // 7. Unregister: the device hears of the pass no more.
        try await client.execute(uri: registration, method: .delete, headers: auth) { #expect($0.status == .ok) }
        try await client.execute(uri: list, method: .get) { #expect($0.status == .noContent) }
    }

    /// Issues the seed's pass through the in-app flow (issuer data, then the device's callback): the bound pass.
    static func bindPass(client: any TestClientProtocol, seed: WalletAdministration.DemoSeed) async throws -> Data {
        let issued = try await client.execute(
            uri: "/api/v2/in_app_provisioning/issuer_data", method: .post,
            headers: ProvisioningAPI.headers(token: seed.apiToken),
            body: ByteBuffer(string: #"{"tag_id":"\#(seed.tagID)"}"#)
        ) { try JSONDecoder().decode([String: String].self, from: Data($0.body.readableBytesView)) }
        let issuerData = try #require(issued["issuer_data"].flatMap { Data(base64Encoded: $0) })
        let session = try JSONDecoder().decode(IssuerBindingData.self, from: issuerData).sessionIdentifier
        return try await client.execute(
            uri: "/api/v2/in_app_provisioning/callback?sessionIdentifier=\(session)", method: .post,
            headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"issuerBindingData":"b1d1","keyHash":"4e11"}"#)
        ) { response in
            #expect(response.status == .ok)
            return Data(response.body.readableBytesView)
        }
    }

    struct SerialNumbers: Decodable {
        let serialNumbers: [String]
        let lastUpdated: String
    }

    /// The first push the stand-in received, waiting up to 20 seconds for it.
    static func waitForPush(at standIn: APNsStandIn) async throws -> APNsStandIn.Received {
        for _ in 0..<200 {
            if let push = standIn.received.first { return push }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("no push reached the stand-in")
        throw CancellationError()
    }
}
