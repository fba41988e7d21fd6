import Secrets

/// Which audit sinks a measured store records its accesses in.
public enum AuditSinkConfiguration: String, CaseIterable, Sendable {
    /// No audit: `SecretsStore(base)`, the baseline.
    case none = "no audit"
    /// No audit either: a second `SecretsStore(base)`, measured as if it were audited. Its ratio to the baseline is
    /// what the measurement itself makes of two identical stores, against which the audited ratio is read.
    case control = "no audit, again (control)"
    /// The default sinks: the log (swift-log's `StreamLogHandler` writing to a file, at `info`), the audit file
    /// buffered, and metrics (swift-prometheus).
    case defaults = "log at info + file buffered + metrics"

    /// Whether the store records its accesses in an audit at all.
    public var audits: Bool { self == .defaults }

    /// A name usable in a file name.
    public var slug: String {
        switch self {
        case .none: "none"
        case .control: "control"
        case .defaults: "defaults"
        }
    }
}
