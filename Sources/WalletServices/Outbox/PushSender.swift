import WalletDocuments

/// What sends the outbox's APNs pushes: the server's `APNsClient`, or a stand-in.
public protocol PushSender: Sendable {
    /// The APNs settings it sends with; the dispatcher sizes its workers and leases by them.
    var configuration: APNsConfiguration { get }
    /// Sends one push to the device with `pushToken` for the pass type `topic`, authenticated with `identity` under
    /// certificate authentication, and returns with its outcome the `apns-id` APNs gave it, if APNs answered.
    func deliver(pushToken: String, topic: String, identity: SigningIdentity?) async
        -> (outcome: APNsPushOutcome, apnsID: String?)
    /// Closes its connections.
    func shutdown() async throws
}
