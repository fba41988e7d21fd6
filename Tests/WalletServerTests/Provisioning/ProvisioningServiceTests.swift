import Crypto
import CofferTestSupport
import Foundation
import Secrets
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite("The provisioning flow: issuer data, then a one-time callback that binds and re-signs the pass")
struct ProvisioningServiceTests {
    @Test(
        "issuer data verifies with openssl, is stored on the pass, and the callback returns a bound pass once",
        arguments: Engine.available)
    func happyPath(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine) { world in
            let response = try await world.service.issuerData(
                for: world.apiUser, tagID: "PASS-001", attribute: .referenceID)
            #expect(response.tagID == world.tag.id.uuidString)
            let data = try #require(Data(base64Encoded: response.issuerData))
            let binding = try JSONDecoder().decode(IssuerBindingData.self, from: data)
            #expect(binding.fidoProfile.relyingPartyIdentifier == "wallet.example.com")
            #expect(binding.callbackURL == "https://wallet.example.com/api/v2/in_app_provisioning/callback")
            let root = Data(try ProvisioningWorld.identity.rootPEM.utf8)
            let openssl = try OpenSSL.verify(
                signature: try #require(Data(base64Encoded: response.signature)), content: data, root: root,
                in: world.directory)
            #expect(openssl.status == 0, "\(openssl.errorOutput)")
            // The pass records what was signed, with the session named by its hash only.
            let recorded = try #require(try await world.repository.pass(tagID: world.tag.id)?.accountBindingData)
            var expected = binding
            expected.sessionIdentifier =
                "sha256:" + SecretToken.hash(binding.sessionIdentifier).map { String(format: "%02x", $0) }.joined()
            #expect(recorded == (try expected.serialized()))

            let pkpass = try await world.service.completeBinding(
                sessionIdentifier: binding.sessionIdentifier, issuerBindingData: "0A0B0C", keyHash: "ff00")
            let verified = try await DocumentVerifier(trustRoots: [ProvisioningWorld.identity.root]).verify(
                pkpass: pkpass)
            #expect(
                verified.pass.issuerBindingData
                    == PassIssuerBindingData(
                        issuerBindingData: "0a0b0c", learnMoreURL: ProvisioningWorld.learnMoreURL))
            // pass.json as PassKit reads it: a dictionary under issuerBindingData, the device's hex inside.
            let json = try JSONSerialization.jsonObject(with: try #require(verified.files["pass.json"]))
            let bindingJSON = (json as? [String: Any])?["issuerBindingData"] as? [String: String]
            #expect(bindingJSON == ["issuerBindingData": "0a0b0c", "learnMoreURL": ProvisioningWorld.learnMoreURL])
            #expect(verified.pass.fidoProfile?.keyHash == "ff00")
            #expect(verified.pass.fidoProfile?.accountHash == binding.fidoProfile.accountHash)
            let stored = try await world.repository.pass(tagID: world.tag.id)
            #expect(stored?.keyHash == "ff00")
            #expect(stored?.issuerBindingData == "0a0b0c")

            await #expect(throws: ProvisioningService.Failure.self) {
                try await world.service.completeBinding(
                    sessionIdentifier: binding.sessionIdentifier, issuerBindingData: "0a", keyHash: "ff")
            }
        }
    }

    @Test("after an issuance, the session identifier is nowhere in the database's files; only its hash is")
    func identifierNotStored() async throws {
        try await ProvisioningWorld.with(.sqliteFile) { world in
            let response = try await world.service.issuerData(
                for: world.apiUser, tagID: "PASS-001", attribute: .referenceID)
            let binding = try JSONDecoder().decode(
                IssuerBindingData.self, from: try #require(Data(base64Encoded: response.issuerData)))
            let identifier = binding.sessionIdentifier
            let hash = SecretToken.hash(identifier)
            let hex = hash.map { String(format: "%02x", $0) }.joined()
            func everything() throws -> Data {
                // The database, its write-ahead log and shared memory, whichever exist.
                try FileManager.default.contentsOfDirectory(atPath: world.directory.url.path)
                    .filter { $0.hasPrefix("coffer-wallet.sqlite") }
                    .reduce(into: Data()) { $0 += try Data(contentsOf: world.directory.url.appendingPathComponent($1)) }
            }
            // While the server runs (the write-ahead log holds the newest pages) and after it closed the database.
            for phase in ["running", "closed"] {
                if phase == "closed" { try await world.database.shutdown() }
                let files = try everything()
                #expect(!files.isEmpty)
                #expect(files.range(of: Data(identifier.utf8)) == nil, "\(phase): the identifier is stored")
                #expect(files.range(of: Data(identifier.uppercased().utf8)) == nil, "\(phase)")
                #expect(files.range(of: hash) != nil, "\(phase): the session's hash is stored")
                #expect(files.range(of: Data(hex.utf8)) != nil, "\(phase): the pass names the session by hash")
            }
        }
    }

    @Test(
        "each id attribute finds the tag; unknown, other clients' and passless tags are not found",
        arguments: Engine.available)
    func lookups(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine) { world in
            _ = try await world.service.issuerData(for: world.apiUser, tagID: "9001", attribute: .prontoTagID)
            await #expect(throws: ProvisioningService.Failure.self) {
                try await world.service.issuerData(for: world.apiUser, tagID: "missing", attribute: .referenceID)
            }
            let other = try await world.repository.createClient(name: "Other")
            let otherUser = try await world.repository.createAPIUser(clientID: other.id, name: "x").apiUser
            await #expect(throws: ProvisioningService.Failure.self) {
                try await world.service.issuerData(for: otherUser, tagID: "PASS-001", attribute: .referenceID)
            }
            let user = try await world.repository.createUser(clientID: world.apiUser.clientID, externalReference: nil)
            try await world.repository.createTag(
                ClientTag(clientID: world.apiUser.clientID, userID: user.id, referenceID: "NOPASS"))
            await #expect(throws: ProvisioningService.Failure.self) {
                try await world.service.issuerData(for: world.apiUser, tagID: "NOPASS", attribute: .referenceID)
            }
        }
    }

    @Test(
        "a client issues only under pass types shared with it; another client's is refused until shared",
        arguments: Engine.available)
    func passTypesBelongToClients(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine) { world in
            let passType = try #require(try await world.repository.passTypes().first)
            let other = try await world.repository.createClient(name: "Other")
            let otherUser = try await world.repository.createAPIUser(clientID: other.id, name: "x").apiUser
            let user = try await world.repository.createUser(clientID: other.id, externalReference: nil)
            let tag = ClientTag(clientID: other.id, userID: user.id, referenceID: "B-1")
            try await world.repository.createTags([
                (tag, StoredPass(tagID: tag.id, passTypeID: passType.id, serialNumber: "B-1", passContent: Data()))
            ])
            let refused = await #expect(throws: ProvisioningService.Failure.self) {
                try await world.service.issuerData(for: otherUser, tagID: "B-1", attribute: .referenceID)
            }
            guard case .forbidden(let message)? = refused else {
                Issue.record("expected forbidden, got \(String(describing: refused))")
                return
            }
            #expect(message.contains(passType.passTypeIdentifier) && message.contains("pass-type share"))
            try await world.repository.grantPassType(passTypeID: passType.id, clientID: other.id, now: Date())
            _ = try await world.service.issuerData(for: otherUser, tagID: "B-1", attribute: .referenceID)
            #expect(try await world.repository.revokePassType(passTypeID: passType.id, clientID: other.id))
            await #expect(throws: ProvisioningService.Failure.self) {
                try await world.service.issuerData(for: otherUser, tagID: "B-1", attribute: .referenceID)
            }
        }
    }

    @Test(
        "a session is refused after it expires, and unknown sessions and non-hex input are refused",
        arguments: Engine.available)
    func refusals(_ engine: Engine) async throws {
        try await ProvisioningWorld.with(engine) { world in
            let response = try await world.service.issuerData(
                for: world.apiUser, tagID: "PASS-001", attribute: .referenceID)
            let binding = try JSONDecoder().decode(
                IssuerBindingData.self, from: Data(base64Encoded: response.issuerData)!)
            let maximum = ProvisioningService.maximumBindingHexLength
            for (bindingHex, keyHash) in [
                ("00", "not hex"), ("00", "\u{FF10}\u{FF11}"), ("\u{FF41}\u{FF42}", "00"), ("00", "0"), ("", "00"),
                (String(repeating: "ab", count: maximum / 2 + 1), "00"),
            ] {
                await #expect(throws: ProvisioningService.Failure.self, "\(bindingHex.prefix(8)) / \(keyHash)") {
                    try await world.service.completeBinding(
                        sessionIdentifier: binding.sessionIdentifier, issuerBindingData: bindingHex, keyHash: keyHash)
                }
            }
            await #expect(throws: ProvisioningService.Failure.self) {
                try await world.service.completeBinding(
                    sessionIdentifier: "unknown", issuerBindingData: "00", keyHash: "00")
            }
            world.clock.advance(by: IssuerBindingData.maximumAge + 1)
            await #expect(throws: ProvisioningService.Failure.self) {
                try await world.service.completeBinding(
                    sessionIdentifier: binding.sessionIdentifier, issuerBindingData: "00", keyHash: "00")
            }
        }
    }
}
