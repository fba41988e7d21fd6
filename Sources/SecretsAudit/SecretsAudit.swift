import Foundation
import Secrets

/// The access audit: turns every access through an ``AuditedSecretsStore`` (or a ``SecretsStore`` made with an
/// audit) into a ``SecretsAuditEvent`` and hands it to each of its sinks.
///
/// ```swift
/// let audit = SecretsAudit(sinks: [LoggingAuditSink(), try AuditFileSink(url: auditURL, keyStore: base), MetricsAuditSink()])
/// let store = SecretsStore(base, audit: audit)
/// let token = try await SecretsAudit.withCaller("background-refresh") { try await store.read(NotionSecret.id) }
/// ```
///
/// The audit records what happened after the access completes, on the accessing thread; each sink takes the event
/// without blocking on I/O, and none may drop it. Recording never changes the access's result or error.
public struct SecretsAudit: Sendable {
    /// Where events go, in order.
    public let sinks: [any SecretsAuditSink]
    /// The caller label of events recorded outside `withCaller(_:_:)`.
    public let defaultCaller: String?

    /// The name of the one thread that does every sink's work in the process, as debuggers, `top -H` and
    /// `/proc/<pid>/task/*/comm` show it (at most 15 bytes).
    public static let threadName = "coffer-audit"

    /// The label of the caller whose accesses are being recorded: set it for a scope with `withCaller(_:_:)`.
    public static var caller: String? { SecretsCaller.current }

    /// Creates an audit that sends events to `sinks`; the default is the log (``LoggingAuditSink``).
    public init(sinks: [any SecretsAuditSink] = [LoggingAuditSink()], defaultCaller: String? = nil) {
        self.sinks = sinks
        self.defaultCaller = defaultCaller
    }

    /// Runs `body` with the accesses it makes labelled `caller` (`"background-refresh"`, `"checkout"`…).
    public static func withCaller<Result>(
        _ caller: String, _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await SecretsCaller.with(caller, body)
    }

    /// Runs `body` with the accesses it makes labelled `caller`, for synchronous code.
    public static func withCaller<Result>(_ caller: String, _ body: () throws -> Result) rethrows -> Result {
        try SecretsCaller.with(caller, body)
    }

    /// Sends `event` to every sink.
    public func record(_ event: SecretsAuditEvent) {
        for sink in sinks {
            sink.record(event)
        }
    }

    /// Runs an access and records it: its start, its duration, and the outcome `outcome` reads from its result (or
    /// the outcome of the ``SecretsError`` it threw, which is then rethrown unchanged).
    public func recording<Result>(
        _ operation: SecretsAuditEvent.Operation, service: String, account: String?, backend: String,
        outcome: (Result) -> SecretsAuditEvent.Outcome, _ access: () throws(SecretsError) -> Result
    ) throws(SecretsError) -> Result {
        let time = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let caller = Self.caller ?? defaultCaller
        do {
            let result = try access()
            record(
                SecretsAuditEvent(
                    time: time, operation: operation, service: service, account: account, backend: backend,
                    outcome: outcome(result), duration: clock.now - start, caller: caller))
            return result
        } catch {
            record(
                SecretsAuditEvent(
                    time: time, operation: operation, service: service, account: account, backend: backend,
                    outcome: SecretsAuditEvent.Outcome(error), duration: clock.now - start, caller: caller,
                    reason: error.caseName))
            throw error
        }
    }

    /// Flushes every sink: returns once every event recorded so far is stored as durably as each sink can.
    ///
    /// - Throws: the first sink's ``SecretsAuditError``, after every sink was asked.
    public func flush() throws(SecretsAuditError) {
        var firstError: SecretsAuditError?
        for sink in sinks {
            do {
                try sink.flush()
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }
}
