import ArgumentParser
import Foundation
import Hummingbird
import Logging
import NIOCore
import WalletServer
import WalletServices
import WalletStore

/// `coffer serve`: the in-app provisioning server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Wallet pass server: provisioning, the PassKit web service, the web flow and management.",
        discussion: """
            With no configuration it listens on 127.0.0.1:8080, keeps a SQLite database and an encrypted secret \
            store in the data directory, and makes a development signing identity (not Apple's) on first start. \
            Options fall back to COFFER_HOST, COFFER_PORT, COFFER_PUBLIC_URL, COFFER_DATA_DIR, DATABASE_URL, \
            COFFER_ISSUANCE_RATE_LIMIT, COFFER_ISSUANCE_BURST, COFFER_IDLE_TIMEOUT, COFFER_SESSION_PURGE_INTERVAL, \
            COFFER_METRICS, COFFER_TRUSTED_PROXIES, COFFER_MAX_DEVICES_PER_PASS, COFFER_OPERATIONS_TOKEN_FILE, \
            COFFER_TRACE_RETENTION_DAYS, COFFER_ALLOW_LOOPBACK_WEBHOOKS, COFFER_LOG_FORMAT and COFFER_LOG_LEVEL. \
            GET /health says the process answers, GET /ready whether the database and every pass type's signing identity are usable (503 with \
            reasons otherwise, given only to this machine or a caller with the operations token), and \
            GET /metrics serves Prometheus metrics on the same address. SIGINT or SIGTERM stops it after the requests \
            in flight.
            """)

    @Option(help: "The address to listen on (default: $COFFER_HOST, else 127.0.0.1).") var host: String?
    @Option(help: "The port to listen on; 0 picks a free one (default: $COFFER_PORT, else 8080).") var port: Int?
    @Option(help: "The URL devices reach the server at; the callback URL derives from it (default: http://host:port).")
    var publicURL: String?
    @OptionGroup var server: ServerOptions
    @Option(help: "text or json (default: $COFFER_LOG_FORMAT, else text).") var logFormat: LogFormat?
    @Option(help: "trace, debug, info, notice, warning, error or critical (default: $COFFER_LOG_LEVEL, else info).")
    var logLevel: Logger.Level?
    @Flag(help: "Do not make the development signing identity; use this in production.")
    var noDevelopmentIdentity = false
    @Flag(
        help: """
            Allow a plain-http --public-url on a host other than this machine (only where a network you control \
            carries it).
            """)
    var insecurePublicURL = false
    @Option(
        help: """
            Issuer-data requests each API token may make a minute; more are answered 429 with Retry-After; 0 turns \
            the limit off (default: $COFFER_ISSUANCE_RATE_LIMIT, else 60).
            """)
    var issuanceRateLimit: Int?
    @Option(help: "Issuer-data requests each API token may make at once (default: $COFFER_ISSUANCE_BURST, else 20).")
    var issuanceBurst: Int?
    @Option(
        help: """
            Management requests that change or hand out passes each API token may make a minute; 0 turns the limit \
            off (default: $COFFER_CHANGE_RATE_LIMIT, else 600).
            """)
    var changeRateLimit: Int?
    @Option(help: "Such requests each API token may make at once (default: $COFFER_CHANGE_BURST, else 100).")
    var changeBurst: Int?
    @Option(
        help: """
            Seconds after which a connection that sends nothing is closed; 0 keeps idle connections open \
            (default: $COFFER_IDLE_TIMEOUT, else 30).
            """)
    var idleTimeout: String?
    @Option(
        help: """
            Seconds between sweeps that delete expired provisioning sessions; 0 turns them off \
            (default: $COFFER_SESSION_PURGE_INTERVAL, else 60).
            """)
    var sessionPurgeInterval: String?
    @Option(
        help: """
            on or off: serve Prometheus metrics at GET /metrics, on the API's own address; keep it on loopback or \
            block /metrics at the proxy when the server listens beyond this machine (default: $COFFER_METRICS, else on).
            """)
    var metrics: String?
    @Option(
        help: """
            A proxy (IP address) whose X-Forwarded-For says who sent a request, for the per-address limits and GET \
            /ready; repeat for several, or give none to believe no one (default: $COFFER_TRUSTED_PROXIES, else \
            127.0.0.1 and ::1).
            """)
    var trustedProxy: [String] = []
    @Option(help: "How many devices may register for one pass (default: $COFFER_MAX_DEVICES_PER_PASS, else 20).")
    var maxDevicesPerPass: Int?
    @Option(
        help: """
            Days to keep each pass's trace (coffer admin pass trace, GET /api/v2/passes/{tag_id}/events), 1 to 366 \
            (default: $COFFER_TRACE_RETENTION_DAYS, else 30).
            """)
    var traceRetentionDays: String?
    @Flag(
        help: """
            Accept webhook endpoints at http:// URLs on this machine, for local development; never in production, \
            where any API user could make the server post to this machine's services \
            (default: $COFFER_ALLOW_LOOPBACK_WEBHOOKS=1).
            """)
    var allowLoopbackWebhooks = false
    @Option(
        help: """
            A file whose first line is a token (16+ characters) that lets a caller beyond this machine read GET \
            /ready's reasons with Authorization: Bearer (default: $COFFER_OPERATIONS_TOKEN_FILE).
            """)
    var operationsTokenFile: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let format = try logFormat ?? LogFormat.parse(environment["COFFER_LOG_FORMAT"], from: "COFFER_LOG_FORMAT")
        let level = try logLevel ?? Logger.Level.parse(environment["COFFER_LOG_LEVEL"], from: "COFFER_LOG_LEVEL")
        format.bootstrap(level: level, to: .standardOutput)

        var configuration = try server.configuration()
        if let host { configuration.host = host }
        if let port {
            configuration.port = try CommandFailure.mapping {
                try WalletServerConfiguration.port(String(port), from: "--port")
            }
        }
        if let publicURL {
            configuration.publicURL = try CommandFailure.mapping {
                try WalletServerConfiguration.publicURL(publicURL, from: "--public-url")
            }
        }
        if noDevelopmentIdentity { configuration.createsDevelopmentIdentity = false }
        if insecurePublicURL { configuration.allowsInsecurePublicURL = true }
        try applyAbuseControls(to: &configuration)
        if let metrics {
            configuration.exposesMetrics = try CommandFailure.mapping {
                try WalletServerConfiguration.switchValue(metrics, from: "--metrics")
            }
        }
        let frozen = configuration
        // One registry for the server and for whatever in the process uses swift-metrics' global API.
        let serverMetrics = ServerMetrics()
        serverMetrics.bootstrapMetricsSystem()
        let application = try await CommandFailure.mapping {
            try await WalletServerApplication.buildApplication(
                configuration: frozen, metrics: serverMetrics, logger: Logger(label: "coffer.server"))
        }
        do {
            try await application.runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw CommandFailure(
                "cannot listen on \(frozen.host):\(frozen.port): the address is in use (another server?); choose "
                    + "another with --port", status: .failure)
        }
    }

    /// Applies the rate limits, device cap, trusted proxies, operations token, idle timeout and purge interval
    /// options to `configuration`.
    func applyAbuseControls(to configuration: inout WalletServerConfiguration) throws {
        try CommandFailure.mapping {
            if let issuanceRateLimit {
                configuration.issuanceRateLimit.perMinute = try WalletServerConfiguration.count(
                    String(issuanceRateLimit), from: "--issuance-rate-limit")
            }
            if let issuanceBurst {
                configuration.issuanceRateLimit.burst = try WalletServerConfiguration.count(
                    String(issuanceBurst), from: "--issuance-burst")
            }
            if let changeRateLimit {
                configuration.changeRateLimit.perMinute = try WalletServerConfiguration.count(
                    String(changeRateLimit), from: "--change-rate-limit")
            }
            if let changeBurst {
                configuration.changeRateLimit.burst = try WalletServerConfiguration.count(
                    String(changeBurst), from: "--change-burst")
            }
            if let idleTimeout {
                configuration.idleTimeout = try WalletServerConfiguration.seconds(idleTimeout, from: "--idle-timeout")
            }
            if !trustedProxy.isEmpty {
                configuration.trustedProxies = try WalletServerConfiguration.trustedProxies(
                    trustedProxy.joined(separator: ","), from: "--trusted-proxy")
            }
            if let maxDevicesPerPass {
                configuration.maximumDevicesPerPass = try WalletServerConfiguration.count(
                    String(maxDevicesPerPass), from: "--max-devices-per-pass")
            }
            if let operationsTokenFile {
                configuration.operationsTokenFile = StoreOptions.absoluteURL(operationsTokenFile)
            }
            if let sessionPurgeInterval {
                configuration.sessionPurgeInterval = try WalletServerConfiguration.seconds(
                    sessionPurgeInterval, from: "--session-purge-interval")
            }
            if allowLoopbackWebhooks { configuration.allowsLoopbackWebhooks = true }
            if let traceRetentionDays {
                configuration.traceRetention = try WalletServerConfiguration.traceRetention(
                    traceRetentionDays, from: "--trace-retention-days")
            }
            try configuration.validateLimits()
        }
    }
}
