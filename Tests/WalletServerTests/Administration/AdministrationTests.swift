import CofferTestSupport
import Foundation
import SQLKit
import Secrets
import SecretsAudit
import Testing
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

@Suite("Administration: the records an operator creates, and the checks that keep them consistent")
struct AdministrationTests {
    /// Opens storage over a fresh database of `engine` (and a fresh data directory), runs `body`, closes it.
    func withAdministration(_ engine: Engine, _ body: (WalletAdministration, WalletServerStorage) async throws -> Void)
        async throws
    {
        let directory = try TemporaryDirectory()
        var configuration = WalletServerConfiguration(
            dataDirectory: directory.appending("data"), databaseURL: try await engine.makeDatabaseURL(in: directory),
            createsDevelopmentIdentity: false)
        if engine == .postgres {
            // On PostgreSQL the secret store is in the database, unlocked by a store key every replica is given.
            try EncryptedFileBackend.createKeyFile(at: directory.appending("store.key"))
            configuration.secretStoreKey = .keyFile(directory.appending("store.key"))
        }
        let storage = try await WalletServerStorage.open(configuration: configuration)
        do {
            try await body(WalletAdministration(storage: storage), storage)
        } catch {
            try await storage.shutdown()
            throw error
        }
        try await storage.shutdown()
    }

    func service(_ storage: WalletServerStorage) -> ProvisioningService {
        ProvisioningService(
            repository: storage.repository, identities: storage.identities,
            relyingPartyIdentifier: "127.0.0.1",
            callbackURL: storage.configuration.callbackURL, trace: PassEventRecorder(storage: storage))
    }

    @Test(
        "seed-demo twice makes two separate clients whose tokens each reach only their own tag",
        arguments: Engine.available)
    func seedDemoTwice(_ engine: Engine) async throws {
        try await withAdministration(engine) { administration, storage in
            let first = try await administration.seedDemo()
            let second = try await administration.seedDemo()
            #expect(first.clientID != second.clientID)
            #expect(first.apiToken != second.apiToken)
            #expect(first.passTypeID == second.passTypeID)
            let repository = storage.repository
            let firstUser = try #require(try await repository.apiUser(token: first.apiToken))
            let secondUser = try #require(try await repository.apiUser(token: second.apiToken))
            let service = service(storage)
            let response = try await service.issuerData(for: firstUser, tagID: first.tagID, attribute: .referenceID)
            let root = try Data(contentsOf: storage.configuration.developmentRootURL)
            let signature = try #require(Data(base64Encoded: response.signature))
            let content = try #require(Data(base64Encoded: response.issuerData))
            let openssl = try await ChildProcess.detached {
                try OpenSSL.verify(signature: signature, content: content, root: root, in: try TemporaryDirectory())
            }
            #expect(openssl.status == 0, "\(openssl.errorOutput)")
            await #expect(throws: ProvisioningService.Failure.self) {
                try await service.issuerData(for: secondUser, tagID: first.tagID, attribute: .referenceID)
            }
        }
    }

    @Test("the development pass type is made once; later calls return it", arguments: Engine.available)
    func developmentPassTypeOnce(_ engine: Engine) async throws {
        try await withAdministration(engine) { administration, storage in
            let (made, created) = try await administration.developmentPassType()
            #expect(created)
            let (again, createdAgain) = try await administration.developmentPassType()
            #expect(!createdAgain)
            #expect(again.id == made.id)
            #expect(made.passTypeIdentifier == WalletAdministration.developmentPassTypeIdentifier)
            #expect(try await storage.repository.passTypes().map(\.id) == [made.id])
            let root = try String(contentsOf: storage.configuration.developmentRootURL, encoding: .utf8)
            #expect(root.hasPrefix("-----BEGIN CERTIFICATE-----"))
        }
    }

    @Test(
        "importing a renewed identity keeps the record, is used at once, and retires the replaced one",
        arguments: Engine.available)
    func renewIdentity(_ engine: Engine) async throws {
        try await withAdministration(engine) { administration, storage in
            let old = try DevelopmentIdentity.generate(
                passTypeIdentifier: "pass.test.renew", teamIdentifier: "TEAM000001")
            let (passType, created) = try await administration.importPassType(
                old.signingIdentity, organizationName: "Renew Co")
            #expect(created)
            #expect(passType.organizationName == "Renew Co")
            let identities = storage.identities
            #expect(try await identities.identity(for: passType).certificate == old.signingIdentity.certificate)

            let renewed = try DevelopmentIdentity.generate(
                passTypeIdentifier: "pass.test.renew", teamIdentifier: "TEAM000001")
            let (again, createdAgain) = try await administration.importPassType(renewed.signingIdentity)
            #expect(!createdAgain)
            #expect(again.id == passType.id)
            #expect(try await identities.identity(for: again).certificate == renewed.signingIdentity.certificate)
            let stored = try SigningIdentity(from: storage.secrets, at: again.signingKeyPath)
            #expect(stored.certificate == renewed.signingIdentity.certificate)
            #expect(try await storage.repository.passType(id: passType.id) == again)
            #expect(again.retiredSigningKeyPath == passType.signingKeyPath, "kept until it expires")
            #expect(try storage.secrets.readData(account: passType.signingKeyPath) != nil)
            #expect(again.organizationName == "Renew Co", "kept when not given again")
        }
    }

    @Test(
        "a certificate for a known pass type of another team is refused before anything is stored",
        arguments: Engine.available)
    func otherTeam(_ engine: Engine) async throws {
        try await withAdministration(engine) { administration, storage in
            let original = try DevelopmentIdentity.generate(
                passTypeIdentifier: "pass.test.team", teamIdentifier: "TEAM000001")
            let (passType, _) = try await administration.importPassType(original.signingIdentity)
            let accounts = try storage.secrets.listAccounts()

            let intruder = try DevelopmentIdentity.generate(
                passTypeIdentifier: "pass.test.team", teamIdentifier: "TEAM000002")
            await #expect(throws: WalletServerError.self) {
                try await administration.importPassType(intruder.signingIdentity)
            }
            #expect(try storage.secrets.listAccounts() == accounts, "nothing was stored")
            #expect(
                try await storage.repository.passType(id: passType.id)?.signingKeyPath
                    == passType.signingKeyPath)
            let signing = try await storage.identities.identity(for: passType)
            #expect(signing.certificate == original.signingIdentity.certificate)
        }
    }

    @Test("a development identity that can no longer sign (an earlier version's) is made again")
    func staleDevelopmentIdentity() async throws {
        try await withAdministration(.sqliteFile) { administration, storage in
            let (passType, _) = try await administration.developmentPassType()
            let stranger = try DevelopmentIdentity.generate(
                passTypeIdentifier: "pass.test.stranger", teamIdentifier: "TEAM000005")
            try stranger.signingIdentity.save(to: storage.secrets, at: passType.signingKeyPath)

            let (again, _) = try await administration.developmentPassType()
            #expect(again.id == passType.id)
            #expect(again.signingKeyPath != passType.signingKeyPath)
            let identity = try SigningIdentity(from: storage.secrets, at: again.signingKeyPath)
            try identity.check(passTypeIdentifier: again.passTypeIdentifier, teamIdentifier: again.teamIdentifier)
            let (unchanged, _) = try await administration.developmentPassType()
            #expect(unchanged.signingKeyPath == again.signingKeyPath, "a usable identity is kept")
        }
    }

    @Test("an import whose record cannot be written leaves no identity behind")
    func importRollsBack() async throws {
        try await withAdministration(.sqliteFile) { administration, storage in
            let before = try storage.secrets.listAccounts()
            // The database refuses the insert after the import has looked the pass type up and stored its identity.
            try await storage.database.sql.raw(
                "CREATE TRIGGER refuse_pass_types BEFORE INSERT ON pass_types BEGIN SELECT RAISE(ABORT, 'refused'); END"
            ).run()
            let identity = try DevelopmentIdentity.generate(
                passTypeIdentifier: "pass.test.new", teamIdentifier: "TEAM000004")
            await #expect(throws: (any Error).self) {
                try await administration.importPassType(identity.signingIdentity)
            }
            #expect(try storage.secrets.listAccounts() == before, "the new identity was removed")
            #expect(try await storage.repository.passTypes().isEmpty)
        }
    }

    @Test(
        "a pass type's binding learn-more page is stored, changed by a later import, and must be https",
        arguments: Engine.available)
    func bindingLearnMoreURL(_ engine: Engine) async throws {
        try await withAdministration(engine) { administration, storage in
            let identity = try DevelopmentIdentity.generate(
                passTypeIdentifier: "pass.test.binding", teamIdentifier: "TEAM000003")
            let (passType, _) = try await administration.importPassType(
                identity.signingIdentity, bindingLearnMoreURL: "https://acme.example.com/binding")
            let repository = storage.repository
            #expect(try await repository.passType(id: passType.id)?.bindingLearnMoreURL == passType.bindingLearnMoreURL)
            #expect(passType.bindingLearnMoreURL == "https://acme.example.com/binding")

            let (changed, _) = try await administration.importPassType(
                identity.signingIdentity, bindingLearnMoreURL: "https://acme.example.com/help/binding")
            #expect(changed.id == passType.id)
            #expect(
                try await repository.passTypes().first { $0.id == passType.id }?.bindingLearnMoreURL
                    == "https://acme.example.com/help/binding")
            let (kept, _) = try await administration.importPassType(identity.signingIdentity)
            #expect(kept.bindingLearnMoreURL == "https://acme.example.com/help/binding", "kept when not given")

            for bad in ["http://acme.example.com/binding", "not a url", "https://"] {
                await #expect(throws: WalletServerError.self, "\(bad)") {
                    try await administration.importPassType(identity.signingIdentity, bindingLearnMoreURL: bad)
                }
            }
            #expect(try await repository.passType(id: passType.id)?.bindingLearnMoreURL == kept.bindingLearnMoreURL)
        }
    }

    @Test(
        "tags need an identifier, a known client and that client's user; identifiers are unique per client",
        arguments: Engine.available)
    func tagChecks(_ engine: Engine) async throws {
        try await withAdministration(engine) { administration, storage in
            let acme = try await administration.createClient(name: "Acme")
            let other = try await administration.createClient(name: "Other")
            let othersUser = try await administration.createUser(clientID: other.id)
            await #expect(throws: WalletServerError.self) {
                try await administration.createTag(clientID: acme.id)
            }
            await #expect(
                throws: WalletServerError.notFound(
                    "client \(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)")
            ) {
                try await administration.createTag(
                    clientID: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, referenceID: "X")
            }
            await #expect(throws: WalletServerError.self) {
                try await administration.createTag(clientID: acme.id, userID: othersUser.id, referenceID: "X")
            }
            let tag = try await administration.createTag(clientID: acme.id, referenceID: "T-1", prontoTagID: "77")
            #expect(try await storage.repository.user(id: tag.userID)?.clientID == acme.id)
            await #expect(throws: WalletServerError.conflict("a record with the same key")) {
                try await administration.createTag(clientID: acme.id, referenceID: "T-1")
            }
            // The same reference in another client is another tag.
            _ = try await administration.createTag(clientID: other.id, referenceID: "T-1")
        }
    }

    @Test(
        "names must be one line of 1–200 characters",
        arguments: ["", "   ", "two\nlines", String(repeating: "x", count: 201)])
    func names(_ name: String) async throws {
        try await withAdministration(.sqliteFile) { administration, storage in
            await #expect(throws: WalletServerError.self) { try await administration.createClient(name: name) }
        }
    }

    @Test(
        "a pass per tag, of the only pass type unless one is named; several pass types need a choice",
        arguments: Engine.available)
    func passes(_ engine: Engine) async throws {
        try await withAdministration(engine) { administration, storage in
            let client = try await administration.createClient(name: "Acme")
            let tag = try await administration.createTag(clientID: client.id, referenceID: "T-1")
            await #expect(throws: WalletServerError.self) { try await administration.createPass(tagID: tag.id) }

            let (development, _) = try await administration.developmentPassType()
            let pass = try await administration.createPass(tagID: tag.id)
            #expect(pass.passTypeID == development.id)
            #expect(pass.serialNumber == "T-1")
            let content = try PassPackage(archive: pass.passContent).pass
            #expect(content.passTypeIdentifier == development.passTypeIdentifier)
            #expect(content.barcodes?.first?.message == "T-1")
            await #expect(throws: WalletServerError.conflict("a pass for tag \(tag.id)")) {
                try await administration.createPass(tagID: tag.id)
            }

            let second = try DevelopmentIdentity.generate(
                passTypeIdentifier: "pass.test.second", teamIdentifier: "TEAM000002")
            let (secondType, _) = try await administration.importPassType(second.signingIdentity)
            let another = try await administration.createTag(clientID: client.id, referenceID: "T-2")
            await #expect(throws: WalletServerError.self) { try await administration.createPass(tagID: another.id) }
            await #expect(throws: WalletServerError.self, "not shared with the client") {
                try await administration.createPass(tagID: another.id, passTypeID: secondType.id, serialNumber: "S-2")
            }
            try await administration.sharePassType(passTypeID: secondType.id, clientID: client.id)
            let named = try await administration.createPass(
                tagID: another.id, passTypeID: secondType.id, serialNumber: "S-2")
            #expect(try PassPackage(archive: named.passContent).pass.passTypeIdentifier == "pass.test.second")
            #expect(try await administration.passes(clientID: client.id).map(\.id) == [pass.id, named.id])
        }
    }

    @Test(
        "a serial number is one Wallet can put in a web service path: a reference that is not gives way to the tag's id",
        arguments: Engine.available)
    func serialNumbersFitPaths(_ engine: Engine) async throws {
        try await withAdministration(engine) { administration, _ in
            let client = try await administration.createClient(name: "Acme")
            _ = try await administration.developmentPassType()
            let accented = try await administration.createTag(clientID: client.id, referenceID: "réf-été")
            #expect(try await administration.createPass(tagID: accented.id).serialNumber == accented.id.uuidString)
            let other = try await administration.createTag(clientID: client.id, referenceID: "T-3")
            await #expect(throws: WalletServerError.self) {
                try await administration.createPass(tagID: other.id, serialNumber: "S 3")
            }
        }
    }

    @Test("a pass folder can be the template: its content is kept, its identifiers become the pass type's")
    func folderTemplate() async throws {
        try await withAdministration(.sqliteFile) { administration, storage in
            let (passType, _) = try await administration.developmentPassType()
            let client = try await administration.createClient(name: "Acme")
            let tag = try await administration.createTag(clientID: client.id, referenceID: "T-1")
            let folder = SourceTree.appending("Examples/Passes/EventTicket.pass")
            let template = PassTemplate(package: try PassPackage(directory: folder))
            let pass = try await administration.createPass(tagID: tag.id, template: template)
            let package = try PassPackage(archive: pass.passContent)
            #expect(try package.pass.passTypeIdentifier == passType.passTypeIdentifier)
            #expect(try package.pass.teamIdentifier == passType.teamIdentifier)
            #expect(package.files.keys.contains("fr.lproj/pass.strings"))
        }
    }

    @Test(
        "revoking stops the token at once; revoking again or an unknown API user is not found",
        arguments: Engine.available)
    func revoke(_ engine: Engine) async throws {
        try await withAdministration(engine) { administration, storage in
            let client = try await administration.createClient(name: "Acme")
            let (apiUser, token) = try await administration.createAPIUser(clientID: client.id, name: "app")
            #expect(try await storage.repository.apiUser(token: token) != nil)
            try await administration.revokeAPIUser(id: apiUser.id)
            #expect(try await storage.repository.apiUser(token: token) == nil)
            await #expect(throws: WalletServerError.notFound("an active API user \(apiUser.id)")) {
                try await administration.revokeAPIUser(id: apiUser.id)
            }
        }
    }
}
