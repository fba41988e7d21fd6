import Secrets

/// Where ``SecretsAudit`` sends each ``SecretsAuditEvent``: a log (``LoggingAuditSink``), a tamper-evident file
/// (``AuditFileSink``), metrics (`MetricsAuditSink`, in the `SecretsMetrics` module) or one of your own.
///
/// ``record(_:)`` is called on the thread that made the access, once the access has completed, so it must be quick
/// and must not block on slow I/O: queue the event and write it elsewhere. It must not drop events either: a sink
/// that cannot keep up makes the access wait rather than lose the record.
public protocol SecretsAuditSink: Sendable {
    /// Takes one event.
    func record(_ event: SecretsAuditEvent)

    /// Returns once every event recorded so far is stored as durably as the sink can store it.
    ///
    /// - Throws: ``SecretsAuditError`` when events could not be stored (they are kept, and retried).
    func flush() throws(SecretsAuditError)
}

extension SecretsAuditSink {
    /// Nothing to flush: the default for sinks that store each event as they record it.
    public func flush() throws(SecretsAuditError) {}
}
