import Foundation
import Secrets
import SecretsAudit

/// Everything a provisioning server needs to start: where it listens, where its data lives, and what unlocks the
/// secret store that holds the signing keys.
///
/// The defaults make a zero-configuration start work: 127.0.0.1:8080, a SQLite file and an encrypted secret store
/// in ``dataDirectory``, unlocked by a key file the first start creates there. ``init(environment:)`` reads the
/// same settings from environment variables (``Variable``).
public struct WalletServerConfiguration: Sendable {
    /// What unlocks the secret store that holds the pass types' signing keys.
    public enum SecretStoreKey: Sendable {
        /// A passphrase (`COFFER_PASSPHRASE`), as `coffer secrets` uses.
        case passphrase(Passphrase)
        /// A key file of 32 or more random bytes (`COFFER_KEY_FILE`).
        case keyFile(URL)
        /// The key file ``WalletServerConfiguration/keyFileURL`` in the data directory, created (mode 0600) when
        /// neither it nor the store exists yet.
        case automatic
    }

    /// The environment variables ``init(environment:)`` reads.
    public enum Variable {
        /// The address to listen on (default `127.0.0.1`).
        public static let host = "COFFER_HOST"
        /// The port to listen on (default `8080`; `0` picks a free one).
        public static let port = "COFFER_PORT"
        /// The data directory (default `$XDG_DATA_HOME/coffer/server`).
        public static let dataDirectory = "COFFER_DATA_DIR"
        /// The database: `sqlite:///path`, `sqlite::memory:` or `postgres://…` (default: SQLite in the data
        /// directory).
        public static let databaseURL = "DATABASE_URL"
        /// The URL devices reach the server at; the callback URL and relying party derive from it.
        public static let publicURL = "COFFER_PUBLIC_URL"
        /// The secret store's passphrase.
        public static let passphrase = "COFFER_PASSPHRASE"
        /// A key file that unlocks the secret store instead of a passphrase.
        public static let keyFile = "COFFER_KEY_FILE"
        /// `1` allows a public URL that is plain http on a host other than this machine (for a TLS proxy that
        /// talks http to devices' networks you control; never on the internet).
        public static let insecurePublicURL = "COFFER_INSECURE_PUBLIC_URL"
        /// The issuer-data requests each API token may make a minute; `0` turns the limit off (default `60`).
        public static let issuanceRateLimit = "COFFER_ISSUANCE_RATE_LIMIT"
        /// The issuer-data requests each API token may make at once after a quiet spell (default `20`).
        public static let issuanceBurst = "COFFER_ISSUANCE_BURST"
        /// The management requests that change or hand out passes each API token may make a minute; `0` turns the
        /// limit off (default `600`).
        public static let changeRateLimit = "COFFER_CHANGE_RATE_LIMIT"
        /// The management requests that change or hand out passes each API token may make at once (default `100`).
        public static let changeBurst = "COFFER_CHANGE_BURST"
        /// Seconds after which a connection that sends nothing is closed; `0` keeps idle connections open
        /// (default `30`).
        public static let idleTimeout = "COFFER_IDLE_TIMEOUT"
        /// Seconds between sweeps that delete expired provisioning sessions; `0` turns them off (default `60`).
        public static let sessionPurgeInterval = "COFFER_SESSION_PURGE_INTERVAL"
        /// `on` or `off` (also `1`/`0`, `true`/`false`): whether `GET /metrics` is served, on the API's own address
        /// (default `on`).
        public static let metrics = "COFFER_METRICS"
        /// The tamper-evident file that records every access to the secret store (``secretsAuditFile``).
        public static let auditFile = "COFFER_AUDIT_FILE"
        /// The proxies whose `X-Forwarded-For` is believed, comma-separated IP addresses, or `none`
        /// (default `127.0.0.1,::1`).
        public static let trustedProxies = "COFFER_TRUSTED_PROXIES"
        /// How many devices may register for one pass (default `20`).
        public static let maximumDevicesPerPass = "COFFER_MAX_DEVICES_PER_PASS"
        /// A file whose first line is the token that lets a caller beyond this machine read `GET /ready`'s reasons.
        public static let operationsTokenFile = "COFFER_OPERATIONS_TOKEN_FILE"
        /// Days passes' trace events are kept, 1 to 366 (default `30`).
        public static let traceRetentionDays = "COFFER_TRACE_RETENTION_DAYS"
        /// `1` accepts webhook endpoints at `http://` URLs on this machine (tests and local development; never in
        /// production, where any API user could then make the server post to this machine's services).
        public static let allowLoopbackWebhooks = "COFFER_ALLOW_LOOPBACK_WEBHOOKS"
        /// A stand-in for Google Wallet's endpoints (`GoogleWalletConfiguration/standIn(at:)`): tests and local
        /// development only; Google's own by default.
        public static let googleWalletStandIn = "COFFER_GOOGLE_WALLET_STAND_IN"
    }

    /// How long passes' trace events are kept unless configured: 30 days.
    public static let defaultTraceRetention: TimeInterval = 30 * 86_400
    /// The shortest and longest trace retention accepted, in days.
    public static let traceRetentionDays: ClosedRange<Int> = 1...366

    /// The address to listen on.
    public var host: String
    /// The port to listen on; `0` asks the system for a free one.
    public var port: Int
    /// The directory that holds the SQLite database, the secret store and its key file.
    public var dataDirectory: URL
    /// The database URL; `nil` means the SQLite file ``defaultDatabaseURL``.
    public var databaseURL: String?
    /// The URL devices reach the server at (behind a proxy, the proxy's); `nil` means `http://host:port`.
    public var publicURL: URL?
    /// What unlocks the secret store.
    public var secretStoreKey: SecretStoreKey
    /// Whether the server makes a development signing identity (not Apple's) on its first start, so that the API
    /// answers before any real pass type is imported.
    public var createsDevelopmentIdentity: Bool
    /// How long a provisioning session is accepted after its issuer data was made.
    public var sessionLifetime: TimeInterval
    /// Whether a public URL may be plain http on a host other than this machine (``validatePublicURL()``).
    public var allowsInsecurePublicURL = false
    /// How many issuer-data requests each API token may make (``RateLimit/default``: 60 a minute, 20 at
    /// once); more are answered `429` with `Retry-After`.
    public var issuanceRateLimit: RateLimit
    /// How many management requests that change or hand out passes each API token may make
    /// (``RateLimit/passChanges``: 600 a minute, 100 at once); more are answered `429` with `Retry-After`.
    public var changeRateLimit: RateLimit = .passChanges
    /// Seconds after which a connection that has sent nothing (no request, or an unfinished one) is closed; `nil`
    /// keeps idle connections open.
    public var idleTimeout: TimeInterval?
    /// Seconds between the background sweeps that delete expired provisioning sessions; `nil` turns them off.
    public var sessionPurgeInterval: TimeInterval?
    /// Whether `GET /metrics` (Prometheus text format) is served. It is served on the API's own address and port: the
    /// default host, 127.0.0.1, keeps it on this machine; a server listening beyond it should block `/metrics` at its
    /// proxy or turn it off (which also stops counting each request). The metrics carry counts and latencies by
    /// route and status, never paths, tokens, session identifiers or tags.
    public var exposesMetrics: Bool
    /// How pass update pushes reach APNs (``APNsConfiguration``: the production gateway, each pass type's certificate,
    /// by default); read from `COFFER_APNS_*` (``apns(keyFile:keyID:teamID:environment:names:)``).
    public var apns = APNsConfiguration()
    /// How pass types with a Google Wallet issuer reach Google (``GoogleWalletConfiguration``: Google's own
    /// endpoints by default).
    public var googleWallet = GoogleWalletConfiguration()
    /// Where every access to the secret store (a signing key read, an import) is also recorded in a tamper-evident
    /// file (`Secrets/AuditFileSink`, its key kept in the store): `COFFER_AUDIT_FILE`, none by default. Accesses
    /// are always counted in the metrics and logged at `debug` (failures at `warning`).
    public var secretsAuditFile: URL?
    /// The proxies (IP addresses) whose `X-Forwarded-For` tells who sent a request, for the per-address limits and
    /// `GET /ready`: this machine by default (``defaultTrustedProxies``). Any other client's
    /// `X-Forwarded-For` is ignored.
    public var trustedProxies = Self.defaultTrustedProxies
    /// The proxies trusted by default: this machine (a TLS proxy beside the server).
    public static let defaultTrustedProxies: Set<String> = ["127.0.0.1", "::1"]
    /// How many devices may register for one pass (``PassWebService/defaultMaximumDevicesPerPass``); a registration
    /// beyond it is answered `403` and stores nothing.
    public var maximumDevicesPerPass = DeviceRegistrations.defaultMaximumDevices
    /// A file whose first line is the operations token: a caller beyond this machine that sends it as
    /// `Authorization: Bearer <token>` gets `GET /ready`'s reasons; without it such a caller gets only the status.
    public var operationsTokenFile: URL?
    /// How long passes' trace events (``PassTrace``) are kept: ``defaultTraceRetention``, 1 to 366 days; older ones
    /// are deleted in batches by the purger's sweeps.
    public var traceRetention = Self.defaultTraceRetention
    /// Whether webhook endpoints may be `http://` URLs on this machine (``Variable/allowLoopbackWebhooks``); off by
    /// default, when endpoints must be https on a public host.
    public var allowsLoopbackWebhooks = false

    /// Creates a configuration; every argument has the zero-configuration default.
    public init(
        host: String = "127.0.0.1", port: Int = 8080,
        dataDirectory: URL = SecretsConfiguration.dataDirectory(named: "server"), databaseURL: String? = nil,
        publicURL: URL? = nil, secretStoreKey: SecretStoreKey = .automatic, createsDevelopmentIdentity: Bool = true,
        sessionLifetime: TimeInterval = 300, issuanceRateLimit: RateLimit = .default,
        idleTimeout: TimeInterval? = 30, sessionPurgeInterval: TimeInterval? = 60, exposesMetrics: Bool = true
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
        self.publicURL = publicURL
        self.secretStoreKey = secretStoreKey
        self.createsDevelopmentIdentity = createsDevelopmentIdentity
        self.sessionLifetime = sessionLifetime
        self.issuanceRateLimit = issuanceRateLimit
        self.idleTimeout = idleTimeout
        self.sessionPurgeInterval = sessionPurgeInterval
        self.exposesMetrics = exposesMetrics
    }

    /// Reads the configuration from environment variables (``Variable``); unset ones keep their defaults.
    ///
    /// - Throws: ``WalletServerError/invalidConfiguration(_:)`` naming the variable whose value is unusable.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        func value(_ name: String) -> String? { EnvironmentValue.named(name, in: environment) }
        self.init(dataDirectory: SecretsConfiguration.dataDirectory(named: "server", environment: environment))
        if let host = value(Variable.host) { self.host = host }
        if let port = value(Variable.port) { self.port = try Self.port(port, from: Variable.port) }
        if let directory = value(Variable.dataDirectory) {
            dataDirectory = try Self.absolutePath(directory, from: Variable.dataDirectory)
        }
        databaseURL = value(Variable.databaseURL)
        if let url = value(Variable.publicURL) { publicURL = try Self.publicURL(url, from: Variable.publicURL) }
        allowsInsecurePublicURL = value(Variable.insecurePublicURL) == "1"
        if let keyFile = value(Variable.keyFile) {
            secretStoreKey = .keyFile(try Self.absolutePath(keyFile, from: Variable.keyFile))
        } else if let passphrase = environment[Variable.passphrase], !passphrase.isEmpty {
            secretStoreKey = .passphrase(Passphrase(passphrase))
        }
        if let limit = value(Variable.issuanceRateLimit) {
            issuanceRateLimit.perMinute = try Self.count(limit, from: Variable.issuanceRateLimit)
        }
        if let burst = value(Variable.issuanceBurst) {
            issuanceRateLimit.burst = try Self.count(burst, from: Variable.issuanceBurst)
        }
        try issuanceRateLimit.validate()
        if let limit = value(Variable.changeRateLimit) {
            changeRateLimit.perMinute = try Self.count(limit, from: Variable.changeRateLimit)
        }
        if let burst = value(Variable.changeBurst) {
            changeRateLimit.burst = try Self.count(burst, from: Variable.changeBurst)
        }
        try changeRateLimit.validateAsChangeLimit()
        if let timeout = value(Variable.idleTimeout) {
            idleTimeout = try Self.seconds(timeout, from: Variable.idleTimeout)
        }
        if let interval = value(Variable.sessionPurgeInterval) {
            sessionPurgeInterval = try Self.seconds(interval, from: Variable.sessionPurgeInterval)
        }
        if let metrics = value(Variable.metrics) {
            exposesMetrics = try Self.switchValue(metrics, from: Variable.metrics)
        }
        apns = try Self.apns(environment: environment)
        if let file = value(Variable.auditFile) {
            secretsAuditFile = try Self.absolutePath(file, from: Variable.auditFile)
        }
        if let proxies = value(Variable.trustedProxies) {
            trustedProxies = try Self.trustedProxies(proxies, from: Variable.trustedProxies)
        }
        if let devices = value(Variable.maximumDevicesPerPass) {
            maximumDevicesPerPass = try Self.count(devices, from: Variable.maximumDevicesPerPass)
        }
        if let file = value(Variable.operationsTokenFile) {
            operationsTokenFile = try Self.absolutePath(file, from: Variable.operationsTokenFile)
        }
        allowsLoopbackWebhooks = value(Variable.allowLoopbackWebhooks) == "1"
        if let base = value(Variable.googleWalletStandIn) {
            guard let url = URL(string: base), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https"
            else {
                throw WalletServerError.invalidConfiguration("\(Variable.googleWalletStandIn) must be an http(s) URL")
            }
            googleWallet = .standIn(at: url)
        }
        if let days = value(Variable.traceRetentionDays) {
            traceRetention = try Self.traceRetention(days, from: Variable.traceRetentionDays)
        }
    }

    /// Parses a whole number of days in ``traceRetentionDays`` as a retention, naming `source` when it is not one.
    public static func traceRetention(_ text: String, from source: String) throws -> TimeInterval {
        guard let days = Int(text.trimmingCharacters(in: .whitespaces)), traceRetentionDays.contains(days) else {
            throw WalletServerError.invalidConfiguration(
                "\(source) must be a whole number of days from \(traceRetentionDays.lowerBound) to "
                    + "\(traceRetentionDays.upperBound)")
        }
        return TimeInterval(days) * 86_400
    }

    /// Parses comma-separated IP addresses (or `none`), naming `source` when one is not an address.
    public static func trustedProxies(_ text: String, from source: String) throws -> Set<String> {
        guard text.lowercased() != "none" else { return [] }
        var proxies: Set<String> = []
        for entry in text.split(separator: ",") {
            let address = entry.trimmingCharacters(in: .whitespaces)
            var v4 = in_addr()
            var v6 = in6_addr()
            guard inet_pton(AF_INET, address, &v4) == 1 || inet_pton(AF_INET6, address, &v6) == 1 else {
                throw WalletServerError.invalidConfiguration(
                    "\(source) must be IP addresses separated by commas, or none ('\(address.prefix(64))' is not one)")
            }
            proxies.insert(address)
        }
        return proxies
    }

    /// The operations token from ``operationsTokenFile``'s first line, if a file is set.
    ///
    /// - Throws: ``WalletServerError/invalidConfiguration(_:)`` when the file cannot be read or its token is shorter
    ///   than 16 characters.
    public func operationsToken() throws -> String? {
        guard let operationsTokenFile else { return nil }
        guard let data = FileManager.default.contents(atPath: operationsTokenFile.path),
            let token = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first?
                .trimmingCharacters(in: .whitespaces),
            token.count >= 16
        else {
            throw WalletServerError.invalidConfiguration(
                "the operations token file \(operationsTokenFile.path) must be readable and start with a token of 16 "
                    + "or more characters")
        }
        return token
    }

    /// The SQLite database in the data directory.
    public var defaultDatabaseURL: String { Self.sqliteURL(in: dataDirectory) }

    /// The URL of the server's SQLite file in `directory`.
    public static func sqliteURL(in directory: URL) -> String {
        "sqlite://" + directory.appendingPathComponent("coffer-wallet.sqlite").path
    }
    /// The database the server opens.
    public var effectiveDatabaseURL: String { databaseURL ?? defaultDatabaseURL }
    /// The directory of the encrypted secret store.
    public var secretStoreDirectory: URL { dataDirectory.appendingPathComponent("secrets", isDirectory: true) }
    /// The key file ``SecretStoreKey/automatic`` uses.
    public var keyFileURL: URL { dataDirectory.appendingPathComponent("secrets.key") }
    /// Where the development root certificate is written, for `openssl cms -verify -CAfile` and
    /// `coffer pass verify --root`.
    public var developmentRootURL: URL { dataDirectory.appendingPathComponent("development-root.pem") }

    /// The URL devices reach the server at.
    public var effectivePublicURL: URL {
        if let publicURL { return publicURL }
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return URL(string: "http://\(host):\(port)")!
    }

    /// Checks that devices reach the server over https: the public URL (given, or `http://host:port`) must be https
    /// unless its host is this machine (`localhost`, `127.0.0.0/8`, `::1`) or ``allowsInsecurePublicURL`` is set.
    /// Devices send the binding through it, and API clients their tokens.
    ///
    /// A server that listens beyond this machine with a plain-http public URL serves plain HTTP to the network, and
    /// is refused the same way.
    ///
    /// - Throws: ``WalletServerError/invalidConfiguration(_:)`` saying what to set.
    public func validatePublicURL() throws {
        let url = effectivePublicURL
        guard url.scheme?.lowercased() != "https", !allowsInsecurePublicURL else { return }
        if !NetworkHost.isLoopback(url.host ?? "") {
            throw WalletServerError.invalidConfiguration(
                "the public URL \(url.absoluteString) is plain http on a host other than this machine: devices would "
                    + "send bindings and clients their tokens in the clear; give an https --public-url "
                    + "(COFFER_PUBLIC_URL), or --insecure-public-url (COFFER_INSECURE_PUBLIC_URL=1) if a network you "
                    + "control carries it")
        }
        if !NetworkHost.isLoopback(host) {
            throw WalletServerError.invalidConfiguration(
                "the server would listen on \(host), beyond this machine, with the plain-http public URL "
                    + "\(url.absoluteString): put a TLS proxy in front and give its https --public-url, listen on "
                    + "127.0.0.1, or give --insecure-public-url (COFFER_INSECURE_PUBLIC_URL=1) if a network you control "
                    + "carries it")
        }
    }

    /// Checks the abuse controls: a usable ``issuanceRateLimit``, and an ``idleTimeout`` and
    /// ``sessionPurgeInterval`` that are positive when set.
    ///
    /// - Throws: ``WalletServerError/invalidConfiguration(_:)`` naming the setting.
    public func validateLimits() throws {
        try issuanceRateLimit.validate()
        try changeRateLimit.validateAsChangeLimit()
        guard maximumDevicesPerPass >= 1 else {
            throw WalletServerError.invalidConfiguration(
                "\(Variable.maximumDevicesPerPass) (--max-devices-per-pass) must be at least 1")
        }
        for (value, variable) in [
            (idleTimeout, Variable.idleTimeout), (sessionPurgeInterval, Variable.sessionPurgeInterval),
        ]
        where value.map({ !($0 > 0 && $0 <= Self.longestInterval) }) ?? false {
            throw WalletServerError.invalidConfiguration(
                "\(variable) must be a number of seconds from 0 (off) to \(Int(Self.longestInterval))")
        }
    }

    /// The longest idle timeout or purge interval accepted: a day.
    static let longestInterval: TimeInterval = 86_400

    /// The callback URL put in issuer data.
    public var callbackURL: String {
        effectivePublicURL.appendingPathComponent("api/v2/in_app_provisioning/callback").absoluteString
    }

    /// The relying party identifier put in `fidoProfile`: the public URL's host.
    public var relyingPartyIdentifier: String { effectivePublicURL.host ?? host }

    /// Parses a port number, naming `source` when it is not one.
    public static func port(_ text: String, from source: String) throws -> Int {
        guard let port = Int(text), (0...65_535).contains(port) else {
            throw WalletServerError.invalidConfiguration("\(source) must be a port number from 0 to 65535")
        }
        return port
    }

    /// Parses a whole number from 0 up, naming `source` when it is not one.
    public static func count(_ text: String, from source: String) throws -> Int {
        guard let count = Int(text), count >= 0, count <= 1_000_000_000 else {
            throw WalletServerError.invalidConfiguration("\(source) must be a whole number from 0")
        }
        return count
    }

    /// Parses a number of seconds (fractions allowed, at most a day); `0` means off and gives `nil`. Names `source`
    /// when the text is not such a number.
    public static func seconds(_ text: String, from source: String) throws -> TimeInterval? {
        guard let seconds = TimeInterval(text), seconds.isFinite, (0...longestInterval).contains(seconds) else {
            throw WalletServerError.invalidConfiguration(
                "\(source) must be a number of seconds from 0 (off) to \(Int(longestInterval))")
        }
        return seconds == 0 ? nil : seconds
    }

    /// Parses an on/off setting: `on`, `1`, `true`, `yes` or `off`, `0`, `false`, `no` (any case). Names `source` when
    /// the text is none of these.
    public static func switchValue(_ text: String, from source: String) throws -> Bool {
        switch text.lowercased() {
        case "on", "1", "true", "yes": return true
        case "off", "0", "false", "no": return false
        default: throw WalletServerError.invalidConfiguration("\(source) must be on or off")
        }
    }

    /// Parses a public URL, naming `source` when it is not an http(s) URL with a host.
    public static func publicURL(_ text: String, from source: String) throws -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            let host = url.host, !host.isEmpty
        else { throw WalletServerError.invalidConfiguration("\(source) must be an http(s) URL with a host") }
        return url
    }

    private static func absolutePath(_ path: String, from source: String) throws -> URL {
        guard !path.contains("\u{0}") else {
            throw WalletServerError.invalidConfiguration("\(source) is not a usable path")
        }
        let base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        return URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
    }
}

extension WalletServerConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The settings, with the database password `<redacted>` (the passphrase prints redacted on its own).
    public var description: String {
        "WalletServerConfiguration(host: \(host), port: \(port), dataDirectory: \(dataDirectory.path), "
            + "databaseURL: \(databaseURL.map(Self.redactingPassword) ?? "nil"), "
            + "publicURL: \(publicURL?.absoluteString ?? "nil"), secretStoreKey: \(secretStoreKey), "
            + "createsDevelopmentIdentity: \(createsDevelopmentIdentity), sessionLifetime: \(sessionLifetime), "
            + "allowsInsecurePublicURL: \(allowsInsecurePublicURL), issuanceRateLimit: \(issuanceRateLimit.perMinute)/min "
            + "burst \(issuanceRateLimit.burst), changeRateLimit: \(changeRateLimit.perMinute)/min "
            + "burst \(changeRateLimit.burst), idleTimeout: \(idleTimeout.map { "\($0)" } ?? "nil"), "
            + "sessionPurgeInterval: \(sessionPurgeInterval.map { "\($0)" } ?? "nil"), "
            + "exposesMetrics: \(exposesMetrics), secretsAuditFile: \(secretsAuditFile?.path ?? "nil"), "
            + "trustedProxies: \(trustedProxies.sorted()), maximumDevicesPerPass: \(maximumDevicesPerPass), "
            + "operationsTokenFile: \(operationsTokenFile?.path ?? "nil"))"
    }

    /// The same text as ``description``.
    public var debugDescription: String { description }

    /// What `dump` and debuggers show: the settings, with the database password `<redacted>`.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "host": host, "port": port, "dataDirectory": dataDirectory,
                "databaseURL": databaseURL.map(Self.redactingPassword) as Any, "publicURL": publicURL as Any,
                "secretStoreKey": secretStoreKey, "createsDevelopmentIdentity": createsDevelopmentIdentity,
                "sessionLifetime": sessionLifetime, "allowsInsecurePublicURL": allowsInsecurePublicURL,
                "issuanceRateLimit": issuanceRateLimit, "changeRateLimit": changeRateLimit,
                "idleTimeout": idleTimeout as Any,
                "sessionPurgeInterval": sessionPurgeInterval as Any, "exposesMetrics": exposesMetrics,
                "secretsAuditFile": secretsAuditFile as Any, "trustedProxies": trustedProxies.sorted(),
                "maximumDevicesPerPass": maximumDevicesPerPass, "operationsTokenFile": operationsTokenFile as Any,
            ])
    }

    /// `url` with the password of its user information replaced by `<redacted>`.
    static func redactingPassword(_ url: String) -> String {
        guard let password = URLComponents(string: url)?.percentEncodedPassword, !password.isEmpty,
            let range = url.range(of: ":\(password)@")
        else { return url }
        return url.replacingCharacters(in: range, with: ":<redacted>@")
    }
}
