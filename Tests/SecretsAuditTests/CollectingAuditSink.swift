@_spi(Testing) import Secrets
@testable import SecretsAudit

/// An audit sink that keeps every event, for tests to read back.
final class CollectingAuditSink: SecretsAuditSink {
    private let collected = Locked<[SecretsAuditEvent]>([])

    func record(_ event: SecretsAuditEvent) {
        collected.withLock { $0.append(event) }
    }

    /// Every event recorded, in order.
    var events: [SecretsAuditEvent] { collected.withLock { $0 } }
}
