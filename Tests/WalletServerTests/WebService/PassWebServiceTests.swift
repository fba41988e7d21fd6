import CofferTestSupport
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

@Suite("The Wallet Passes web service: what a device does with a pass after it has it")
struct PassWebServiceTests {
    static let device = "a1b2c3d4e5f6"
    static let pushToken = String(repeating: "ab", count: 32)

    /// A world with a web service, its pass bound through the in-app flow, and a test client of the whole router.
    struct Fixture {
        let client: any TestClientProtocol
        let world: ProvisioningWorld
        /// The bound pass as the callback returned it.
        let pkpass: Data
        /// The pass's `authenticationToken`, read from that pass.
        let token: String
        let updater: PassUpdater

        var passType: String { "pass.dev.coffer.server" }
        var registration: String {
            "/passkit/v1/devices/\(PassWebServiceTests.device)/registrations/\(passType)/PASS-001"
        }
        var passPath: String { "/passkit/v1/passes/\(passType)/PASS-001" }
        var listPath: String { "/passkit/v1/devices/\(PassWebServiceTests.device)/registrations/\(passType)" }
        var auth: HTTPFields { [.authorization: "ApplePass \(token)", .contentType: "application/json"] }

        func register(headers: HTTPFields? = nil, body: String? = nil) async throws -> HTTPResponse.Status {
            try await client.execute(
                uri: registration, method: .post, headers: headers ?? auth,
                body: ByteBuffer(string: body ?? #"{"pushToken":"\#(PassWebServiceTests.pushToken)"}"#)
            ) { $0.status }
        }

        /// `GET` the list of updated serials; the status and the decoded body (when 200).
        func list(since: String? = nil) async throws -> (HTTPResponse.Status, [String: JSONValue]?) {
            let uri = listPath + (since.map { "?passesUpdatedSince=\($0)" } ?? "")
            return try await client.execute(uri: uri, method: .get) { response in
                guard response.status == .ok else { return (response.status, nil) }
                return (
                    response.status,
                    try JSONDecoder().decode([String: JSONValue].self, from: Data(response.body.readableBytesView))
                )
            }
        }
    }

    func withFixture(
        _ engine: Engine, template: PassPackage? = nil,
        maximumDevicesPerPass: Int = DeviceRegistrations.defaultMaximumDevices,
        logger: Logger = Logger(label: "test"), _ body: @Sendable (Fixture) async throws -> Void
    ) async throws {
        try await ProvisioningWorld.with(engine, webService: true, template: template) { world in
            let token = try await world.repository.createAPIUser(clientID: world.apiUser.clientID, name: "tests").token
            let updater = PassUpdater(store: world.repository, clock: world.clock, trace: world.service.trace)
            let router = WalletServerApplication.makeRouter(
                repository: world.repository, service: world.service, logger: logger, updater: updater,
                maximumDevicesPerPass: maximumDevicesPerPass)
            try await Application(router: router).test(.router) { client in
                let pkpass = try await Self.bind(client: client, apiToken: token)
                let verified = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(
                    pkpass: pkpass)
                let passToken = try #require(verified.pass.authenticationToken)
                try await body(
                    Fixture(client: client, world: world, pkpass: pkpass, token: passToken, updater: updater))
            }
        }
    }

    /// Issuer data, then the device's callback: the bound `.pkpass`.
    static func bind(client: any TestClientProtocol, apiToken: String) async throws -> Data {
        let issued = try await client.execute(
            uri: ProvisioningAPI.issuerData, method: .post, headers: ProvisioningAPI.headers(token: apiToken),
            body: ByteBuffer(string: #"{"tag_id":"PASS-001"}"#)
        ) { try JSONDecoder().decode([String: String].self, from: Data($0.body.readableBytesView)) }
        let data = try #require(issued["issuer_data"].flatMap { Data(base64Encoded: $0) })
        let session = try JSONDecoder().decode(IssuerBindingData.self, from: data).sessionIdentifier
        return try await client.execute(
            uri: "/api/v2/in_app_provisioning/callback?sessionIdentifier=\(session)", method: .post,
            headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"issuerBindingData":"0a0b","keyHash":"c0ffee"}"#)
        ) { response in
            #expect(response.status == .ok)
            return Data(response.body.readableBytesView)
        }
    }

    @Test(
        "the bound pass names the web service and its own token; the database keeps only the token's hash",
        arguments: Engine.available)
    func passCarriesWebService(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            let pass = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(
                pkpass: fixture.pkpass
            ).pass
            #expect(pass.webServiceURL == ProvisioningWorld.webServiceURL)
            #expect(fixture.token.count >= Pass.minimumAuthenticationTokenLength)
            #expect(pass.fidoProfile?.keyHash == "c0ffee")
            let row = try #require(
                try await fixture.world.database.sql.select().column("*").from("apple_passes").first())
            #expect(
                try row.decode(column: "authentication_token_hash", as: Data.self) == SecretToken.hash(fixture.token))
            let salt = try row.decode(column: "authentication_salt", as: String.self)
            #expect(!salt.contains(fixture.token))
            let content = try row.decode(column: "pass_content", as: Data.self)
            #expect(content.range(of: Data(fixture.token.utf8)) == nil, "the token is stored in the pass's content")
        }
    }

    @Test(
        "registering: 201 then 200; 401 for a bad or missing token or unknown pass; 400 for a bad push token",
        arguments: Engine.available)
    func registration(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            #expect(try await fixture.register() == .created)
            #expect(try await fixture.register() == .ok)
            #expect(
                try await fixture.register(headers: [.authorization: "ApplePass \(String(repeating: "x", count: 43))"])
                    == .unauthorized)
            #expect(try await fixture.register(headers: [.contentType: "application/json"]) == .unauthorized)
            #expect(try await fixture.register(headers: [.authorization: "Bearer \(fixture.token)"]) == .unauthorized)
            let unknown = fixture.registration.replacingOccurrences(of: "PASS-001", with: "PASS-404")
            try await fixture.client.execute(
                uri: unknown, method: .post, headers: fixture.auth,
                body: ByteBuffer(string: #"{"pushToken":"abcd"}"#)
            ) { #expect($0.status == .unauthorized) }
            #expect(try await fixture.register(body: #"{"pushToken":"not hex!"}"#) == .badRequest)
            #expect(try await fixture.register(body: #"{"pushToken":42}"#) == .badRequest)
            #expect(try await fixture.register(body: "{") == .badRequest)
            #expect(
                try await fixture.world.repository.registrationCount(
                    of: .pass,
                    id: try #require(
                        try await fixture.world.repository.pass(tagID: fixture.world.tag.id)?.id)) == 1)
        }
    }

    @Test(
        "updated passes: every registered one without a tag, none new after its own tag, a changed one after",
        arguments: Engine.available)
    func updatedSerialNumbers(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            #expect(try await fixture.list().0 == .noContent)
            #expect(try await fixture.register() == .created)
            let (status, body) = try await fixture.list()
            #expect(status == .ok)
            #expect(body?["serialNumbers"] == .array([.string("PASS-001")]))
            guard case .string(let tag) = try #require(body?["lastUpdated"]) else {
                Issue.record("lastUpdated is not a string")
                return
            }
            #expect(try await fixture.list(since: tag).0 == .noContent)
            // A tag the device made up, or an empty one, lists everything.
            #expect(try await fixture.list(since: "").0 == .ok)
            #expect(try await fixture.list(since: "garbage").0 == .ok)

            let passID = try #require(try await fixture.world.repository.pass(tagID: fixture.world.tag.id)?.id)
            try await fixture.updater.update(passID: passID, PassChange(fields: ["event": .text("Moved to Hall B")]))
            let (afterStatus, after) = try await fixture.list(since: tag)
            #expect(afterStatus == .ok)
            #expect(after?["serialNumbers"] == .array([.string("PASS-001")]))
            #expect(after?["lastUpdated"] != .string(tag))
        }
    }

    @Test(
        "fetch: 200 with Last-Modified, then 304; after an update the change, binding kept; 401 without token",
        arguments: Engine.available)
    func latestPass(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            let (first, lastModified) = try await fixture.client.execute(
                uri: fixture.passPath, method: .get, headers: fixture.auth
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/vnd.apple.pkpass")
                return (Data(response.body.readableBytesView), response.headers[.lastModified])
            }
            let date = try #require(lastModified)
            let verified = try OpenSSL.verify(
                pkpass: first, root: Data(try ProvisioningWorld.identity.rootPEM.utf8), in: fixture.world.directory)
            #expect(verified.outcome.status == 0, "\(verified.outcome.errorOutput)")
            var conditional = fixture.auth
            conditional[.ifModifiedSince] = date
            try await fixture.client.execute(uri: fixture.passPath, method: .get, headers: conditional) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }

            let passID = try #require(try await fixture.world.repository.pass(tagID: fixture.world.tag.id)?.id)
            try await fixture.updater.update(
                passID: passID, PassChange(fields: ["event": .text("Moved to Hall B")], voided: true))
            let updated = try await fixture.client.execute(
                uri: fixture.passPath, method: .get, headers: conditional
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.lastModified] != date)
                return Data(response.body.readableBytesView)
            }
            let pass = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(pkpass: updated)
                .pass
            #expect(pass.fields.value(forKey: "event") == .text("Moved to Hall B"))
            #expect(pass.voided == true)
            #expect(pass.authenticationToken == fixture.token)
            #expect(pass.fidoProfile?.keyHash == "c0ffee")
            #expect(pass.issuerBindingData?.issuerBindingData == "0a0b")

            try await fixture.client.execute(uri: fixture.passPath, method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test(
        "an update queues one push per registered device in the outbox, which a dispatcher claims once",
        arguments: Engine.available)
    func updateQueuesPushes(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            #expect(try await fixture.register() == .created)
            let repository = fixture.world.repository
            let passID = try #require(try await repository.pass(tagID: fixture.world.tag.id)?.id)
            let now = fixture.world.clock.now
            try await fixture.updater.update(passID: passID, PassChange(fields: ["event": .text("One")]))
            // A second change before the push went out does not queue a second push to the same device.
            try await fixture.updater.update(passID: passID, PassChange(fields: ["event": .text("Two")]))
            let claimed = try await repository.claimDuePushes(now: now.addingTimeInterval(1), limit: 10, leaseFor: 30)
            #expect(claimed.count == 1)
            #expect(claimed.first?.pushToken == Self.pushToken)
            #expect(claimed.first?.passTypeIdentifier == fixture.passType)
            #expect(claimed.first?.deviceLibraryIdentifier == Self.device)
            #expect(
                try await repository.claimDuePushes(now: now.addingTimeInterval(2), limit: 10, leaseFor: 30).isEmpty)
            // Once the lease ran out without an answer, the push is claimed again.
            #expect(
                try await repository.claimDuePushes(now: now.addingTimeInterval(40), limit: 10, leaseFor: 30).count == 1
            )
        }
    }

    @Test("changes made at once all take effect, each on top of the others", arguments: Engine.available)
    func concurrentChanges(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            let repository = fixture.world.repository
            let before = try #require(try await repository.pass(tagID: fixture.world.tag.id))
            let relevant = Date(timeIntervalSince1970: 1_900_000_000)
            let expires = Date(timeIntervalSince1970: 1_900_086_400)
            let changes = [
                PassChange(fields: ["event": .text("Moved to Hall B")]), PassChange(relevantDate: relevant),
                PassChange(expirationDate: expires), PassChange(voided: true),
            ]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for change in changes {
                    group.addTask { try await fixture.updater.update(passID: before.id, change) }
                }
                try await group.waitForAll()
            }
            let after = try #require(try await repository.pass(id: before.id))
            let pass = try PassPackage(archive: after.passContent).pass
            #expect(pass.fields.value(forKey: "event") == .text("Moved to Hall B"))
            #expect(pass.relevantDate == relevant)
            #expect(pass.expirationDate == expires)
            #expect(pass.voided == true)
            #expect(after.updateTag >= before.updateTag + Int64(changes.count))
        }
    }

    @Test("an unknown field or an invalid result is refused and changes nothing", arguments: Engine.available)
    func invalidChanges(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            let repository = fixture.world.repository
            let before = try #require(try await repository.pass(tagID: fixture.world.tag.id))
            await #expect(throws: WalletServerError.self) {
                try await fixture.updater.update(passID: before.id, PassChange(fields: ["seat": .text("12A")]))
            }
            await #expect(throws: WalletServerError.self) {
                try await fixture.updater.update(
                    passID: before.id,
                    PassChange(fields: [
                        "event": .text(String(repeating: "x", count: PassChange.maximumValueLength + 1))
                    ]))
            }
            await #expect(throws: WalletServerError.self) {
                try await fixture.updater.update(passID: UUID(), PassChange(voided: true))
            }
            #expect(try await repository.pass(id: before.id) == before)
        }
    }

    @Test("unregistering: 200, then the device lists nothing; 401 with a wrong token", arguments: Engine.available)
    func unregister(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            #expect(try await fixture.register() == .created)
            try await fixture.client.execute(
                uri: fixture.registration, method: .delete,
                headers: [.authorization: "ApplePass \(String(repeating: "y", count: 43))"]
            ) { #expect($0.status == .unauthorized) }
            try await fixture.client.execute(uri: fixture.registration, method: .delete, headers: fixture.auth) {
                #expect($0.status == .ok)
            }
            #expect(try await fixture.list().0 == .noContent)
            let rows = try await fixture.world.database.sql.select().column("*").from("pass_registrations").all()
            #expect(rows.isEmpty, "the registration and its push token are gone")
        }
    }

    @Test("device logs are stored, long messages cut, and too many at once refused", arguments: Engine.available)
    func logs(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            let long = String(repeating: "z", count: 5000)
            try await fixture.client.execute(
                uri: "/passkit/v1/log", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"logs":["Web service error: 401","\#(long)"]}"#)
            ) { #expect($0.status == .ok) }
            let stored = try await fixture.world.repository.deviceLogs(limit: 10).map(\.message)
            #expect(stored.contains("Web service error: 401"))
            #expect(stored.contains(String(long.prefix(PassWebService.logLimits.messageBytes))))
            let many = (0...PassWebService.logLimits.messagesPerRequest).map { #""\#($0)""# }.joined(separator: ",")
            try await fixture.client.execute(
                uri: "/passkit/v1/log", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"logs":[\#(many)]}"#)
            ) { #expect($0.status == .badRequest) }
            try await fixture.client.execute(
                uri: "/passkit/v1/log", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"logs":"not a list"}"#)
            ) { #expect($0.status == .badRequest) }
        }
    }

    @Test("a pass that is not personalizable cannot be personalized", arguments: Engine.available)
    func personalizeRefused(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            try await fixture.client.execute(
                uri: fixture.passPath + "/personalize", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(
                    string: #"{"personalizationToken":"\#(Self.walletToken)","requiredPersonalizationInfo":{}}"#)
            ) { #expect($0.status == .notFound) }
        }
    }

    /// A token of the shape Wallet sends: Base64 of 32 random bytes.
    static let walletToken = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()

    /// A rewards pass template: `personalization.json` asks for the member's name.
    static func rewardsTemplate() throws -> PassPackage {
        let pass = Pass(
            passTypeIdentifier: "pass.dev.coffer.server", teamIdentifier: "DEVTEAM000", serialNumber: "PASS-001",
            organizationName: "Acme Rewards", description: "Rewards card", style: .storeCard,
            fields: PassFields(
                primaryFields: [.text("points", "0", label: "POINTS")],
                secondaryFields: [.text("personalization.fullName", "Not yet a member", label: "MEMBER")]))
        let personalization = Data(
            #"{"description":"Join Acme Rewards","requiredPersonalizationFields":["PKPassPersonalizationFieldName"]}"#
                .utf8)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        return try PassPackage(
            pass: pass,
            files: ["icon.png": png, "personalization.json": personalization, "personalizationLogo.png": png])
    }

    @Test(
        "personalization: the token's signature verifies, it happens once, the fetched pass shows the name",
        arguments: Engine.available)
    func personalize(_ engine: Engine) async throws {
        try await withFixture(engine, template: try Self.rewardsTemplate()) { fixture in
            let body =
                #"{"personalizationToken":"\#(Self.walletToken)","requiredPersonalizationInfo":{"fullName":"Jane Appleseed"}}"#
            let signature = try await fixture.client.execute(
                uri: fixture.passPath + "/personalize", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .ok)
                return Data(response.body.readableBytesView)
            }
            let verified = try OpenSSL.verify(
                signature: signature, content: Data(Self.walletToken.utf8),
                root: Data(try ProvisioningWorld.identity.rootPEM.utf8), in: fixture.world.directory)
            #expect(verified.status == 0, "\(verified.errorOutput)")
            try await fixture.client.execute(
                uri: fixture.passPath + "/personalize", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: body)
            ) { #expect($0.status == .notFound, "a pass is personalized once") }
            try await fixture.client.execute(
                uri: fixture.passPath + "/personalize", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(
                    string:
                        #"{"personalizationToken":"\#(Self.walletToken)","requiredPersonalizationInfo":{"ssn":"1"}}"#)
            ) { #expect($0.status == .badRequest) }

            let personalized = try await fixture.client.execute(
                uri: fixture.passPath, method: .get, headers: fixture.auth
            ) { Data($0.body.readableBytesView) }
            let fetched = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(
                pkpass: personalized)
            #expect(fetched.files["personalization.json"] == nil)
            #expect(fetched.pass.fields.value(forKey: "personalization.fullName") == .text("Jane Appleseed"))
        }
    }

    /// Personalization tokens the route must never sign: JSON (a manifest, issuer data), and text outside the
    /// token alphabets or bounds.
    static let unsignableTokens = [
        #"{\"pass.json\":\"0000000000000000000000000000000000000000\"}"#, #"[\"aaaaaaaaaaaaaaaaaaaa\"]"#,
        "aGVsbG8gd29ybGQgaGVsbG8=\\n", "aGVsbG8gd29y bGQgaGVsbG8", "aGVsbG8\\u001bd29ybGQgaGVsbG8", "short",
        String(repeating: "A", count: PersonalizationToken.lengths.upperBound + 1), "aGVsbG8=d29ybGQgaGVsbG8",
    ]

    @Test(
        "personalize signs only a token's shape: a manifest or non-Base64/hex text is refused, unrecorded",
        arguments: Engine.available)
    func personalizeIsNoSigningOracle(_ engine: Engine) async throws {
        try await withFixture(engine, template: try Self.rewardsTemplate()) { fixture in
            for token in Self.unsignableTokens {
                try await fixture.client.execute(
                    uri: fixture.passPath + "/personalize", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"personalizationToken":"\#(token)","requiredPersonalizationInfo":{}}"#)
                ) { #expect($0.status == .badRequest, "\(token)") }
            }
            let passID = try #require(try await fixture.world.repository.pass(tagID: fixture.world.tag.id)).id
            #expect(try await fixture.world.repository.personalization(passID: passID) == nil)
            // The pass can still be personalized with a token of Wallet's shape.
            try await fixture.client.execute(
                uri: fixture.passPath + "/personalize", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"personalizationToken":"\#(Self.walletToken)"}"#)
            ) { #expect($0.status == .ok) }
        }
    }

    @Test(
        "a rebound pass gets a new token; the old holder can't fetch or (un)register, and is unregistered",
        arguments: Engine.available)
    func rebindingRotatesTheToken(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            #expect(try await fixture.register() == .created)
            let apiToken = try await fixture.world.repository.createAPIUser(
                clientID: fixture.world.apiUser.clientID, name: "rebind"
            ).token
            let rebound = try await Self.bind(client: fixture.client, apiToken: apiToken)
            let newToken = try #require(
                try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(pkpass: rebound).pass
                    .authenticationToken)
            #expect(newToken != fixture.token)
            let passID = try #require(try await fixture.world.repository.pass(tagID: fixture.world.tag.id)).id
            #expect(try await fixture.world.repository.registrationCount(of: .pass, id: passID) == 0)
            let old = fixture.auth
            var new = fixture.auth
            new[.authorization] = "ApplePass \(newToken)"
            try await fixture.client.execute(uri: fixture.passPath, method: .get, headers: old) {
                #expect($0.status == .unauthorized)
            }
            #expect(try await fixture.register(headers: old) == .unauthorized)
            try await fixture.client.execute(uri: fixture.registration, method: .delete, headers: old) {
                #expect($0.status == .unauthorized)
            }
            try await fixture.client.execute(uri: fixture.passPath, method: .get, headers: new) {
                #expect($0.status == .ok)
            }
            #expect(try await fixture.register(headers: new) == .created)
        }
    }

    @Test(
        "a pass registers on at most its cap of devices: past it, 403 and nothing stored; known ones renew",
        arguments: Engine.available)
    func deviceCap(_ engine: Engine) async throws {
        let lines = Recorder()
        let logger = Logger(label: "cap") { _ in RecordingLogHandler(recorder: lines, logLevel: .trace) }
        try await withFixture(engine, maximumDevicesPerPass: 2, logger: logger) { fixture in
            func register(_ device: String) async throws -> HTTPResponse.Status {
                try await fixture.client.execute(
                    uri: "/passkit/v1/devices/\(device)/registrations/\(fixture.passType)/PASS-001", method: .post,
                    headers: fixture.auth,
                    body: ByteBuffer(string: #"{"pushToken":"\#(PassWebServiceTests.pushToken)"}"#)
                ) { $0.status }
            }
            #expect(try await register("made-up-device-1") == .created)
            #expect(try await register("made-up-device-2") == .created)
            #expect(try await register("made-up-device-3") == .forbidden)
            #expect(try await register("made-up-device-1") == .ok)
            let passID = try #require(try await fixture.world.repository.pass(tagID: fixture.world.tag.id)).id
            #expect(try await fixture.world.repository.registrationCount(of: .pass, id: passID) == 2)
        }
        #expect(!lines.values.isEmpty)
        let leaked = lines.values.filter { $0.contains("made-up-device") }
        #expect(leaked.isEmpty, "\(leaked)")
    }

    @Test(
        "a registration through one pass never changes another pass's push token for the same device",
        arguments: Engine.available)
    func pushTokenPerRegistration(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            #expect(try await fixture.register() == .created)
            let repository = fixture.world.repository
            let passID = try #require(try await repository.pass(tagID: fixture.world.tag.id)).id
            // Another pass the same device identifier registers for, with the attacker's push token.
            let other = ClientTag(
                clientID: fixture.world.apiUser.clientID,
                userID: try #require(
                    try await repository.tag(
                        id: fixture.world.tag.id)
                ).userID, referenceID: "OTHER")
            let passType = try #require(try await repository.passTypes().first)
            let otherPass = StoredPass(
                tagID: other.id, passTypeID: passType.id, serialNumber: "OTHER", passContent: Data())
            try await repository.createTags([(other, otherPass)])
            _ = try await repository.register(
                .pass, deviceLibraryIdentifier: PassWebServiceTests.device, pushToken: "ee", documentID: otherPass.id,
                now: Date(),
                maximumDevices: 20)
            let tokens = try await fixture.world.database.sql.select().columns("pass_id", "push_token")
                .from("pass_registrations").all()
                .map {
                    (
                        try $0.decode(column: "pass_id", as: String.self),
                        try $0.decode(column: "push_token", as: String.self)
                    )
                }
            #expect(tokens.first { $0.0 == passID.uuidString }?.1 == PassWebServiceTests.pushToken)
            #expect(tokens.first { $0.0 == otherPass.id.uuidString }?.1 == "ee")
        }
    }

    @Test(
        "registrations are limited per client address: 429 with Retry-After past the burst", arguments: Engine.available
    )
    func registrationRateLimit(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<(PassWebServiceController.registrationLimit.burst * 3)
            where statuses.last != .tooManyRequests {
                var headers = fixture.auth
                headers[HTTPField.Name("X-Forwarded-For")!] = "203.0.113.5"
                statuses.append(
                    try await fixture.client.execute(
                        uri: "/passkit/v1/devices/d\(index)/registrations/\(fixture.passType)/PASS-001", method: .post,
                        headers: headers,
                        body: ByteBuffer(string: #"{"pushToken":"\#(PassWebServiceTests.pushToken)"}"#)
                    ) { response in
                        if response.status == .tooManyRequests { #expect(response.headers[.retryAfter] != nil) }
                        return response.status
                    })
            }
            #expect(statuses.last == .tooManyRequests, "\(statuses)")
            #expect(statuses.dropLast().allSatisfy { $0 == .created })
            #expect(try await fixture.register() == .created, "another address has its own budget")
        }
    }

    @Test(
        "device logs are cut by UTF-8 bytes with control characters escaped; each address has its own budget",
        arguments: Engine.available)
    func deviceLogsAreSafe(_ engine: Engine) async throws {
        try await withFixture(engine) { fixture in
            let marks = "e" + String(repeating: "\u{0301}", count: 3000)
            let forged = "ok\n2026-11-25T00:00:00+0000 critical coffer.server: forged \u{1B}[31mred"
            let body = try JSONEncoder().encode(["logs": [marks, forged]])
            try await fixture.client.execute(
                uri: "/passkit/v1/log", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(bytes: body)
            ) { #expect($0.status == .ok) }
            let stored = try await fixture.world.repository.deviceLogs(limit: 10).map(\.message)
            #expect(stored.allSatisfy { $0.utf8.count <= PassWebService.logLimits.messageBytes })
            #expect(stored.allSatisfy { !$0.contains("\n") && !$0.contains("\u{1B}") })
            #expect(stored.contains { $0.hasPrefix("ok\\u{A}2026") && $0.contains("\\u{1B}[31mred") })

            func send(from address: String) async throws -> HTTPResponse.Status {
                try await fixture.client.execute(
                    uri: "/passkit/v1/log", method: .post,
                    headers: [.contentType: "application/json", HTTPField.Name("X-Forwarded-For")!: address],
                    body: ByteBuffer(string: #"{"logs":["x"]}"#)
                ) { $0.status }
            }
            var limited = false
            for _ in 0..<(PassWebServiceController.logLimit.burst * 3) where !limited {
                limited = try await send(from: "198.51.100.1") == .tooManyRequests
            }
            #expect(limited)
            #expect(try await send(from: "198.51.100.2") == .ok, "one client cannot spend everyone's budget")

            // An IPv6 subscriber holds a whole /64: its interface identifiers share one budget.
            limited = false
            for index in 0..<(PassWebServiceController.logLimit.burst * 3) where !limited {
                limited = try await send(from: "2001:db8:1:2::\(String(index + 1, radix: 16))") == .tooManyRequests
            }
            #expect(limited)
            #expect(try await send(from: "2001:db8:1:2:ffff:1:2:3") == .tooManyRequests, "the same /64")
            #expect(try await send(from: "2001:db8:1:3::1") == .ok, "another /64 has its own budget")
        }
    }

    @Test("a path the web service has, asked with another method, is answered 405 with Allow")
    func methodNotAllowed() async throws {
        try await withFixture(.sqliteFile) { fixture in
            try await fixture.client.execute(uri: fixture.passPath, method: .delete, headers: fixture.auth) {
                response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET")
            }
        }
    }
}
