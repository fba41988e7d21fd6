import Foundation
import Logging
import NIOPosix
import Secrets

/// A client's webhook endpoints: made with a signing secret shown once (kept in the secret store, never in the
/// database), listed without it, and deleted with it and the deliveries still waiting.
package struct WebhookEndpoints: Sendable {
    /// The most endpoints one client may have.
    package static let maximumPerClient = 10
    /// The longest endpoint URL accepted.
    package static let maximumURLLength = 2048

    /// An endpoint just made, with its signing secret: the only time the secret is shown.
    package struct Created: Sendable, CustomStringConvertible {
        /// The stored endpoint.
        package var endpoint: WebhookEndpoint
        /// The secret deliveries are signed with (`whsec_` and 43 URL-safe Base64 characters).
        package var secret: String

        /// The endpoint without its secret: `<redacted>`.
        package var description: String { "Created(endpoint: \(endpoint.id), secret: <redacted>)" }
    }

    let repository: any WebhookEndpointStore
    let secrets: any SecretsDataStoring
    /// Whether `http://` endpoints on this machine are accepted (tests and local development only).
    let allowsLoopback: Bool
    let clock: any CofferClock
    let logger: Logger

    /// Creates the service over `repository`, keeping secrets in `secrets`.
    package init(
        repository: any WebhookEndpointStore, secrets: any SecretsDataStoring, allowsLoopback: Bool = false,
        clock: any CofferClock = SystemClock(), logger: Logger = Logger(label: "coffer.webhooks")
    ) {
        self.repository = repository
        self.secrets = secrets
        self.allowsLoopback = allowsLoopback
        self.clock = clock
        self.logger = logger
    }

    /// Makes an endpoint for the client at `url` taking `eventTypes` (every type when `nil`), with a new secret.
    ///
    /// - Throws: ``PassManagementFailure/invalidRequest(_:)`` for a URL that is not https (or names an internal
    ///   address) or an empty list of types, ``PassManagementFailure/conflict(_:)`` past ``maximumPerClient``.
    package func create(clientID: UUID, url: String, eventTypes: Set<WebhookEventType>?) async throws -> Created {
        try validate(url)
        let types = eventTypes ?? Set(WebhookEventType.allCases)
        guard !types.isEmpty else { throw PassManagementFailure.invalidRequest("'event_types' must name one type") }
        let endpoint = WebhookEndpoint(clientID: clientID, url: url, eventTypes: types, createdAt: clock.now)
        let secret = "whsec_" + SecretToken.makeAPIToken()
        let store = secrets
        try await NIOThreadPool.singleton.runIfActive {
            try store.saveData(Data(secret.utf8), account: endpoint.secretPath)
        }
        let stored: Bool
        do {
            stored = try await repository.createWebhookEndpoint(endpoint, maximum: Self.maximumPerClient)
        } catch {
            try? await removeSecret(of: endpoint.id)
            throw error
        }
        guard stored else {
            try? await removeSecret(of: endpoint.id)
            throw PassManagementFailure.conflict(
                "\(Self.maximumPerClient) webhook endpoints (the most a client may have; delete one)")
        }
        logger.info("made a webhook endpoint", metadata: ["client": "\(clientID)", "endpoint": "\(endpoint.id)"])
        return Created(endpoint: endpoint, secret: secret)
    }

    /// The client's endpoints, oldest first (never their secrets).
    package func list(clientID: UUID) async throws -> [WebhookEndpoint] {
        try await repository.webhookEndpoints(clientID: clientID)
    }

    /// Deletes the client's endpoint `id`, its secret and its waiting deliveries.
    ///
    /// - Throws: ``PassManagementFailure/notFound(_:)`` when the client has no such endpoint.
    package func delete(id: UUID, clientID: UUID) async throws {
        guard try await repository.deleteWebhookEndpoint(id: id, clientID: clientID) else {
            throw PassManagementFailure.notFound("a webhook endpoint \(id)")
        }
        try? await removeSecret(of: id)
        logger.info("deleted a webhook endpoint", metadata: ["client": "\(clientID)", "endpoint": "\(id)"])
    }

    private func removeSecret(of id: UUID) async throws {
        let store = secrets
        _ = try await NIOThreadPool.singleton.runIfActive {
            try store.deleteData(account: WebhookEndpoint.secretPath(id: id))
        }
    }

    /// Refuses a URL the server must not post to: not https (plain http only to this machine, when allowed), with
    /// credentials or a fragment, too long, with a host that is neither a plain DNS name nor an IP address, or naming
    /// an internal address in any spelling (`127.1`, `2130706433`, `[::ffff:7f00:1]`). Host names are checked again,
    /// against the addresses they resolve to, before every delivery (`WebhookSender`).
    func validate(_ text: String) throws {
        func refuse(_ reason: String) -> PassManagementFailure {
            PassManagementFailure.invalidRequest("'url' \(reason)")
        }
        guard text.utf8.count <= Self.maximumURLLength, let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), let host = components.percentEncodedHost, !host.isEmpty
        else { throw refuse("must be an absolute URL of at most \(Self.maximumURLLength) bytes") }
        guard components.user == nil, components.password == nil, components.fragment == nil else {
            throw refuse("must not carry credentials or a fragment")
        }
        let address = IPAddress(numeric: host)
        guard address != nil || Self.isPlainHostName(host) else {
            throw refuse("must name its host with letters, digits, '-' and '.', or an IP address")
        }
        let loopback = address.map { $0.scope == .loopback } ?? NetworkHost.isLoopback(host)
        if loopback, allowsLoopback, scheme == "https" || scheme == "http" { return }
        if scheme == "https", !loopback, address.map({ $0.scope == .global }) ?? true { return }
        throw refuse("must be https on a public host (not a loopback, private or link-local address)")
    }

    /// Whether `host` is a DNS name of letters, digits, hyphens and dots (no percent-encoding, no other characters
    /// a resolver or an HTTP client might read differently).
    static func isPlainHostName(_ host: String) -> Bool {
        host.utf8.count <= 253
            && host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
                (1...63).contains(label.utf8.count)
                    && label.utf8.allSatisfy {
                        $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7a).contains($0 | 0x20)
                    }
            }
    }
}
