/// What posts the outbox's webhook deliveries: the server's `WebhookSender`, or a stand-in.
package protocol WebhookPoster: Sendable {
    /// Posts `delivery` to its endpoint, signed now, and says what became of the attempt.
    func send(_ delivery: PendingWebhook) async -> WebhookOutcome
}

/// What became of one webhook attempt.
package enum WebhookOutcome: Sendable, Hashable {
    /// The endpoint answered 2xx.
    case delivered
    /// It did not (another status, no answer, an internal address, or the secret could not be read), and why.
    case failed(String)
}
