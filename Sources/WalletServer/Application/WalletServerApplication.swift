import Crypto
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Secrets
import ServiceLifecycle
import WalletServices
import WalletStore

/// Builds the provisioning server's HTTP application.
public enum WalletServerApplication {
    /// The routes: `GET /health` (liveness), `GET /ready` (readiness: `readiness`, by default the repository's pass
    /// types and the service's signing identities), `GET /metrics` (`metrics` in Prometheus text format),
    /// `POST /api/v2/in_app_provisioning/issuer_data` (each API token limited by `issuanceLimiter`),
    /// `POST /api/v2/in_app_provisioning/callback`, and share links' public `GET /wallet/pass/{token}`. Every request
    /// is counted in `metrics`, unless `exposesMetrics` is false: then there is neither `/metrics` nor a count per
    /// request (rate-limited requests are still counted). The Wallet Passes web service answers under `/passkit`
    /// (`PassWebService`), whether or not passes name it. The management API (`/api/v2/passes`) changes passes
    /// through `updater` (by default one over `repository` that wakes no push dispatcher). Per-address limits and
    /// `/ready`'s reasons go by `clientAddress`; `/ready` tells its reasons beyond this machine only to a caller with
    /// `operationsToken`. A pass registers on at most `maximumDevicesPerPass` devices. Webhook endpoints'
    /// secrets are kept in `webhookSecrets` (without it, `/api/v2/webhook_endpoints` answers 503); `http://` endpoints
    /// on this machine are accepted only with `allowsLoopbackWebhooks`. With `rateBuckets`, the per-address budgets of
    /// device registrations, device logs and callbacks, and each API user's budget of pass changes (`changeLimit`), are
    /// shared by every replica (give `issuanceLimiter` a shared store too).
    package static func makeRouter(
        repository: any WalletRepository, service: ProvisioningService, logger: Logger,
        issuanceLimiter: RateLimiter<UUID> = RateLimiter<UUID>(limit: .default),
        metrics: ServerMetrics = ServerMetrics(), exposesMetrics: Bool = true, readiness: ReadinessProbe? = nil,
        updater: PassUpdater? = nil, clientAddress: ClientAddress = ClientAddress(),
        maximumDevicesPerPass: Int = DeviceRegistrations.defaultMaximumDevices, operationsToken: String? = nil,
        webhookSecrets: (any SecretsDataStoring)? = nil, allowsLoopbackWebhooks: Bool = false,
        changeLimit: RateLimit = .passChanges, rateBuckets: (any RateBucketStore)? = nil,
        googleWallet: GoogleWalletRoutes? = nil, passChangeJobs: PassChangeJobs? = nil
    ) -> Router<WalletRequestContext> {
        let operations = OperationsController(
            metrics: metrics, exposesMetrics: exposesMetrics,
            readiness: readiness ?? ReadinessProbe(repository: repository, identities: service.identities),
            clientAddress: clientAddress, operationsToken: operationsToken)
        let provisioning = ProvisioningController(
            repository: repository, service: service, limiter: issuanceLimiter, metrics: metrics,
            clientAddress: clientAddress, rateBuckets: rateBuckets)
        let webService = PassWebServiceController(
            service: PassWebService(
                repository: repository, renderer: service.renderer, clock: service.clock, logger: logger,
                maximumDevices: maximumDevicesPerPass, trace: service.trace),
            clientAddress: clientAddress, rateBuckets: rateBuckets)
        let updater = updater ?? PassUpdater(store: repository, logger: logger, trace: service.trace)
        let management = PassManagement(repository: repository, updater: updater)
        let passChangeJobs = passChangeJobs ?? PassChangeJobs(store: repository, queued: updater.pushesQueued)
        let orderRenderer = OrderRenderer(
            identities: service.identities,
            tokens: service.renderer.webService?.tokens ?? PassAuthenticationTokens(key: SymmetricKey(size: .bits256)),
            webServiceURL: service.renderer.webService?.orderURL)
        let orderWebService = OrderWebServiceController(
            service: OrderWebService(
                repository: repository, renderer: orderRenderer, trace: service.trace,
                maximumDevices: maximumDevicesPerPass, clock: service.clock, logger: logger,
                rateBuckets: rateBuckets),
            passes: webService)
        let orderManagement = OrderManagement(
            repository: repository, renderer: orderRenderer, trace: service.trace,
            pushesQueued: updater.pushesQueued, clock: service.clock)
        let webLinks = WebLinkService(provisioning: service, repository: repository)
        let distribution = PassDistribution(
            repository: repository, renderer: service.renderer, publicBaseURL: { webLinks.publicBaseURL },
            clock: service.clock, trace: service.trace, logger: logger)

        let google = googleWallet?.services(
            repository: repository, publicBaseURL: { webLinks.publicBaseURL }, trace: service.trace,
            clock: service.clock, logger: logger)
        let managementController = ManagementController(
            apiTokens: repository, management: management, distribution: distribution,
            trace: PassTrace(
                repository: repository, webServiceURL: service.renderer.webService?.url, clock: service.clock),
            changeLimiter: RateLimiter<UUID>(
                limit: changeLimit, shared: rateBuckets.map { (name: "pass-changes", store: $0) }),
            googleLinks: google?.links)
        let googleWalletController = GoogleWalletController(repository: repository, callbacks: google?.callbacks)
        var webFlow = WebFlowController(
            repository: repository, service: service, limiter: issuanceLimiter, metrics: metrics,
            clientAddress: clientAddress)
        webFlow.googleLinks = google?.links
        let sharedPasses = SharedPassController(
            distribution: distribution, limiter: PublicLinkLimiter(clientAddress: clientAddress), metrics: metrics,
            googleLinks: google?.links)
        let webhookEndpoints = WebhookEndpointsController(
            endpoints: webhookSecrets.map {
                WebhookEndpoints(
                    repository: repository, secrets: $0, allowsLoopback: allowsLoopbackWebhooks, clock: service.clock,
                    logger: logger)
            }, repository: repository)
        let addRoutes = { (router: Router<WalletRequestContext>) in
            router.get("/health") { _, _ -> Response in
                Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
            }
            operations.addRoutes(to: router)
            provisioning.addRoutes(to: router.group("api/v2/in_app_provisioning"))
            webService.addRoutes(to: router.group(RouterPath(PassWebServiceController.mountPath)))
            webFlow.addRoutes(to: router)
            sharedPasses.addRoutes(to: router)
            managementController.addRoutes(to: router.group("api/v2/passes"))
            orderWebService.addRoutes(to: router.group(RouterPath(OrderWebServiceController.mountPath)))
            OrderManagementController(
                apiTokens: repository, management: orderManagement, trace: managementController.trace,
                changeLimiter: managementController.changeLimiter
            ).addRoutes(to: router.group(RouterPath(OrderManagementController.path)))
            managementController.addPassTypeRoutes(to: router.group(RouterPath(ManagementController.passTypesPath)))
            PassChangeJobsController(
                apiTokens: repository, jobs: passChangeJobs, changeLimiter: managementController.changeLimiter
            ).addRoutes(to: router)
            webhookEndpoints.addRoutes(to: router.group(RouterPath(WebhookEndpointsController.path)))
            googleWalletController.addRoutes(to: router)
        }
        // Middleware applies to the routes added after it, and two of them need the route table: it is read from
        // the same routes on a router of its own first.
        let table = Router(context: WalletRequestContext.self)
        addRoutes(table)
        let methods = Dictionary(grouping: table.routes) { $0.path.description }.mapValues { $0.map(\.method) }
        let router = Router(context: WalletRequestContext.self)
        if exposesMetrics {
            // First, so that it counts what the client gets, after the other middleware turned errors into answers.
            router.add(middleware: RequestMetricsMiddleware(table: metrics.requestTable(routes: methods.keys)))
        }
        router.add(middleware: RequestLogMiddleware(logger: logger))
        router.add(middleware: UnmatchedRequestMiddleware(methods: methods))
        addRoutes(router)
        return router
    }

    /// The application, listening on `host`:`port`, over a repository and service the caller owns, with each API
    /// token's issuances limited to `issuanceRateLimit`, connections idle for `idleTimeout` seconds closed, and
    /// requests counted in `metrics` (served at `GET /metrics` when `exposesMetrics`).
    package static func buildApplication(
        repository: any WalletRepository, service: ProvisioningService, host: String, port: Int,
        issuanceRateLimit: RateLimit = .default, idleTimeout: TimeInterval? = 30,
        metrics: ServerMetrics = ServerMetrics(), exposesMetrics: Bool = true,
        logger: Logger = Logger(label: "coffer.server")
    ) -> some ApplicationProtocol {
        Application(
            router: makeRouter(
                repository: repository, service: service, logger: logger,
                issuanceLimiter: RateLimiter<UUID>(limit: issuanceRateLimit), metrics: metrics,
                exposesMetrics: exposesMetrics),
            server: http1(idleTimeout: idleTimeout),
            configuration: .init(address: .hostname(host, port: port), serverName: "coffer"), logger: logger)
    }

    /// HTTP/1.1 that closes a connection after `idleTimeout` seconds without a request (or in the middle of one
    /// that stopped arriving), or never when `nil`.
    static func http1(idleTimeout: TimeInterval?) -> HTTPServerBuilder {
        .http1(
            configuration: .init(
                idleTimeout: idleTimeout.map { .nanoseconds(Int64(($0 * 1_000_000_000).rounded())) }))
    }

    /// The whole server from its configuration: opens (and migrates) its storage, makes the development pass type
    /// on first start when `WalletServerConfiguration/createsDevelopmentIdentity` is set, and closes the storage
    /// when the application shuts down gracefully. The abuse controls come from the configuration: each API token's
    /// issuances are limited (`WalletServerConfiguration/issuanceRateLimit`), idle connections are closed
    /// (`WalletServerConfiguration/idleTimeout`), and expired sessions are deleted in the background
    /// (`WalletServerConfiguration/sessionPurgeInterval`, by a `SessionPurger`). Requests, rate-limited
    /// issuances and expired sessions are counted in `metrics`, served at `GET /metrics` unless
    /// `WalletServerConfiguration/exposesMetrics` is off; `GET /ready` checks the database and every pass type's
    /// signing identity (`ReadinessProbe`).
    ///
    /// Run it with `try await application.runService()`, which stops on SIGINT and SIGTERM.
    public static func buildApplication(
        configuration: WalletServerConfiguration, metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "coffer.server")
    ) async throws -> some ApplicationProtocol {
        try configuration.validatePublicURL()
        try configuration.validateLimits()
        try configuration.apns.validate()
        let operationsToken = try configuration.operationsToken()
        let storage = try await WalletServerStorage.open(
            configuration: configuration, logger: logger, metrics: metrics.factory)
        do {
            if configuration.createsDevelopmentIdentity {
                _ = try await WalletAdministration(storage: storage, logger: logger).developmentPassType()
            }
        } catch {
            try? await storage.shutdown()
            throw error
        }
        // With port 0 the system picks the port; the callback URL (when not given) names the one it picked.
        let listening = Locked(configuration)
        let webService: PassRenderer.WebService?
        do {
            webService = try await passWebService(configuration: configuration, storage: storage, logger: logger)
        } catch {
            try? await storage.shutdown()
            throw error
        }
        // Whoever queues deliveries (the trace's webhooks, the updater's pushes) rings the one outbox the dispatcher
        // drains.
        let outbox = OutboxWakeUp()
        let trace = PassEventRecorder(
            store: storage.repository, devices: webService?.tokens, outbox: outbox, logger: logger)
        let service = ProvisioningService(
            repository: storage.repository, identities: storage.identities,
            relyingPartyIdentifier: configuration.relyingPartyIdentifier,
            callbackAddress: { listening.withLock { $0.callbackURL } },
            sessionLifetime: configuration.sessionLifetime, logger: logger, metrics: metrics, webService: webService,
            trace: trace)
        logger.info(
            "provisioning server configured",
            metadata: [
                "data_dir": "\(configuration.dataDirectory.path)", "database": "\(storage.database.engine.rawValue)",
            ])
        if configuration.exposesMetrics, !NetworkHost.isLoopback(configuration.host) {
            logger.notice(
                """
                GET /metrics is served on the same address as the API, beyond this machine: block it at the proxy, \
                or turn it off with --metrics off (COFFER_METRICS=off)
                """,
                metadata: ["host": "\(configuration.host)"])
        }
        // With PostgreSQL, replicas share one database: the limits that protect money and other clients count there.
        let rateBuckets: (any RateBucketStore)? = storage.database.engine == .postgres ? storage.repository : nil
        // Services stop in reverse order: the server, the push dispatcher, the trace's last events, the purger, then
        // the storage.
        var services: [any Service] = [StorageLifecycle(storage: storage)]
        if let interval = configuration.sessionPurgeInterval {
            services.append(
                SessionPurger(
                    repository: storage.repository,
                    interval: .nanoseconds(Int64((interval * 1_000_000_000).rounded())),
                    traceRetention: configuration.traceRetention, metrics: metrics, logger: logger))
        }
        services.append(
            CertificateWatch(
                repository: storage.repository, secrets: storage.secrets, identities: storage.identities,
                metrics: metrics, logger: logger))
        services.append(TraceFlusher(trace: trace))
        let passChangeJobs = PassChangeJobs(
            store: storage.repository, queued: outbox.ring, submitted: outbox.ringPassChangeJobs, logger: logger)
        services.append(PassChangeJobRunner(jobs: passChangeJobs, wakeUp: outbox, logger: logger))
        // The dispatcher closes its APNs connections when it stops.
        services.append(
            DeliveryDispatcher(
                storage: storage, apns: configuration.apns, googleWallet: configuration.googleWallet,
                publicURL: configuration.effectivePublicURL, metrics: metrics, trace: trace,
                allowsLoopbackWebhooks: configuration.allowsLoopbackWebhooks, wakeUp: outbox, logger: logger))
        return Application(
            router: makeRouter(
                repository: storage.repository, service: service, logger: logger,
                issuanceLimiter: RateLimiter<UUID>(
                    limit: configuration.issuanceRateLimit,
                    shared: rateBuckets.map { (name: "issuance", store: $0) }), metrics: metrics,
                exposesMetrics: configuration.exposesMetrics,
                readiness: ReadinessProbe(repository: storage.repository, identities: storage.identities),
                updater: PassUpdater(
                    store: storage.repository, logger: logger, trace: trace, pushesQueued: outbox.ring),
                clientAddress: ClientAddress(trustedProxies: configuration.trustedProxies, logger: logger),
                maximumDevicesPerPass: configuration.maximumDevicesPerPass, operationsToken: operationsToken,
                webhookSecrets: storage.secrets, allowsLoopbackWebhooks: configuration.allowsLoopbackWebhooks,
                changeLimit: configuration.changeRateLimit, rateBuckets: rateBuckets,
                googleWallet: GoogleWalletRoutes(
                    secrets: storage.secrets, configuration: configuration.googleWallet, queued: outbox.ring),
                passChangeJobs: passChangeJobs),
            server: http1(idleTimeout: configuration.idleTimeout),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "coffer"),
            services: services,
            onServerRunning: { channel in
                if let port = channel.localAddress?.port { listening.withLock { $0.port = port } }
                let callbackURL = listening.withLock { $0.callbackURL }
                logger.info("devices call back at this URL", metadata: ["callback_url": "\(callbackURL)"])
            }, logger: logger)
    }

    /// Where passes tell Wallet to fetch their updates (`<public URL>/passkit`; orders: `<public URL>/orders`), with
    /// the tokens that authenticate devices there; `nil`, with a notice, when the public URL is not https (Wallet registers only with https).
    static func passWebService(configuration: WalletServerConfiguration, storage: WalletServerStorage, logger: Logger)
        async throws -> PassRenderer.WebService?
    {
        guard configuration.effectivePublicURL.scheme?.lowercased() == "https" else {
            logger.notice(
                """
                passes carry no webServiceURL: the public URL is not https, and Wallet registers passes for updates \
                only with an https service (give --public-url https://…)
                """)
            return nil
        }
        func url(_ mountPath: String) -> String {
            configuration.effectivePublicURL.appendingPathComponent(String(mountPath.dropFirst())).absoluteString
        }
        let tokens = try await PassAuthenticationTokens.load(from: storage.secrets, lockingWith: storage.database)
        return try PassRenderer.WebService(
            url: url(PassWebServiceController.mountPath), tokens: tokens,
            orderURL: url(OrderWebServiceController.mountPath))
    }
}
