import CofferTestSupport
import Crypto
import Foundation
import Testing
import WalletDocuments
import X509
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite("A pass type's NFC key: every account-bound pass is an encrypted NFC pass, as Wallet requires")
struct NFCKeyTests {
    /// Runs `body` with fresh server storage and its administration.
    func withAdministration(
        _ body: (WalletAdministration, WalletServerStorage, TemporaryDirectory) async throws -> Void
    )
        async throws
    {
        let directory = try TemporaryDirectory()
        let storage = try await WalletServerStorage.open(
            configuration: WalletServerConfiguration(dataDirectory: directory.appending("data")))
        do {
            try await body(WalletAdministration(storage: storage), storage, directory)
        } catch {
            try await storage.shutdown()
            throw error
        }
        try await storage.shutdown()
    }

    /// The bound pass the device's callback returns for the seeded demo tag.
    static func boundPass(_ seed: WalletAdministration.DemoSeed, storage: WalletServerStorage) async throws -> Pass {
        let apiUser = try #require(try await storage.repository.apiUser(token: seed.apiToken))
        let service = ProvisioningService(
            repository: storage.repository, identities: storage.identities, relyingPartyIdentifier: "127.0.0.1",
            callbackURL: storage.configuration.callbackURL, trace: PassEventRecorder(storage: storage))
        let answer = try await service.issuerData(for: apiUser, tagID: seed.tagID, attribute: .referenceID)
        let binding = try JSONDecoder().decode(
            IssuerBindingData.self, from: try #require(Data(base64Encoded: answer.issuerData)))
        let pkpass = try await service.completeBinding(
            sessionIdentifier: binding.sessionIdentifier, issuerBindingData: "0a0b", keyHash: "c0ffee")
        let root = try Data(contentsOf: storage.configuration.developmentRootURL)
        let trusted = try SigningIdentity.certificate(from: root, role: "the development root")
        return try await DocumentVerifier(trustRoots: [trusted]).verify(pkpass: pkpass)
            .pass
    }

    @Test("the callback's bound pass carries the pass type's NFC public key, which openssl reads as a P-256 key")
    func boundPassCarriesTheKey() async throws {
        try await withAdministration { administration, storage, directory in
            let seed = try await administration.seedDemo()
            let pass = try await Self.boundPass(seed, storage: storage)
            let carried = try #require(pass.nfc?.encryptionPublicKey)
            let keys = try await administration.nfcKeys(passTypeID: seed.passTypeID)
            #expect(keys.count == 1)
            #expect(carried == keys.first?.publicKey)

            let der = directory.appending("nfc-public.der")
            try #require(Data(base64Encoded: carried)).write(to: der)
            let openssl = try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/openssl"),
                ["pkey", "-pubin", "-inform", "DER", "-in", der.path, "-text", "-noout"])
            #expect(openssl.status == 0, "\(openssl.errorOutput)")
            #expect(openssl.output.contains("prime256v1"), "\(openssl.output)")

            // The private key the reader gets is the pair of the key the pass carries.
            let pem = try await administration.nfcPrivateKeyPEM(passTypeID: seed.passTypeID)
            let privateKey = try P256.KeyAgreement.PrivateKey(pemRepresentation: pem)
            #expect(privateKey.publicKey.derRepresentation.base64EncodedString() == carried)
        }
    }

    @Test("after a rotation, passes get the new key when next rendered, and the old key is kept for the reader")
    func rotation() async throws {
        try await withAdministration { administration, storage, _ in
            let seed = try await administration.seedDemo()
            let before = try await Self.boundPass(seed, storage: storage).nfc?.encryptionPublicKey
            let rotated = try await administration.createNFCKey(passTypeID: seed.passTypeID)
            let after = try await Self.boundPass(seed, storage: storage).nfc?.encryptionPublicKey
            #expect(after == rotated.publicKey && after != before)
            let keys = try await administration.nfcKeys(passTypeID: seed.passTypeID)
            #expect(keys.map(\.publicKey) == [rotated.publicKey, try #require(before)])
            let older = try await administration.nfcPrivateKeyPEM(passTypeID: seed.passTypeID, keyID: keys[1].id)
            #expect(
                try P256.KeyAgreement.PrivateKey(pemRepresentation: older).publicKey.derRepresentation
                    .base64EncodedString() == before)
        }
    }

    @Test("making an NFC pass for a pass type without an NFC key is refused, naming the command that makes one")
    func refusedWithoutKey() async throws {
        try await withAdministration { administration, storage, _ in
            let client = try await administration.createClient(name: "Acme")
            let passType = PassType(
                passTypeIdentifier: "pass.com.example.nokey", teamIdentifier: "T", organizationName: "Acme",
                signingKeyPath: "k")
            try await storage.repository.createPassType(passType)
            try await administration.sharePassType(passTypeID: passType.id, clientID: client.id)
            let tag = try await administration.createTag(clientID: client.id, referenceID: "N-1")
            let error = await #expect(throws: WalletServerError.self) {
                try await administration.createPass(tagID: tag.id, passTypeID: passType.id)
            }
            #expect(error?.description.contains("nfc-key create") == true)
            await #expect(throws: WalletServerError.self) {
                try await administration.setTemplate(passTypeID: passType.id, template: try PassTemplate.demoTicket())
            }
            // A pass made before pass types had NFC keys gets no issuer data until its pass type has one.
            let user = try await administration.createUser(clientID: client.id)
            let old = ClientTag(clientID: client.id, userID: user.id, referenceID: "OLD-1")
            try await storage.repository.createTags([
                (old, StoredPass(tagID: old.id, passTypeID: passType.id, serialNumber: "OLD-1", passContent: Data()))
            ])
            let (apiUser, _) = try await administration.createAPIUser(clientID: client.id, name: "app")
            let service = ProvisioningService(
                repository: storage.repository, identities: storage.identities, relyingPartyIdentifier: "127.0.0.1",
                callbackURL: storage.configuration.callbackURL, trace: PassEventRecorder(storage: storage))
            let refused = await #expect(throws: ProvisioningService.Failure.self) {
                try await service.issuerData(for: apiUser, tagID: "OLD-1", attribute: .referenceID)
            }
            guard case .notIssuable(let message)? = refused else {
                Issue.record("expected notIssuable, got \(String(describing: refused))")
                return
            }
            #expect(message.contains("nfc-key create"))
        }
    }

    @Test("an imported key must be a P-256 private key; a P-384 one is refused")
    func importChecksTheCurve() async throws {
        try await withAdministration { administration, storage, _ in
            let passType = try await administration.developmentPassType().passType
            await #expect(throws: WalletServerError.self) {
                try await administration.importNFCKey(
                    passTypeID: passType.id, pem: P384.KeyAgreement.PrivateKey().pemRepresentation)
            }
            let key = P256.KeyAgreement.PrivateKey()
            let imported = try await administration.importNFCKey(passTypeID: passType.id, pem: key.pemRepresentation)
            #expect(imported.publicKey == key.publicKey.derRepresentation.base64EncodedString())
            #expect(
                try await storage.repository.passType(id: passType.id)?.nfcPublicKey
                    == imported.publicKey)
        }
    }
}
