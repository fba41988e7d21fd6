import Foundation

/// What orders store: the orders with their order types, changes that queue pushes, and Wallet's registrations.
/// `SQLWalletRepository` implements it.
package protocol OrderStore: PassTypeStore, DeviceRegistrationStore {
    /// Stores `order` (its update tag the next of the `update_tag` counter) and answers what `encode` writes of it,
    /// in one transaction; with a `claim`, as ``PassManagementStore/createManagedPass(_:claim:now:encode:)`` does:
    /// a retry of the same request answers the stored answer and stores nothing.
    ///
    /// - Throws: ``PassManagementFailure/conflict(_:)`` when the order type has an order with its identifier,
    ///   ``PassManagementFailure/idempotencyKeyReused`` for a key used with another request.
    ///
    /// The client's orders may hold at most `storageLimit` bytes together, on every replica: past it, nothing is stored
    /// and ``PassManagementFailure/forbidden(_:)`` says so.
    func createOrder(
        _ order: StoredOrder, claim: IdempotencyClaim?, now: Date, storageLimit: Int,
        encode: @escaping @Sendable (StoredOrder) throws -> Data
    ) async throws -> StoredResponse

    /// The order of `orderTypeIdentifier` with `orderIdentifier`, with its order type, in one query.
    func order(orderTypeIdentifier: String, orderIdentifier: String) async throws
        -> (order: StoredOrder, orderType: PassType)?

    /// Rewrites the order's package with what `rewrite` makes of the one stored (read under the row's lock), moves
    /// its `Last-Modified` to the next whole second at least, gives it the next update tag and queues a push to each
    /// registered device that has none waiting, in one transaction; the order as stored and the pushes queued. A
    /// change that grows the client's orders past `storageLimit` bytes changes nothing
    /// (``PassManagementFailure/forbidden(_:)``).
    func changeOrder(
        id: UUID, now: Date, storageLimit: Int, rewriting rewrite: @escaping @Sendable (Data) throws -> Data
    ) async throws -> (order: StoredOrder, queuedPushes: Int)
}
