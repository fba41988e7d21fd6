/// The outbox's doorbell: whoever queues deliveries rings it, and the dispatcher's push, webhook and Google Wallet
/// workers start a round. Made where the application is assembled and handed to the dispatcher and to everyone who queues.
public final class OutboxWakeUp: Sendable {
    let pushes = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let webhooks = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let googleWrites = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let passChangeJobs = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    /// Creates a doorbell that no one has rung.
    public init() {}

    /// Asks for a round now (after deliveries were queued); rings while every worker is busy fold into one.
    public func ring() {
        pushes.continuation.yield()
        webhooks.continuation.yield()
        googleWrites.continuation.yield()
    }

    /// Asks the bulk change runner for a round now (after a job was made).
    public func ringPassChangeJobs() {
        passChangeJobs.continuation.yield()
    }
}
