import Secrets
import Prometheus

/// One route's request metrics: its latency histogram and a request counter per status code.
///
/// The histogram is made with the route; a status's counter the first time a request on the route ends with it
/// (the codes the server answers are few), then found by the status code alone, under this route's own lock.
package final class RouteMetrics: Sendable {
    /// The route pattern in the `route` label.
    let route: String
    /// How long the route's requests took.
    let latency: DurationHistogram
    private let registry: PrometheusCollectorRegistry
    private let counters: Locked<[Int: Prometheus.Counter]>

    /// Makes the route's histogram in `registry`; its counters come with the first request of each status.
    init(route: String, registry: PrometheusCollectorRegistry) {
        self.route = route
        self.registry = registry
        latency = registry.makeDurationHistogram(
            descriptor: .init(metricName: ServerMetrics.latencyName, unitName: "", helpText: ServerMetrics.latencyHelp),
            labels: [("route", route)], buckets: ServerMetrics.requestBuckets)
        counters = Locked([:])
    }

    /// Counts one request that ended with `status` and took `duration`.
    package func record(status: Int, duration: Duration) {
        latency.record(duration)
        counter(for: status).increment()
    }

    /// The counter of `status` on this route, made on first use.
    func counter(for status: Int) -> Prometheus.Counter {
        counters.withLock { counters in
            if let counter = counters[status] { return counter }
            let counter = registry.makeCounter(
                descriptor: .init(
                    metricName: ServerMetrics.requestsName, unitName: "", helpText: ServerMetrics.requestsHelp),
                labels: [("route", route), ("status", String(status))])
            counters[status] = counter
            return counter
        }
    }
}
