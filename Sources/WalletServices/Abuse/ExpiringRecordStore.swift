import Foundation

/// The records that expire, as ``SessionPurger`` deletes them in batches (landing links apart, in
/// ``LandingLinkStore``).
package protocol ExpiringRecordStore: Sendable {
    /// Deletes up to `limit` sessions that expired at or before `now`; returns how many it deleted.
    func deleteExpiredSessions(now: Date, limit: Int) async throws -> Int
    /// Forgets idempotency keys created at or before `cutoff`, up to `limit` of them; returns how many.
    func deleteExpiredIdempotencyKeys(before cutoff: Date, limit: Int) async throws -> Int
    /// Deletes up to `limit` links that expired at or before `now`; returns how many it deleted.
    func deleteExpiredShareLinks(now: Date, limit: Int) async throws -> Int
    /// Deletes up to `limit` webhook deliveries and Google Wallet writes kept as failed since before `cutoff`;
    /// returns how many it deleted.
    func deleteFailedDeliveries(before cutoff: Date, limit: Int) async throws -> Int
    /// Deletes up to `limit` events that happened before `cutoff`; returns how many it deleted.
    func deletePassEvents(before cutoff: Date, limit: Int) async throws -> Int
    /// Deletes up to `limit` items of bulk changes that finished before `cutoff`, and those jobs once they have none
    /// left; returns how many rows it deleted.
    func deleteFinishedPassChangeJobs(before cutoff: Date, limit: Int) async throws -> Int
}
