import Foundation
import Secrets
import CoreMetrics
import Prometheus

/// The provisioning server's metrics, kept in a Prometheus registry that this value owns (never a process-global one,
/// so that many servers run side by side in one process, as the tests do).
///
/// The server records into it on its own: requests by route and status and their latency (the request middleware),
/// rate-limited issuer-data requests and expired sessions. The provisioning code records signing time, database time
/// and the sessions it issues and consumes through ``measureSigning(_:)``, ``recordDatabase(_:)``,
/// ``sessionIssued()`` and ``sessionConsumed()``. `GET /metrics` serves ``exposition()``.
///
/// Recording costs a few atomic additions and one short, uncontended lock per histogram: every metric is made once
/// (when the value or a route's table is created), and nothing on the hot path looks a metric up by name or builds a
/// label. Labels carry route patterns and status codes only, never a path, token, session identifier or tag.
///
/// Metric names (all under `coffer_`):
///
/// | name | type | labels |
/// |---|---|---|
/// | `coffer_http_requests_total` | counter | `route`, `status` |
/// | `coffer_http_request_duration_seconds` | histogram | `route` |
/// | `coffer_signing_duration_seconds` | histogram | |
/// | `coffer_database_duration_seconds` | histogram | |
/// | `coffer_provisioning_sessions_issued_total` | counter | |
/// | `coffer_provisioning_sessions_consumed_total` | counter | |
/// | `coffer_provisioning_sessions_expired_total` | counter | |
/// | `coffer_issuance_rate_limited_total` | counter | |
/// | `coffer_pass_type_certificate_expiry_timestamp_seconds` | gauge | `pass_type` |
public final class ServerMetrics: Sendable {
    /// The registry every metric of this value lives in; `coffer serve` also bootstraps swift-metrics' global system
    /// with it (``bootstrapMetricsSystem()``), so that code using the global API lands here too.
    public let registry: PrometheusCollectorRegistry

    /// The `route` label of a request that no route took (an unknown path, or a known one asked with another method).
    public static let unmatchedRoute = "unmatched"

    /// The upper bounds of the request latency buckets: from a tenth of a millisecond to ten seconds, finest where
    /// an issuance (a signature and a durable write) usually lands, between one and ten milliseconds.
    public static let requestBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
        .milliseconds(3), .milliseconds(5), .microseconds(7500), .milliseconds(10), .milliseconds(15),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .microseconds(2_500_000), .seconds(5), .seconds(10),
    ]

    /// The upper bounds of the signing and database time buckets: from 50 µs to 5 s.
    public static let operationBuckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
        .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    static let requestsName = "coffer_http_requests_total"
    static let requestsHelp = "HTTP requests answered, by route pattern and status code."
    static let latencyName = "coffer_http_request_duration_seconds"
    static let latencyHelp = "Time from receiving a request's head to returning its response, by route pattern."

    let signingTime: DurationHistogram
    let databaseTime: DurationHistogram
    let issued: Prometheus.Counter
    let consumed: Prometheus.Counter
    let expired: Prometheus.Counter
    let limited: Prometheus.Counter
    /// The per-route metrics of routes that were not known when the request table was made, by route pattern.
    private let lateRoutes = Locked<[String: RouteMetrics]>([:])
    /// When each pass type's certificate ends, by pass type identifier (``certificateExpires(passTypeIdentifier:at:)``).
    private let certificateExpiries = Locked<[String: Prometheus.Gauge]>([:])

    /// Creates the metrics in `registry` (a new one unless given); metrics already there under the same names and
    /// labels are shared, so two values over one registry count together.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        signingTime = registry.makeDurationHistogram(
            descriptor: .init(
                namespace: "coffer", metricName: "signing_duration", unitName: "seconds",
                helpText: "Time spent making one CMS signature (issuer data or a pass)."),
            labels: [], buckets: Self.operationBuckets)
        databaseTime = registry.makeDurationHistogram(
            descriptor: .init(
                namespace: "coffer", metricName: "database_duration", unitName: "seconds",
                helpText: "Time spent in one database operation (a query or a transaction)."),
            labels: [], buckets: Self.operationBuckets)
        func counter(_ name: String, _ help: String) -> Prometheus.Counter {
            registry.makeCounter(
                descriptor: .init(namespace: "coffer", metricName: name, unitName: "total", helpText: help))
        }
        issued = counter("provisioning_sessions_issued", "Provisioning sessions opened by issuer data.")
        consumed = counter(
            "provisioning_sessions_consumed", "Provisioning sessions used by a device's callback.")
        expired = counter(
            "provisioning_sessions_expired", "Expired provisioning sessions deleted by the background purge.")
        limited = counter(
            "issuance_rate_limited", "Issuer-data requests refused with 429 because their API token was over its limit."
        )
    }

    // MARK: Recording

    /// Records when `passTypeIdentifier`'s certificate ends, as seconds since 1970: an alert on
    /// `coffer_pass_type_certificate_expiry_timestamp_seconds - time() < 30 * 86400` fires a month ahead.
    package func certificateExpires(passTypeIdentifier: String, at end: Date) {
        let gauge = certificateExpiries.withLock { gauges in
            if let gauge = gauges[passTypeIdentifier] { return gauge }
            let gauge = registry.makeGauge(
                descriptor: .init(
                    namespace: "coffer", metricName: "pass_type_certificate_expiry", unitName: "timestamp_seconds",
                    helpText: "When each pass type's Pass Type ID certificate expires, in seconds since 1970."),
                labels: [("pass_type", passTypeIdentifier)])
            gauges[passTypeIdentifier] = gauge
            return gauge
        }
        gauge.set(end.timeIntervalSince1970)
    }

    /// Records one CMS signature that took `duration`.
    public func recordSigning(_ duration: Duration) {
        signingTime.record(duration)
    }

    /// Runs `body` (one signature) and records how long it took, also when it throws.
    public func measureSigning<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let started = ContinuousClock.now
        defer { signingTime.record(ContinuousClock.now - started) }
        return try body()
    }

    /// Records one database operation (a query or a transaction) that took `duration`.
    public func recordDatabase(_ duration: Duration) {
        databaseTime.record(duration)
    }

    /// Runs `body` (one database operation) and records how long it took, also when it throws. It runs on the
    /// caller's executor.
    nonisolated(nonsending) public func measureDatabase<Result, Failure: Error>(
        _ body: nonisolated(nonsending) () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        let started = ContinuousClock.now
        defer { databaseTime.record(ContinuousClock.now - started) }
        return try await body()
    }

    /// Counts a provisioning session opened (issuer data signed and recorded).
    public func sessionIssued() {
        issued.increment()
    }

    /// Counts a provisioning session consumed by a device's callback.
    public func sessionConsumed() {
        consumed.increment()
    }

    /// Counts `count` expired sessions deleted.
    public func sessionsExpired(_ count: Int) {
        guard count > 0 else { return }
        expired.increment(by: Int64(count))
    }

    /// Counts an issuer-data request refused because its API token was over its limit.
    public func requestRateLimited() {
        limited.increment()
    }

    // MARK: Requests

    /// The table the request middleware records into, with each of `routes` (route patterns, as
    /// `RequestContext.endpointPath` names them) and ``unmatchedRoute`` made up front.
    package func requestTable(routes: some Sequence<String>) -> RequestMetricsTable {
        var table: [String: RouteMetrics] = [:]
        for route in routes { table[route] = RouteMetrics(route: route, registry: registry) }
        return RequestMetricsTable(
            routes: table, unmatched: RouteMetrics(route: Self.unmatchedRoute, registry: registry), metrics: self)
    }

    /// The metrics of `route`, a route pattern the request table did not know (made once, under a lock).
    func lateRoute(_ route: String) -> RouteMetrics {
        lateRoutes.withLock { routes in
            if let known = routes[route] { return known }
            let made = RouteMetrics(route: route, registry: registry)
            routes[route] = made
            return made
        }
    }

    // MARK: Exposition

    /// The content type of ``exposition()``: Prometheus text format 0.0.4.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Every metric of ``registry`` in Prometheus text format.
    public func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(16 * 1024)
        registry.emit(into: &buffer)
        return buffer
    }
}
