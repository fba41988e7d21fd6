import CofferTestSupport
import Crypto
import Foundation
import Secrets
import Testing
import WalletServer
import WalletServices
import WalletStore

/// The provider token: its exact form, when it is renewed, and the key it is signed with.
@Suite("APNs provider token")
struct APNsAuthenticationTokenTests {
    static let key = try! APNsSigningKey(
        privateKey: P256.Signing.PrivateKey(), keyID: "KEY0000001", teamID: "TEAM000001")

    static func decode(_ part: Substring) throws -> Data {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        #expect(!text.contains("="))
        while !text.count.isMultiple(of: 4) { text += "=" }
        return try #require(Data(base64Encoded: text))
    }

    @Test("the token is an ES256 JWT: kid, iss and iat in whole seconds, a raw r||s signature by the key")
    func form() throws {
        let issuedAt = Date(timeIntervalSince1970: 1_800_000_000.75)
        let token = try APNsAuthenticationToken.make(key: Self.key, issuedAt: issuedAt)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let header = try JSONSerialization.jsonObject(with: Self.decode(parts[0])) as? [String: String]
        #expect(header == ["alg": "ES256", "kid": "KEY0000001"])
        let claims = try JSONSerialization.jsonObject(with: Self.decode(parts[1])) as? [String: Any]
        #expect(claims?.count == 2)
        #expect(claims?["iss"] as? String == "TEAM000001")
        #expect((claims?["iat"] as? NSNumber)?.int64Value == 1_800_000_000)
        let signature = try Self.decode(parts[2])
        #expect(signature.count == 64)
        #expect(
            Self.key.publicKey.isValidSignature(
                try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data("\(parts[0]).\(parts[1])".utf8)
            ))
        let stranger = P256.Signing.PrivateKey().publicKey
        #expect(
            !stranger.isValidSignature(
                try P256.Signing.ECDSASignature(rawRepresentation: signature), for: Data("\(parts[0]).\(parts[1])".utf8)
            ))
    }

    @Test("a token is kept for 50 minutes, then renewed")
    func renewal() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let source = APNsAuthenticationToken(key: Self.key, clock: clock)
        let first = try source.bearer()
        clock.advance(by: 49 * 60 + 59)
        #expect(try source.bearer() == first)
        clock.advance(by: 1)
        let second = try source.bearer()
        #expect(second != first)
        clock.advance(by: 20 * 60)
        #expect(try source.bearer() == second)
    }

    @Test("a clock that went back makes a new token rather than one dated in the future")
    func clockBack() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let source = APNsAuthenticationToken(key: Self.key, clock: clock)
        let first = try source.bearer()
        clock.advance(by: -60)
        #expect(try source.bearer() != first)
    }

    @Test("renew(after:) drops the token APNs refused, and only that one")
    func renewAfterRefusal() throws {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let source = APNsAuthenticationToken(key: Self.key, clock: clock)
        let first = try source.bearer()
        source.renew(after: "not.the.token")
        #expect(try source.bearer() == first)
        source.renew(after: first)
        #expect(try source.bearer() != first)
    }
}

/// The `.p8` key and the gateway settings: what is accepted, what is refused, and what never prints.
@Suite("APNs settings")
struct APNsSettingsTests {
    @Test("a .p8 PEM key loads; its description shows the key ID and team, never the key")
    func loadsPEM() throws {
        let key = P256.Signing.PrivateKey()
        let loaded = try APNsSigningKey(pem: key.pemRepresentation, keyID: "ABCDE12345", teamID: "TEAM000001")
        #expect(loaded.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        let body = key.pemRepresentation.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        for text in [
            loaded.description, "\(APNsConfiguration(authentication: .token(loaded)))",
            String(reflecting: loaded), dumped(loaded), dumped(APNsConfiguration(authentication: .token(loaded))),
        ] {
            #expect(text.contains("ABCDE12345"))
            #expect(!text.contains(body))
        }
        #expect(dumped(loaded).contains("privateKey: \"<redacted>\""))
    }

    func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    @Test("a key file that is missing, not PEM, or another curve's key is refused with a typed error")
    func unreadableKeys() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.appending("missing.p8")
        let garbage = directory.appending("garbage.p8")
        let p384 = directory.appending("p384.p8")
        try Data("not a key".utf8).write(to: garbage)
        try Data(P384.Signing.PrivateKey().pemRepresentation.utf8).write(to: p384)
        for file in [missing, garbage, p384] {
            #expect {
                try APNsSigningKey(contentsOf: file, keyID: "ABCDE12345", teamID: "TEAM000001")
            } throws: { error in
                guard case .unreadableSigningKey = error as? APNsError else { return false }
                return true
            }
        }
    }

    @Test(
        "key and team IDs must be 10 letters and digits",
        arguments: ["", "SHORT", "ABCDE123456", "ABCDE-1234", "ABCDE 1234", "ÄBCDE12345"])
    func identifiers(identifier: String) throws {
        let key = P256.Signing.PrivateKey()
        #expect(throws: APNsError.invalidKeyID) {
            try APNsSigningKey(privateKey: key, keyID: identifier, teamID: "TEAM000001")
        }
        #expect(throws: APNsError.invalidTeamID) {
            try APNsSigningKey(privateKey: key, keyID: "ABCDE12345", teamID: identifier)
        }
    }

    @Test("the gateways are Apple's production and sandbox hosts; only https gateways are valid")
    func gateways() throws {
        #expect(APNsConfiguration.Gateway.production.url.absoluteString == "https://api.push.apple.com")
        #expect(APNsConfiguration.Gateway.sandbox.url.absoluteString == "https://api.sandbox.push.apple.com")
        #expect(try APNsConfiguration.Gateway.named("Sandbox", from: "x") == .sandbox)
        #expect(throws: WalletServerError.self) { try APNsConfiguration.Gateway.named("staging", from: "x") }
        try APNsConfiguration().validate()
        #expect(throws: APNsError.invalidGateway("http://127.0.0.1:1")) {
            try APNsConfiguration(gateway: .custom(URL(string: "http://127.0.0.1:1")!)).validate()
        }
        for configuration in [APNsConfiguration(maximumInFlight: 0), APNsConfiguration(requestTimeout: 0)] {
            #expect(throws: WalletServerError.self) { try configuration.validate() }
        }
    }

    @Test("COFFER_APNS_* choose token authentication and the gateway; none means certificates and production")
    func environment() throws {
        let directory = try TemporaryDirectory()
        let keyFile = directory.appending("AuthKey.p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: keyFile)

        let defaults = try WalletServerConfiguration(environment: [:])
        guard case .certificate = defaults.apns.authentication else {
            Issue.record("no APNs settings should mean certificate authentication")
            return
        }
        #expect(defaults.apns.gateway == .production)

        let token = try WalletServerConfiguration(environment: [
            "COFFER_APNS_KEY_FILE": keyFile.path, "COFFER_APNS_KEY_ID": "ABCDE12345",
            "COFFER_APNS_TEAM_ID": "TEAM000001", "COFFER_APNS_ENVIRONMENT": "sandbox",
        ])
        guard case .token(let key) = token.apns.authentication else {
            Issue.record("a key file, key ID and team ID should mean token authentication")
            return
        }
        #expect(key.keyID == "ABCDE12345" && key.teamID == "TEAM000001")
        #expect(token.apns.gateway == .sandbox)
    }

    @Test(
        "incomplete or unusable COFFER_APNS_* settings are refused, naming what to give",
        arguments: [
            (["COFFER_APNS_KEY_ID": "ABCDE12345"], "COFFER_APNS_KEY_FILE, COFFER_APNS_TEAM_ID"),
            (["COFFER_APNS_ENVIRONMENT": "staging"], "COFFER_APNS_ENVIRONMENT must be production or sandbox"),
            (
                [
                    "COFFER_APNS_KEY_FILE": "/nonexistent/AuthKey.p8", "COFFER_APNS_KEY_ID": "ABCDE12345",
                    "COFFER_APNS_TEAM_ID": "TEAM000001",
                ], "/nonexistent/AuthKey.p8 cannot be read"
            ),
        ])
    func invalidEnvironment(environment: [String: String], message: String) throws {
        #expect {
            try WalletServerConfiguration(environment: environment)
        } throws: { error in
            guard case .invalidConfiguration(let reason) = error as? WalletServerError else { return false }
            return reason.contains(message)
        }
    }
}
