import Logging
import Secrets

/// The audit's default sink: one log message per access through swift-log, with the event as metadata
/// (`operation`, `service`, `account`, `backend`, `outcome`, `duration_us`, `caller`, `reason`).
///
/// Successful reads and listings are logged at ``readLevel`` (`debug`); writes, deletions, migrations, rotations and
/// every access that was locked, denied or failed at ``level`` (`notice`). The tamper-evident record of every access
/// is ``AuditFileSink``'s file: the log is for people reading what changed and what went wrong, so a logger at `info`
/// drops reads before formatting them.
public struct LoggingAuditSink: SecretsAuditSink {
    /// The logger events go to.
    public let logger: Logger
    /// The level of reads and listings that completed (found or missing).
    public let readLevel: Logger.Level
    /// The level of everything else: writes, deletions, migrations, rotations, and failed, locked or denied accesses.
    public let level: Logger.Level

    /// Creates a sink logging to `logger` (label `coffer.secrets.audit` by default).
    public init(
        logger: Logger = Logger(label: "coffer.secrets.audit"), readLevel: Logger.Level = .debug,
        level: Logger.Level = .notice
    ) {
        self.logger = logger
        self.readLevel = readLevel
        self.level = level
    }

    /// Logs `event` at its level, unless the logger's level drops it.
    public func record(_ event: SecretsAuditEvent) {
        let level = level(of: event)
        guard logger.logLevel <= level else { return }
        var metadata = Logger.Metadata(minimumCapacity: 8)
        metadata["operation"] = .string(event.operation.rawValue)
        metadata["service"] = .string(event.service)
        metadata["backend"] = .string(event.backend)
        metadata["outcome"] = .string(event.outcome.rawValue)
        metadata["duration_us"] = .stringConvertible(event.durationMicroseconds)
        if let account = event.account { metadata["account"] = .string(account) }
        if let caller = event.caller { metadata["caller"] = .string(caller) }
        if let reason = event.reason { metadata["reason"] = .string(reason) }
        logger.log(level: level, "secret \(event.operation.rawValue)", metadata: metadata)
    }

    /// The level `event` is logged at.
    public func level(of event: SecretsAuditEvent) -> Logger.Level {
        switch (event.operation, event.outcome) {
        case (.read, .found), (.read, .missing), (.list, .found), (.list, .missing): readLevel
        default: level
        }
    }
}
