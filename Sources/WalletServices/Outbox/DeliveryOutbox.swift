import Foundation

/// The durable outbox that ``DeliveryDispatcher`` drains: pass updates enqueue one push per registered device in the
/// transaction that changes the pass, trace events enqueue webhook deliveries to the issuer's endpoints in the
/// transaction that stores them, and the dispatcher claims both, sends them and records the result.
///
/// `SQLWalletRepository` implements it for SQLite and PostgreSQL (`push_outbox`), so that pushes survive a restart
/// and replicas on one database share the work without sending a push twice at once.
package protocol DeliveryOutbox: Sendable {
    /// Leases and returns at most `limit` pushes due at `now` (their next attempt is due and no unexpired lease
    /// holds them), oldest first: for `leaseFor` seconds no other claim returns them.
    func claimDuePushes(now: Date, limit: Int, leaseFor: TimeInterval) async throws -> [PendingPush]
    /// Deletes a push that was delivered, if the claim that returned it still holds its lease, and marks its device
    /// seen at `now` (APNs accepted its token); returns whether it did.
    @discardableResult func completePush(_ push: PendingPush, now: Date) async throws -> Bool
    /// Schedules a push again at `at` (its attempts grow by one and its lease is cleared), if the claim that
    /// returned it still holds its lease; returns whether it did.
    @discardableResult func retryPush(_ push: PendingPush, at: Date) async throws -> Bool
    /// Drops a push that will not be sent (refused by APNs, or failed too many times), if the claim that returned
    /// it still holds its lease; returns whether it did.
    @discardableResult func abandonPush(_ push: PendingPush) async throws -> Bool
    /// Removes the device's registration of the push's pass (APNs said its token is no longer valid), only if the
    /// registration's push token is still the push's: a device that registered a new token since keeps it. Returns
    /// how many devices the pass has left, or `nil` when nothing was removed.
    @discardableResult func removeRegistration(for push: PendingPush) async throws -> Int?
    /// Leases and returns at most `limit` webhook deliveries due at `now`, each the oldest still waiting of its pass
    /// for its endpoint, like ``claimDuePushes(now:limit:leaseFor:)``: taken from every client and endpoint with work
    /// in turn, and none beyond `perEndpoint` for an endpoint or `perClient` for a client's endpoints together,
    /// counting the deliveries already under an unexpired lease.
    func claimDueWebhooks(now: Date, limit: Int, perEndpoint: Int, perClient: Int, leaseFor: TimeInterval)
        async throws -> [PendingWebhook]
    /// Deletes a delivered webhook, if the claim that returned it still holds its lease; returns whether it did.
    @discardableResult func completeWebhook(_ delivery: PendingWebhook) async throws -> Bool
    /// Schedules a webhook again at `at` with why it failed, if the claim still holds its lease.
    @discardableResult func retryWebhook(_ delivery: PendingWebhook, at: Date, error: String) async throws -> Bool
    /// Keeps a webhook as failed (never sent again), if the claim still holds its lease.
    @discardableResult func failWebhook(_ delivery: PendingWebhook, now: Date, error: String) async throws -> Bool
}
