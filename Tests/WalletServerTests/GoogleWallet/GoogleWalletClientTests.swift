import Foundation
import Testing
import WalletDocuments
import WalletGoogle
import WalletPasses
import WalletServerTesting
import WalletServices

@testable import WalletServer

@Suite("The Google Wallet client: signs in as the service account, writes classes and objects, says what failed")
struct GoogleWalletClientTests {
    static let issuerID = "3388000000012345678"

    /// A class and an object of the issuer, as a conversion makes them.
    static func conversion(title: String = "Launch", issuerID: String = issuerID) throws -> GooglePassConversion {
        let pass = Pass(
            passTypeIdentifier: "pass.dev.coffer.google", teamIdentifier: "DEVTEAM000", serialNumber: "S-1",
            organizationName: "Acme Events", description: "Ticket", style: .generic,
            fields: PassFields(primaryFields: [.text("event", title, label: "EVENT")]))
        return GooglePassConversion(pass, options: .init(issuerID: issuerID))
    }

    /// Runs `body` with a stand-in, a client of it, and a service account of the issuer.
    func withClient(
        _ body: (GoogleWalletStandIn, GoogleWalletClient, GoogleServiceAccount) async throws -> Void
    ) async throws {
        let standIn = try await GoogleWalletStandIn()
        let client = GoogleWalletClient(configuration: standIn.configuration)
        do {
            let account = try GoogleServiceAccount(json: try standIn.makeServiceAccount(issuerID: Self.issuerID))
            try await body(standIn, client, account)
        } catch {
            try? await client.shutdown()
            await standIn.shutdown()
            throw error
        }
        try await client.shutdown()
        await standIn.shutdown()
    }

    @Test("the first save inserts the class and the object; the next replaces the object, with the same token")
    func insertsThenReplaces() async throws {
        try await withClient { standIn, client, account in
            let first = try Self.conversion()
            #expect(await client.save(first.walletClass, first.walletObject, classExists: false, as: account) == .done)
            let changed = try Self.conversion(title: "Moved to Hall B")
            #expect(changed.walletClass.id == first.walletClass.id)
            #expect(await client.saveObject(changed.walletObject, as: account) == .done)

            let calls = standIn.received.map { "\($0.method) \($0.path) \($0.status)" }
            #expect(
                calls == [
                    "POST /token 200", "POST /walletobjects/v1/genericClass 200",
                    "PUT /walletobjects/v1/genericObject/\(first.walletObject.id) 404",
                    "POST /walletobjects/v1/genericObject 200",
                    "PUT /walletobjects/v1/genericObject/\(first.walletObject.id) 200",
                ])
            let stored = try #require(standIn.resource(first.walletObject.id))
            #expect(stored["header"]?.jsonText.contains("Moved to Hall B") == true)
        }
    }

    @Test("a class that exists already (409) is read: kept when it holds the same, replaced when it does not")
    func existingClass() async throws {
        try await withClient { standIn, client, account in
            let conversion = try Self.conversion()
            #expect(
                await client.save(conversion.walletClass, conversion.walletObject, classExists: false, as: account)
                    == .done)
            let second = GoogleWalletClient(configuration: standIn.configuration)
            #expect(
                await second.save(conversion.walletClass, conversion.walletObject, classExists: false, as: account)
                    == .done)
            try await second.shutdown()
            let classPath = "/walletobjects/v1/genericClass/\(conversion.walletClass.id)"
            #expect(standIn.received.contains { $0.path.hasSuffix("genericClass") && $0.status == 409 })
            #expect(standIn.received.contains { $0.method == "GET" && $0.path == classPath })
            #expect(!standIn.received.contains { $0.method == "PUT" && $0.path == classPath }, "the same: kept")

            var planted = conversion.walletClass
            planted.callbackOptions = GoogleWallet.CallbackOptions(url: "https://attacker.example/callbacks")
            let other = GoogleWalletClient(configuration: standIn.configuration)
            #expect(await other.save(planted, conversion.walletObject, classExists: false, as: account) == .done)
            try await other.shutdown()
            let fresh = GoogleWalletClient(configuration: standIn.configuration)
            #expect(
                await fresh.save(conversion.walletClass, conversion.walletObject, classExists: false, as: account)
                    == .done)
            try await fresh.shutdown()
            #expect(standIn.received.contains { $0.method == "PUT" && $0.path == classPath }, "another: replaced")
            #expect(standIn.resource(conversion.walletClass.id)?["callbackOptions"] == nil)
        }
    }

    @Test("a token Google no longer takes (401) is replaced once, and the call made again")
    func expiredToken() async throws {
        try await withClient { standIn, client, account in
            let conversion = try Self.conversion()
            #expect(
                await client.save(conversion.walletClass, conversion.walletObject, classExists: false, as: account)
                    == .done)
            standIn.expireTokens()
            #expect(
                await client.save(conversion.walletClass, conversion.walletObject, classExists: false, as: account)
                    == .done)
            #expect(standIn.received.filter { $0.path == "/token" }.count == 2)
            #expect(standIn.received.filter { $0.status == 401 }.count == 1)
        }
    }

    @Test("429, a quota's 403 and 5xx are worth retrying, after Google's Retry-After; other refusals say why")
    func failures() async throws {
        try await withClient { standIn, client, account in
            let conversion = try Self.conversion()
            standIn.script([.tooManyRequests(retryAfter: "2")], forPathsStartingWith: "/walletobjects/v1/genericClass")
            #expect(
                await client.save(conversion.walletClass, conversion.walletObject, classExists: false, as: account)
                    == .retry(after: 2, reason: "Google answered 429 rateLimitExceeded"))
            standIn.script(
                [GoogleWalletStandIn.Answer(status: 403, errorName: "quotaExceeded", retryAfter: "1")],
                forPathsStartingWith: "/walletobjects/v1/genericClass")
            #expect(
                await client.save(conversion.walletClass, conversion.walletObject, classExists: false, as: account)
                    == .retry(after: 1, reason: "Google answered 403 quotaExceeded"),
                "a quota's 403 is a 429 by another status")
            standIn.script([.unavailable], forPathsStartingWith: "/walletobjects/v1/genericClass")
            guard
                case .retry = await client.save(
                    conversion.walletClass, conversion.walletObject, classExists: false, as: account)
            else {
                Issue.record("a 503 is retried")
                return
            }
            standIn.script([.internalError], forPathsStartingWith: "/token")
            let fresh = GoogleWalletClient(configuration: standIn.configuration)
            defer { Task { try? await fresh.shutdown() } }
            guard
                case .retry = await fresh.save(
                    conversion.walletClass, conversion.walletObject, classExists: false, as: account)
            else {
                Issue.record("a token endpoint's 500 is retried")
                return
            }
        }
    }

    @Test("a key Google does not know, or another issuer's resource, is refused as the account's fault")
    func refusedAccount() async throws {
        try await withClient { standIn, client, account in
            let email = "rotated@stand-in.iam.gserviceaccount.com"
            let replaced = try GoogleServiceAccount(
                json: try standIn.makeServiceAccount(issuerID: Self.issuerID, email: email))
            _ = try standIn.makeServiceAccount(issuerID: Self.issuerID, email: email)
            let conversion = try Self.conversion()
            guard
                case .refused(401, "invalid_grant", _) = await client.save(
                    conversion.walletClass, conversion.walletObject, classExists: false, as: replaced)
            else {
                Issue.record("a key Google no longer knows is refused at sign-in")
                return
            }
            let otherIssuer = try Self.conversion(issuerID: "42")
            guard
                case .refused(403, "permissionDenied", _) = await client.save(
                    otherIssuer.walletClass, otherIssuer.walletObject, classExists: false, as: account)
            else {
                Issue.record("another issuer's class is refused")
                return
            }
        }
    }

    @Test("an object with more than 10 messages is refused; a retired object turns INACTIVE with its messages")
    func messagesAndRetirement() async throws {
        try await withClient { standIn, client, account in
            let conversion = try Self.conversion()
            var object = conversion.walletObject
            object.messages = (0..<11).map { GoogleWallet.Message(id: "m\($0)", header: "h", body: "b") }
            guard
                case .refused(400, "invalid", _) = await client.save(
                    conversion.walletClass, object, classExists: false, as: account)
            else {
                Issue.record("Google refuses an 11th message")
                return
            }
            object.messages = Array(object.messages!.suffix(10))
            #expect(await client.saveObject(object, as: account) == .done)
            let id = object.id
            let replaced = GoogleWallet.Message(id: "r", header: "Replaced", body: "b", messageType: "TEXT")
            #expect(await client.retire(id, of: .generic, messages: [replaced], as: account) == .done)
            #expect(standIn.resource(id)?["state"] == .string("INACTIVE"))
            #expect(
                await client.retire("\(Self.issuerID).never-written", of: .generic, messages: [], as: account) == .done,
                "an object Google never had needs no retiring")
        }
    }

    @Test("calls are paced per service account: a burst past Google's 20 a second meets no 429")
    func pacing() async throws {
        try await withClient { standIn, client, account in
            let conversion = try Self.conversion()
            #expect(
                await client.save(conversion.walletClass, conversion.walletObject, classExists: false, as: account)
                    == .done)
            await withTaskGroup(of: GoogleWalletOutcome.self) { group in
                for _ in 0..<30 {
                    group.addTask {
                        await client.saveObject(conversion.walletObject, as: account)
                    }
                }
                for await outcome in group { #expect(outcome == .done) }
            }
            #expect(!standIn.received.contains { $0.status == 429 })
        }
    }
}

extension GoogleWalletClient {
    /// Writes the class (inserted first unless `classExists`), then the object, as the writer does.
    func save(
        _ walletClass: GoogleWalletClass, _ object: GoogleWalletObject, classExists: Bool,
        as account: GoogleServiceAccount
    ) async -> GoogleWalletOutcome {
        let saved = await saveClass(walletClass, exists: classExists, as: account)
        guard saved == .done else { return saved }
        return await saveObject(object, as: account)
    }
}

extension JSONValue {
    /// The value as JSON text, to look for a value anywhere in it.
    var jsonText: String { String(decoding: serialized(), as: UTF8.self) }
}
