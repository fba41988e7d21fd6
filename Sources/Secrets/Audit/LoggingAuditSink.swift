import Logging

/// The audit's default sink: one log message per access through swift-log, with the event as metadata
/// (`operation`, `service`, `account`, `backend`, `outcome`, `duration_us`, `caller`, `reason`).
///
/// Completed accesses are logged at ``level`` (`info`); locked, denied and failed ones at ``failureLevel``
/// (`warning`). Messages the logger's level lets through are handed to the audit's background thread, shared by
/// every sink (formatting and writing a line costs a log handler microseconds, as much as a read), and logged within
/// about a tenth of a second; ``flush()`` waits for them.
public final class LoggingAuditSink: SecretsAuditSink {
    /// The logger events go to.
    public let logger: Logger
    /// The level of accesses that completed (found, missing, saved).
    public let level: Logger.Level
    /// The level of accesses that were locked, denied or failed.
    public let failureLevel: Logger.Level
    private let queue: AuditQueue

    /// The sink `SecretsAudit()` uses: the `coffer.secrets.audit` logger, made on first use (after the application
    /// has bootstrapped its logging).
    public static let shared = LoggingAuditSink()

    /// Creates a sink logging to `logger` (label `coffer.secrets.audit` by default).
    public init(
        logger: Logger = Logger(label: "coffer.secrets.audit"), level: Logger.Level = .info,
        failureLevel: Logger.Level = .warning
    ) {
        self.logger = logger
        self.level = level
        self.failureLevel = failureLevel
        queue = AuditQueue(capacity: 65_536) { [logger, level, failureLevel] batch in
            for event in batch {
                Self.log(event, to: logger, at: Self.level(of: event, level, failureLevel))
            }
            return nil
        }
    }

    deinit {
        queue.close()
    }

    /// Queues `event` for the log, unless the logger's level would drop its message.
    public func record(_ event: SecretsAuditEvent) {
        guard logger.logLevel <= Self.level(of: event, level, failureLevel) else { return }
        _ = queue.enqueue(event)
    }

    /// Returns once every event recorded so far has been handed to the log handler.
    public func flush() throws(SecretsAuditError) {
        try queue.flush()
    }

    private static func level(
        of event: SecretsAuditEvent, _ level: Logger.Level, _ failureLevel: Logger.Level
    ) -> Logger.Level {
        switch event.outcome {
        case .found, .missing, .saved: level
        case .locked, .denied, .failed: failureLevel
        }
    }

    private static func log(_ event: SecretsAuditEvent, to logger: Logger, at level: Logger.Level) {
        var metadata = Logger.Metadata(minimumCapacity: 8)
        metadata["operation"] = .string(event.operation.rawValue)
        metadata["service"] = .string(event.service)
        metadata["backend"] = .string(event.backend)
        metadata["outcome"] = .string(event.outcome.rawValue)
        metadata["duration_us"] = .string(String(event.durationMicroseconds))
        if let account = event.account { metadata["account"] = .string(account) }
        if let caller = event.caller { metadata["caller"] = .string(caller) }
        if let reason = event.reason { metadata["reason"] = .string(reason) }
        logger.log(level: level, "secret \(event.operation.rawValue)", metadata: metadata)
    }
}
