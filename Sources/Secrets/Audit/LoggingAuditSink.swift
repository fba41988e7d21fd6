import Logging

/// The audit's default sink: one log message per access through swift-log, with the event as metadata
/// (`operation`, `service`, `account`, `backend`, `outcome`, `duration_us`, `caller`, `reason`).
///
/// Completed accesses are logged at ``level`` (`info`); locked, denied and failed ones at ``failureLevel``
/// (`warning`). The log handler the application bootstrapped decides where the lines go and how fast.
public struct LoggingAuditSink: SecretsAuditSink {
    /// The logger events go to.
    public var logger: Logger
    /// The level of accesses that completed (found, missing, saved).
    public var level: Logger.Level
    /// The level of accesses that were locked, denied or failed.
    public var failureLevel: Logger.Level

    /// Creates a sink logging to `logger` (label `coffer.secrets.audit` by default).
    public init(
        logger: Logger = Logger(label: "coffer.secrets.audit"), level: Logger.Level = .info,
        failureLevel: Logger.Level = .warning
    ) {
        self.logger = logger
        self.level = level
        self.failureLevel = failureLevel
    }

    /// Logs `event`.
    public func record(_ event: SecretsAuditEvent) {
        let level: Logger.Level
        switch event.outcome {
        case .found, .missing, .saved: level = self.level
        case .locked, .denied, .failed: level = failureLevel
        }
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [
            "operation": "\(event.operation.rawValue)", "service": "\(event.service)",
            "backend": "\(event.backend)", "outcome": "\(event.outcome.rawValue)",
            "duration_us": "\(event.durationMicroseconds)",
        ]
        if let account = event.account { metadata["account"] = "\(account)" }
        if let caller = event.caller { metadata["caller"] = "\(caller)" }
        if let reason = event.reason { metadata["reason"] = "\(reason)" }
        logger.log(level: level, "secret \(event.operation.rawValue)", metadata: metadata)
    }
}
