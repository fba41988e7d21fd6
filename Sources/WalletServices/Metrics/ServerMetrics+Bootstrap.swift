import CoreMetrics
import Prometheus

extension ServerMetrics {
    /// A swift-metrics factory whose counters, timers and gauges land in ``registry``.
    public var factory: PrometheusMetricsFactory { PrometheusMetricsFactory(registry: registry) }

    /// Points swift-metrics' process-global `MetricsSystem` at ``registry``, so that `Counter(label:)`, `Timer(label:)`
    /// and the like, in any library of the process, show in this server's `GET /metrics`.
    ///
    /// The global system can be bootstrapped once per process (swift-metrics stops the process on a second call):
    /// `coffer serve` calls this; a library, or a process running several servers (tests), should not.
    public func bootstrapMetricsSystem() {
        MetricsSystem.bootstrap(factory)
    }
}
