/// What an issuer's backend is told about its passes.
public enum WebhookEventType: String, Codable, Hashable, Sendable, CaseIterable {
    /// A first device registered the pass for updates: it was added to Wallet; or a holder saved it to Google
    /// Wallet (`"wallet": "google"`).
    case passAdded = "pass.added"
    /// The last device unregistered, or APNs said its push token is gone: the pass was removed from Wallet (or its
    /// updates turned off); or a holder removed it from Google Wallet (`"wallet": "google"`).
    case passRemoved = "pass.removed"
    /// A device bound the pass to its key (account-bound provisioning).
    case passBound = "pass.bound"
    /// The user entered their details for a rewards pass; the event carries them.
    case passPersonalized = "pass.personalized"
    /// The pass's content changed.
    case passUpdated = "pass.updated"
    /// APNs refused a push for the pass, or a push was given up after its last attempt.
    case pushFailed = "push.failed"
    /// A pass type's certificate ends within 30, 14, 7 or 1 days and no renewed one is staged to take over: sent once
    /// per threshold to the clients the pass type is shared with.
    case passTypeCertificateExpiring = "pass_type.certificate_expiring"
    /// A first device registered the order for updates: it was added to Wallet.
    case orderAdded = "order.added"
    /// The last device unregistered the order, or APNs said its push token is gone.
    case orderRemoved = "order.removed"
    /// The order changed (its status, a fulfilment, a payment or a return).
    case orderUpdated = "order.updated"
    /// A bulk change (`POST /api/v2/passes/changes`) finished: the event carries its counts.
    case jobFinished = "job.finished"
}
