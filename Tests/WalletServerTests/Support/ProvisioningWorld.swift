import CofferTestSupport
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import Secrets
import WalletDocuments
import WalletPasses
import WalletServer
import WalletServices
import WalletStore

/// One server's worth of data: a client with an API user, a user, a pass type whose identity is in the secret
/// store, a tag and its pass.
struct ProvisioningWorld {
    static let learnMoreURL = "https://acme.example.com/wallet-binding"
    static let identity = try! DevelopmentIdentity.generate(
        passTypeIdentifier: "pass.dev.coffer.server", teamIdentifier: "DEVTEAM000")
    /// The pass type's NFC key: the renderer writes its public half into NFC passes.
    static let nfcKey = P256.KeyAgreement.PrivateKey()

    let directory: TemporaryDirectory
    let databaseURL: String
    let database: WalletDatabase
    let repository: SQLWalletRepository
    let apiUser: APIUser
    let tag: ClientTag
    let clock: ManualClock
    let service: ProvisioningService
    /// What the service's trace rings after it queues webhook deliveries: give it to a dispatcher.
    let outbox = OutboxWakeUp()

    /// The `webServiceURL` passes carry when the world has a web service.
    static let webServiceURL = "https://wallet.example.com/passkit"
    /// The `webServiceURL` orders carry in a world with a web service.
    static let orderWebServiceURL = "https://wallet.example.com/orders"
    /// The order type a world made with `orders` has, shared with its client (kind `order`).
    static let orderTypeIdentifier = "order.dev.coffer.server"
    /// Its identity (not Apple's), made once.
    static let orderIdentity = try! DevelopmentIdentity.generate(
        orderTypeIdentifier: orderTypeIdentifier, teamIdentifier: "DEVTEAM000")

    /// A world over `engine`; with `webService`, passes carry ``webServiceURL`` and tokens made under a random key,
    /// with `template`, the pass is made from it instead of the plain ticket, and with `orders` the client may make
    /// orders under ``orderTypeIdentifier``.
    init(engine: Engine, webService: Bool = false, template: PassPackage? = nil, orders: Bool = false) async throws {
        directory = try TemporaryDirectory()
        databaseURL = try await engine.makeDatabaseURL(in: directory)
        database = try await Engine.migrated(try WalletDatabase.open(url: databaseURL))
        repository = SQLWalletRepository(database: database)
        let secrets = AggregateSecretsStore(backend: InMemoryBackend())
        try Self.identity.signingIdentity.save(to: secrets, at: "wallet/pass-types/server")
        let client = try await repository.createClient(name: "Acme")
        apiUser = try await repository.createAPIUser(clientID: client.id, name: "app").apiUser
        let user = try await repository.createUser(clientID: client.id, externalReference: "jane@example.com")
        let passType = PassType(
            passTypeIdentifier: "pass.dev.coffer.server", teamIdentifier: "DEVTEAM000", organizationName: "Acme Events",
            signingKeyPath: "wallet/pass-types/server", bindingLearnMoreURL: Self.learnMoreURL,
            nfcPublicKey: Self.nfcKey.publicKey.derRepresentation.base64EncodedString())
        try await repository.createPassType(passType)
        try await repository.grantPassType(passTypeID: passType.id, clientID: client.id, now: Date())
        if orders {
            try Self.orderIdentity.signingIdentity.save(to: secrets, at: "wallet/pass-types/orders")
            let orderType = PassType(
                passTypeIdentifier: Self.orderTypeIdentifier, teamIdentifier: "DEVTEAM000",
                organizationName: "Acme Shop", signingKeyPath: "wallet/pass-types/orders", kind: .order)
            try await repository.createPassType(orderType)
            try await repository.grantPassType(passTypeID: orderType.id, clientID: client.id, now: Date())
        }
        tag = ClientTag(clientID: client.id, userID: user.id, referenceID: "PASS-001", prontoTagID: "9001")
        try await repository.createTag(tag)
        let pass = Pass(
            passTypeIdentifier: "pass.dev.coffer.server", teamIdentifier: "DEVTEAM000", serialNumber: "PASS-001",
            organizationName: "Acme Events", description: "Ticket", style: .eventTicket,
            fields: PassFields(primaryFields: [.text("event", "Launch", label: "EVENT")]))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        let package = try template ?? PassPackage(pass: pass, files: ["icon.png": png])
        try await repository.createPass(
            StoredPass(
                tagID: tag.id, passTypeID: passType.id, serialNumber: "PASS-001", passContent: try package.archived()))
        clock = ManualClock()
        let clock = clock
        let renderedWebService =
            webService
            ? try PassRenderer.WebService(
                url: Self.webServiceURL, tokens: PassAuthenticationTokens(key: SymmetricKey(size: .bits256)),
                orderURL: Self.orderWebServiceURL)
            : nil
        service = ProvisioningService(
            repository: repository, identities: SigningIdentityCache(store: secrets),
            relyingPartyIdentifier: "wallet.example.com",
            callbackURL: "https://wallet.example.com/api/v2/in_app_provisioning/callback", clock: clock,
            webService: renderedWebService,
            trace: PassEventRecorder(
                store: repository, devices: renderedWebService?.tokens, outbox: outbox, clock: clock))
    }

    /// Runs `body` with a fresh world over `engine`, shutting the world down afterwards, whether `body` throws or not.
    static func with<Result>(
        _ engine: Engine, webService: Bool = false, template: PassPackage? = nil, orders: Bool = false,
        _ body: (ProvisioningWorld) async throws -> Result
    ) async throws -> Result {
        let world = try await ProvisioningWorld(
            engine: engine, webService: webService, template: template, orders: orders)
        return try await world.database.whileOpen { _ in try await body(world) }
    }

    /// Runs `body` with a test client of the router `makeRouter` builds over a fresh world, and a new API token of
    /// the world's client (named `tokenName`), shutting the world down afterwards.
    static func withClient(
        _ engine: Engine, tokenName: String = "tests",
        _ body: @Sendable (any TestClientProtocol, ProvisioningWorld, String) async throws -> Void,
        router makeRouter: (ProvisioningWorld) -> Router<WalletRequestContext>
    ) async throws {
        try await with(engine) { world in
            let token = try await world.repository.createAPIUser(clientID: world.apiUser.clientID, name: tokenName)
                .token
            try await Application(router: makeRouter(world)).test(.router) { client in
                try await body(client, world, token)
            }
        }
    }
}
