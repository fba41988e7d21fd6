import CofferSupport
import CofferTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SQLKit
import Secrets
import Testing
import WalletDocuments
import WalletGoogle
import WalletPasses
import WalletServerTesting

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("Google Wallet's routes: save links for the backend, images and callbacks for Google")
struct GoogleWalletRoutesTests {
    typealias W = ManagementWorld
    static let issuerID = GoogleWalletOutboxTests.issuerID

    /// A management world whose pass type has a Google issuer, the stand-in, and a client of the router.
    struct Google {
        let world: ManagementWorld
        let standIn: GoogleWalletStandIn
        let client: any TestClientProtocol
        let key: Data
        let passID: UUID

        var repository: SQLWalletRepository { world.world.repository }

        /// Writes the pass's object as the outbox does.
        func writeObject() async throws {
            let writer = GoogleWalletWriter(
                api: GoogleWalletClient(configuration: standIn.configuration, clock: world.world.clock),
                outbox: repository,
                source: GooglePassSource(
                    pass: { _ in
                        let pass = try #require(try await repository.pass(id: passID))
                        return (pass, try #require(try await repository.passType(id: pass.passTypeID)))
                    }, account: { _ in try GoogleServiceAccount(json: key) }),
                converter: GooglePassConverter(publicBaseURL: { GoogleWalletOutboxTests.publicURL }),
                clock: world.world.clock)
            let dispatcher = DeliveryDispatcher(
                outbox: repository, client: APNsClient(configuration: APNsConfiguration()),
                identity: { _ in throw WalletServerError.notFound("no pushes here") }, pollInterval: .seconds(3600),
                trace: world.world.service.trace, google: writer, clock: world.world.clock)
            _ = try await repository.queueGoogleWrite(passID: passID, now: world.world.clock.now)
            _ = try await dispatcher.drain()
            try await writer.api.shutdown()
        }

        /// The pass's trace events of `kind`.
        func events(_ kind: PassEvent.Kind) async throws -> [PassEvent] {
            await world.world.service.trace.flush()
            return try await repository.passEvents(passID: passID, after: nil, limit: 500).filter { $0.kind == kind }
        }

        /// Posts `body` to the issuer's callback route.
        func postCallback(_ body: Data, issuerID: String = GoogleWalletRoutesTests.issuerID) async throws -> Answer {
            try await Answer.send(
                client, .post, "/google/callbacks/\(issuerID)", headers: [.contentType: "application/json"],
                body: String(decoding: body, as: UTF8.self))
        }
    }

    func withGoogle(_ engine: Engine, issuer: Bool = true, _ body: @Sendable (Google) async throws -> Void)
        async throws
    {
        try await W.with(engine, clock: ManualClock()) { world in
            let standIn = try await GoogleWalletStandIn(now: { world.world.clock.now })
            do {
                let repository = world.world.repository
                let pass = try #require(try await repository.pass(tagID: world.world.tag.id))
                let secrets = AggregateSecretsStore(backend: InMemoryBackend())
                let key = try standIn.makeServiceAccount(issuerID: Self.issuerID)
                if issuer {
                    try secrets.saveData(key, account: GoogleIssuer.secretPath(passTypeID: pass.passTypeID))
                    #expect(
                        try await repository.setGoogleIssuer(
                            passTypeID: pass.passTypeID, issuerID: Self.issuerID, mayUseMerchantLocations: false))
                }
                let router = WalletServerApplication.makeRouter(
                    repository: repository, service: world.world.service, logger: Logger(label: "test"),
                    updater: world.updater,
                    googleWallet: GoogleWalletRoutes(secrets: secrets, configuration: standIn.configuration))
                try await Application(router: router).test(.router) { client in
                    try await body(
                        Google(world: world, standIn: standIn, client: client, key: key, passID: pass.id))
                }
            } catch {
                await standIn.shutdown()
                throw error
            }
            await standIn.shutdown()
        }
    }

    // MARK: Save links

    @Test(
        "a save link is a JWT that openssl verifies with the service account's key, with Google's claims",
        arguments: Engine.available)
    func saveLink(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let answer = try await W.send(
                google.client, .post, "/api/v2/passes/PASS-001/google_save_link", token: google.world.token)
            #expect(answer.status == .created, "\(answer.text)")
            #expect(answer.headers[.cacheControl] == "no-store")
            let body = try JSONDecoder().decode([String: JSONValue].self, from: answer.body)
            guard case .string(let url)? = body["url"] else { throw TestFailure("the answer has a URL") }
            #expect(url.hasPrefix(GoogleSaveLink.prefix))
            #expect(body["skinny"] == .bool(false))
            #expect(body["object_written"] == .bool(false))

            let jwt = String(url.dropFirst(GoogleSaveLink.prefix.count))
            let parts = jwt.split(separator: ".").map(String.init)
            #expect(parts.count == 3)
            let directory = google.world.world.directory
            let keyFile = directory.appending("service-account.pem")
            guard case .object(let keyJSON) = try JSONValue(parsing: google.key),
                case .string(let pem)? = keyJSON["private_key"]
            else { throw TestFailure("the key file has a key") }
            try Data(pem.utf8).write(to: keyFile)
            let publicKey = directory.appending("service-account.pub")
            #expect(try OpenSSL.run("pkey", "-in", keyFile.path, "-pubout", "-out", publicKey.path).status == 0)
            let signed = directory.appending("signed.txt")
            try Data((parts[0] + "." + parts[1]).utf8).write(to: signed)
            let signature = directory.appending("signature.bin")
            try #require(Data(base64URLEncoded: parts[2])).write(to: signature)
            let verified = try OpenSSL.run(
                "dgst", "-sha256", "-verify", publicKey.path, "-signature", signature.path, signed.path)
            #expect(verified.status == 0, "\(verified.errorOutput)")

            guard case .object(let claims) = try JSONValue(parsing: try #require(Data(base64URLEncoded: parts[1])))
            else { throw TestFailure("the JWT has claims") }
            #expect(claims["iss"] == .string("wallet@stand-in.iam.gserviceaccount.com"))
            #expect(claims["aud"] == .string("google"))
            #expect(claims["typ"] == .string("savetowallet"))
            #expect(claims["iat"] == .number(google.world.world.clock.now.timeIntervalSince1970.rounded(.down)))
            #expect(claims["origins"] == .array([.string("https://wallet.example.com")]))
            guard case .object(let payload)? = claims["payload"],
                case .array(let objects)? = payload["eventTicketObjects"]
            else { throw TestFailure("the payload has the object") }
            #expect(objects.count == 1)

            let queued = try await google.world.world.database.sql.raw(
                "SELECT COUNT(*) AS n FROM push_outbox WHERE kind = 'google'"
            ).first(decodingColumn: "n", as: Int64.self)
            #expect(queued == 1, "the object is written so that the link keeps working")
        }
    }

    @Test("a pass whose pass type has no Google issuer gets no save link", arguments: Engine.available)
    func noIssuer(_ engine: Engine) async throws {
        try await withGoogle(engine, issuer: false) { google in
            let answer = try await W.send(
                google.client, .post, "/api/v2/passes/PASS-001/google_save_link", token: google.world.token)
            #expect(answer.status == .conflict)
            #expect(answer.text.contains("unsupported_here"))
            let other = try await W.send(
                google.client, .post, "/api/v2/passes/PASS-001/google_save_link", token: google.world.otherToken)
            #expect(other.status == .notFound, "another client's pass")
        }
    }

    // MARK: Images

    @Test("images are served by their content's name, and nothing else is", arguments: Engine.available)
    func images(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 9, 9])
            let name = GooglePassConversion.imageName(of: png)
            try await google.repository.keepGoogleImages([name: png], now: google.world.world.clock.now)
            let served = try await Answer.send(google.client, .get, "/google/images/\(name)")
            #expect(served.status == .ok)
            #expect(served.body == png)
            #expect(served.headers[.contentType] == "image/png")
            for missing in [String(repeating: "0", count: 64) + ".png", "..%2F..%2Fetc%2Fpasswd", "logo.png"] {
                let answer = try await Answer.send(google.client, .get, "/google/images/\(missing)")
                #expect(answer.status == .notFound, "\(missing)")
            }
        }
    }

    // MARK: Callbacks

    @Test(
        "a save from a link before the object was written is recorded, and the object written",
        arguments: Engine.available)
    func callbackBeforeWrite(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let answer = try await W.send(
                google.client, .post, "/api/v2/passes/PASS-001/google_save_link", token: google.world.token)
            #expect(answer.status == .created)
            let record = try #require(try await google.repository.googleObject(passID: google.passID))
            #expect(record.writtenUpdateTag == nil, "handed out, not written")
            let save = try google.standIn.callback(
                classID: Self.issuerID + ".class", objectID: record.objectID, nonce: "early", recipient: Self.issuerID)
            #expect(try await google.postCallback(save).status == .ok)
            #expect(try await google.events(.googleSaved).count == 1)
            try await google.writeObject()
            #expect(try await google.repository.googleObject(passID: google.passID)?.writtenUpdateTag != nil)
            #expect(google.standIn.resource(record.objectID) != nil)
        }
    }

    @Test(
        "a signed save callback is recorded once; a replay, a forgery, an expired one or another issuer's is not",
        arguments: Engine.available)
    func callbacks(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            try await google.writeObject()
            let record = try #require(try await google.repository.googleObject(passID: google.passID))
            let save = try google.standIn.callback(
                classID: record.classID ?? "", objectID: record.objectID, nonce: "nonce-1", recipient: Self.issuerID)

            let recorded = try await google.postCallback(save)
            #expect(recorded.status == .ok, "\(recorded.text)")
            #expect(try await google.events(.googleSaved).count == 1)
            #expect(try await google.repository.googleObject(passID: google.passID)?.savedAt != nil)

            #expect(try await google.postCallback(save).status == .conflict, "a replay")

            var forged = try JSONValue(parsing: save)
            if case .object(var fields) = forged, case .string(let message)? = fields["signedMessage"] {
                fields["signedMessage"] = .string(message.replacingOccurrences(of: "save", with: "del"))
                forged = .object(fields)
            }
            #expect(try await google.postCallback(forged.serialized()).status == .forbidden, "a changed message")

            let expired = try google.standIn.callback(
                classID: record.classID ?? "", objectID: record.objectID, saved: false, nonce: "nonce-2",
                recipient: Self.issuerID, expiresAt: google.world.world.clock.now.addingTimeInterval(-1))
            #expect(try await google.postCallback(expired).status == .forbidden, "an expired message")

            let foreign = try google.standIn.callback(
                classID: record.classID ?? "", objectID: record.objectID, saved: false, nonce: "nonce-3",
                recipient: "42")
            #expect(try await google.postCallback(foreign).status == .forbidden, "signed for another issuer")
            #expect(try await google.postCallback(foreign, issuerID: "42").status == .notFound, "no such issuer here")

            let unknown = try google.standIn.callback(
                classID: record.classID ?? "", objectID: Self.issuerID + ".unknown", nonce: "nonce-4",
                recipient: Self.issuerID)
            #expect(try await google.postCallback(unknown).status == .notFound)
            #expect(try await google.postCallback(Data("{}".utf8)).status == .badRequest)

            #expect(try await google.events(.googleSaved).count == 1)
            #expect(try await google.events(.googleRemoved).isEmpty)
            let nonces = try await google.world.world.database.sql.raw(
                "SELECT nonce FROM google_callback_nonces"
            ).all(decodingColumn: "nonce", as: String.self)
            #expect(nonces == ["nonce-1"], "refused callbacks leave nothing behind")

            let removal = try google.standIn.callback(
                classID: record.classID ?? "", objectID: record.objectID, saved: false, nonce: "nonce-5",
                recipient: Self.issuerID)
            #expect(try await google.postCallback(removal).status == .ok)
            #expect(try await google.events(.googleRemoved).count == 1)
        }
    }
}

extension GoogleWalletRoutesTests {
    static let android =
        "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile "
        + "Safari/537.36"

    @Test(
        "a share link offers Android browsers Google Wallet, and iPhones the Apple pass", arguments: Engine.available)
    func sharePage(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let link = try await ShareLinkRoutesTests.create(google.client, google.world)
            let path = try ShareLinkRoutesTests.path(link)
            let page = try await ShareLinkRoutesTests.open(google.client, path, agent: Self.android)
            #expect(page.status == .ok)
            #expect(page.text.contains("Add to Google Wallet"))
            #expect(page.text.contains("href=\"" + GoogleSaveLink.prefix))
            let iPhone = try await ShareLinkRoutesTests.open(google.client, path, agent: ShareLinkRoutesTests.iPhone)
            #expect(iPhone.headers[.contentType] == "application/vnd.apple.pkpass")

            let once = try await ShareLinkRoutesTests.create(google.client, google.world, body: #"{"single_use":true}"#)
            let oncePath = try ShareLinkRoutesTests.path(once)
            let form = try await ShareLinkRoutesTests.open(google.client, oncePath, agent: Self.android)
            #expect(form.text.contains(#"name="wallet" value="google""#))
            #expect(!form.text.contains(GoogleSaveLink.prefix), "the link is handed out only on a tap")
            #expect(form.headers[.contentSecurityPolicy]?.contains("form-action 'self' https://pay.google.com") == true)
            let tap = try await Answer.send(
                google.client, .post, oncePath,
                headers: [.userAgent: Self.android, .contentType: "application/x-www-form-urlencoded"],
                body: "wallet=google")
            #expect(tap.status == .seeOther)
            #expect(tap.headers[.location]?.hasPrefix(GoogleSaveLink.prefix) == true)
            let again = try await Answer.send(
                google.client, .post, oncePath,
                headers: [.userAgent: Self.android, .contentType: "application/x-www-form-urlencoded"],
                body: "wallet=google")
            #expect(again.status == .notFound, "the tap spent the link")
        }
    }

    @Test("the web flow's landing page offers Android browsers Google Wallet", arguments: Engine.available)
    func landingPage(_ engine: Engine) async throws {
        try await withGoogle(engine) { google in
            let token = try await WebFlowRoutesTests().landingToken(google.client, google.world.token)
            let page = try await ShareLinkRoutesTests.open(google.client, "/wallet/add/\(token)", agent: Self.android)
            #expect(page.status == .ok)
            #expect(page.text.contains("href=\"" + GoogleSaveLink.prefix))
            let iPhone = try await ShareLinkRoutesTests.open(
                google.client, "/wallet/add/\(token)", agent: ShareLinkRoutesTests.iPhone)
            #expect(!iPhone.text.contains(GoogleSaveLink.prefix), "an iPhone gets the Apple web flow")

            let repository = google.world.world.repository
            let pass = try #require(try await repository.pass(tagID: google.world.world.tag.id))
            #expect(
                try await repository.revokePassType(
                    passTypeID: pass.passTypeID, clientID: google.world.world.tag.clientID))
            let revoked = try await ShareLinkRoutesTests.open(
                google.client, "/wallet/add/\(token)", agent: Self.android)
            #expect(
                !revoked.text.contains(GoogleSaveLink.prefix), "a client cut off from the pass type gets no save link")
        }
    }
}
