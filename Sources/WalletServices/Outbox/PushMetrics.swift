import Prometheus

/// The counts of pushes ``DeliveryDispatcher`` handled, in a ``ServerMetrics`` registry:
/// `coffer_apns_pushes_total{outcome="delivered"|"unregistered"|"retried"|"rejected"|"abandoned"}`.
///
/// Labels carry outcomes only, never a pass, device or token.
package struct PushMetrics: Sendable {
    let delivered: Prometheus.Counter
    let unregistered: Prometheus.Counter
    let retried: Prometheus.Counter
    let rejected: Prometheus.Counter
    let abandoned: Prometheus.Counter

    /// The metric's name.
    package static let name = "coffer_apns_pushes_total"

    /// Creates (or shares, when they exist) the counters in `metrics`' registry.
    package init(metrics: ServerMetrics) {
        func counter(_ outcome: String) -> Prometheus.Counter {
            metrics.registry.makeCounter(
                descriptor: .init(
                    namespace: "coffer", metricName: "apns_pushes", unitName: "total",
                    helpText: "APNs pushes of pass updates, by outcome (retried: scheduled again; abandoned: given up)."
                ),
                labels: [("outcome", outcome)])
        }
        delivered = counter("delivered")
        unregistered = counter("unregistered")
        retried = counter("retried")
        rejected = counter("rejected")
        abandoned = counter("abandoned")
    }

    /// Counts a push APNs accepted.
    func countDelivered() { delivered.increment() }
    /// Counts a push whose device token APNs no longer knows.
    func countUnregistered() { unregistered.increment() }
    /// Counts a push scheduled again.
    func countRetried() { retried.increment() }
    /// Counts a push APNs refused for good.
    func countRejected() { rejected.increment() }
    /// Counts a push given up after its last attempt.
    func countAbandoned() { abandoned.increment() }
}
