import CoreMetrics
import Secrets
import SecretsAudit

/// An audit sink that counts and times accesses through swift-metrics, for dashboards and alerts (a burst of
/// `denied` reads, a store that turned slow):
///
/// - `coffer_secrets_accesses_total{operation, outcome, backend}`, a counter;
/// - `coffer_secrets_access_duration_seconds{operation, backend}`, a timer.
///
/// The metrics go to the factory the application bootstrapped (`MetricsSystem.bootstrap`), or the one given. Paths
/// and callers are not dimensions: they would make the number of series unbounded. Each event is counted on the
/// accessing thread as it is recorded: a counter and a timer are as cheap as queueing the event would be.
public final class MetricsAuditSink: SecretsAuditSink {
    /// The counter's label.
    public static let accessesLabel = "coffer_secrets_accesses_total"
    /// The timer's label.
    public static let durationLabel = "coffer_secrets_access_duration_seconds"

    private let factory: (any MetricsFactory)?
    private let instruments = Locked(Instruments())

    /// Creates a sink that reports to `factory`, or to the bootstrapped `MetricsSystem` when `nil`.
    public init(factory: (any MetricsFactory)? = nil) {
        self.factory = factory
    }

    /// Counts and times `event`.
    public func record(_ event: SecretsAuditEvent) {
        let (counter, timer) = instruments.withLock { $0.pair(for: event, factory: factory) }
        counter.increment()
        timer.recordNanoseconds(Self.nanoseconds(event.duration))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The counter and timer of each combination of dimensions seen, made once: making one asks the factory,
    /// which may take a lock and allocate.
    private struct Instruments {
        struct Key: Hashable {
            var operation: SecretsAuditEvent.Operation
            var outcome: SecretsAuditEvent.Outcome
            var backend: String
        }
        var counters: [Key: Counter] = [:]
        var timers: [Key: Timer] = [:]

        mutating func pair(for event: SecretsAuditEvent, factory: (any MetricsFactory)?) -> (Counter, Timer) {
            let key = Key(operation: event.operation, outcome: event.outcome, backend: event.backend)
            let timerKey = Key(operation: event.operation, outcome: .found, backend: event.backend)
            if let counter = counters[key], let timer = timers[timerKey] { return (counter, timer) }
            let factory = factory ?? MetricsSystem.factory
            let counter =
                counters[key]
                ?? Counter(
                    label: MetricsAuditSink.accessesLabel,
                    dimensions: [
                        ("operation", event.operation.rawValue), ("outcome", event.outcome.rawValue),
                        ("backend", event.backend),
                    ], factory: factory)
            counters[key] = counter
            let timer =
                timers[timerKey]
                ?? Timer(
                    label: MetricsAuditSink.durationLabel,
                    dimensions: [("operation", event.operation.rawValue), ("backend", event.backend)],
                    factory: factory)
            timers[timerKey] = timer
            return (counter, timer)
        }
    }
}
