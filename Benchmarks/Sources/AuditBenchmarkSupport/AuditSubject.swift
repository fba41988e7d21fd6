import Foundation
import Logging
import Prometheus
import Secrets
import SecretsAudit
import SecretsMetrics

/// One store under measurement: a backend's ``AggregateSecretsStore`` seen through a ``SecretsStore`` that records
/// its accesses in the default sinks, or in none. Each subject has its own log file, audit file and Prometheus
/// registry, so that what each sink kept can be counted against the reads made through it.
public final class AuditSubject: Sendable {
    /// The backend.
    public let backend: AuditBackendKind
    /// The sinks.
    public let configuration: AuditSinkConfiguration
    /// The store every access ends in.
    public let base: AggregateSecretsStore
    /// The audit, or `nil` for ``AuditSinkConfiguration/none``.
    public let audit: SecretsAudit?
    /// The actor front door: `SecretsStore(base)` or `SecretsStore(base, audit:)`.
    public let store: SecretsStore
    /// The audit file's sink, if the configuration has one.
    public let fileSink: AuditFileSink?
    /// The log file, if the configuration logs.
    public let logURL: URL?
    /// The metrics registry, if the configuration counts metrics.
    public let registry: PrometheusCollectorRegistry?

    /// Makes the sinks of `configuration` over `base`, with their files in `directory`.
    public init(
        backend: AuditBackendKind, configuration: AuditSinkConfiguration, base: AggregateSecretsStore, directory: URL
    ) throws {
        self.backend = backend
        self.configuration = configuration
        self.base = base
        let name = "\(backend.slug)-\(configuration.slug)"
        var sinks: [any SecretsAuditSink] = []
        if configuration.audits {
            let url = directory.appendingPathComponent("\(name).log")
            let stream = try LogFileStream(url: url)
            var logger = Logger(label: "coffer.secrets.audit") { StreamLogHandler(label: $0, stream: stream) }
            logger.logLevel = .info
            sinks.append(LoggingAuditSink(logger: logger))
            logURL = url
        } else {
            logURL = nil
        }
        if configuration.audits {
            let sink = try AuditFileSink(
                url: directory.appendingPathComponent("\(name).jsonl"), keys: AuditKeyStore(store: base))
            sinks.append(sink)
            fileSink = sink
        } else {
            fileSink = nil
        }
        if configuration.audits {
            let registry = PrometheusCollectorRegistry()
            sinks.append(MetricsAuditSink(factory: PrometheusMetricsFactory(registry: registry)))
            self.registry = registry
        } else {
            registry = nil
        }
        if !configuration.audits {
            audit = nil
            store = SecretsStore(base)
        } else {
            let audit = SecretsAudit(sinks: sinks)
            self.audit = audit
            store = SecretsStore(base, audit: audit)
        }
    }

    /// Reads the 64 B value through ``store``.
    public func read() async throws {
        guard try await store.read(account: AuditBackendKind.account)?.count == 64 else {
            throw AuditBenchmarkError.unexpectedValue("SecretsStore (\(configuration.rawValue))")
        }
    }

    /// Returns once every event recorded so far is stored as durably as each sink can.
    public func flush() throws {
        try audit?.flush()
    }

    /// Ends a turn of reads: flushes the sinks, then writes every dirty page in the system to disk (`sync`), so
    /// that the turn pays for all it wrote (its log lines too, which no sink syncs) and leaves no write-back behind
    /// for the next turn, of another configuration, to compete with.
    public func settle() throws {
        try flush()
        Foundation.sync()
    }

    /// Closes the audit file (flushing it and saving its checkpoint) and counts what each sink kept against
    /// `reads`, the number of reads made through this subject: the audit file's records (verified with
    /// ``AuditFileVerifier``) and the Prometheus counter's total. The log, at `info`, holds no line for a read.
    public func closeAndCheck(reads: Int) throws -> [AuditSinkCheck] {
        try flush()
        var checks: [AuditSinkCheck] = []
        if let fileSink {
            try fileSink.close()
            let report = try AuditFileVerifier.verify(fileAt: fileSink.url, keys: AuditKeyStore(store: base))
            checks.append(
                AuditSinkCheck(
                    sink: "file", kept: report.recordCount, reads: reads,
                    problem: report.isIntact ? nil : report.findings.map(\.message).joined(separator: "; ")))
        }
        if let registry {
            let total = registry.emitToString().split(separator: "\n")
                .filter { $0.hasPrefix(MetricsAuditSink.accessesLabel + "{") }
                .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
                .reduce(0, +)
            checks.append(AuditSinkCheck(sink: "metrics", kept: Int(total), reads: reads))
        }
        return checks
    }
}
