import Secrets

/// Which audit sinks a measured store records its accesses in.
public enum AuditSinkConfiguration: String, CaseIterable, Sendable {
    /// No audit: `SecretsStore(base)`, the baseline.
    case none = "no audit"
    /// No audit either: a second `SecretsStore(base)`, measured as if it were audited. Its ratio to the baseline is
    /// what the measurement itself makes of two identical stores (the noise, and any bias of a turn's place in a
    /// round), against which the audited ratios are read.
    case control = "no audit, again (control)"
    /// ``LoggingAuditSink`` with swift-log's `StreamLogHandler` writing each line to a file.
    case log = "log"
    /// ``MetricsAuditSink`` reporting to swift-prometheus's `PrometheusMetricsFactory`.
    case metrics = "metrics (Prometheus)"
    /// ``AuditFileSink`` with ``AuditFileSink/Durability/buffered``.
    case fileBuffered = "file buffered"
    /// ``AuditFileSink`` with ``AuditFileSink/Durability/synchronous`` (an `fsync` per record batch before a read
    /// returns).
    case fileSynchronous = "file synchronous"
    /// What a careful application configures: the log, the file buffered and metrics together.
    case all = "log + file buffered + metrics"

    /// Whether the store records its accesses in an audit at all.
    public var audits: Bool { self != .none && self != .control }
    /// Whether the log sink is one of the sinks.
    public var logs: Bool { self == .log || self == .all }
    /// Whether the metrics sink is one of the sinks.
    public var countsMetrics: Bool { self == .metrics || self == .all }
    /// The file sink's durability, or `nil` without a file sink.
    public var fileDurability: AuditFileSink.Durability? {
        switch self {
        case .fileBuffered, .all: .buffered
        case .fileSynchronous: .synchronous
        case .none, .control, .log, .metrics: nil
        }
    }

    /// A name usable in a file name.
    public var slug: String {
        switch self {
        case .none: "none"
        case .control: "control"
        case .log: "log"
        case .metrics: "metrics"
        case .fileBuffered: "file-buffered"
        case .fileSynchronous: "file-synchronous"
        case .all: "all"
        }
    }
}
