import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers

/// Builds the provisioning server's HTTP application.
public enum WalletServerApplication {
    /// The routes: `GET /health`, `POST /api/v2/in_app_provisioning/issuer_data`,
    /// `POST /api/v2/in_app_provisioning/callback`.
    public static func makeRouter(
        repository: any WalletRepository, service: ProvisioningService, logger: Logger
    ) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestLogMiddleware(logger: logger))
        router.add(
            middleware: UnmatchedRequestMiddleware(
                methods: ["/health": [.get]].merging(
                    ProvisioningController.methods(under: "/api/v2/in_app_provisioning")
                ) { $0 + $1 }))
        router.get("/health") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
        }
        ProvisioningController(repository: repository, service: service)
            .addRoutes(to: router.group("api/v2/in_app_provisioning"))
        return router
    }

    /// The application, listening on `host`:`port`, over a repository and service the caller owns.
    public static func buildApplication(
        repository: any WalletRepository, service: ProvisioningService, host: String, port: Int,
        logger: Logger = Logger(label: "coffer.server")
    ) -> some ApplicationProtocol {
        Application(
            router: makeRouter(repository: repository, service: service, logger: logger),
            configuration: .init(address: .hostname(host, port: port), serverName: "coffer"), logger: logger)
    }

    /// The whole server from its configuration: opens (and migrates) its storage, makes the development pass type
    /// on first start when ``WalletServerConfiguration/createsDevelopmentIdentity`` is set, and closes the storage
    /// when the application shuts down gracefully.
    ///
    /// Run it with `try await application.runService()`, which stops on SIGINT and SIGTERM.
    public static func buildApplication(
        configuration: WalletServerConfiguration, logger: Logger = Logger(label: "coffer.server")
    ) async throws -> some ApplicationProtocol {
        try configuration.validatePublicURL()
        let storage = try await WalletServerStorage.open(configuration: configuration, logger: logger)
        do {
            if configuration.createsDevelopmentIdentity {
                _ = try await WalletAdministration(storage: storage, logger: logger).developmentPassType()
            }
        } catch {
            try? await storage.shutdown()
            throw error
        }
        // With port 0 the system picks the port; the callback URL (when not given) names the one it picked.
        let listening = NIOLockedValueBox(configuration)
        let service = ProvisioningService(
            repository: storage.repository, identities: storage.identities,
            relyingPartyIdentifier: configuration.relyingPartyIdentifier,
            callbackAddress: { listening.withLockedValue { $0.callbackURL } },
            sessionLifetime: configuration.sessionLifetime, logger: logger)
        logger.info(
            "provisioning server configured",
            metadata: [
                "data_dir": "\(configuration.dataDirectory.path)", "database": "\(storage.database.engine.rawValue)",
            ])
        return Application(
            router: makeRouter(repository: storage.repository, service: service, logger: logger),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "coffer"),
            services: [StorageLifecycle(storage: storage)],
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { listening.withLockedValue { $0.port = port } }
                let callbackURL = listening.withLockedValue { $0.callbackURL }
                logger.info("devices call back at this URL", metadata: ["callback_url": "\(callbackURL)"])
            }, logger: logger)
    }
}
