import Foundation

/// What ``ProvisioningService`` stores and reads: the tag a request names, issuances with their sessions, and the
/// bindings devices call back with.
package protocol ProvisioningStore: TagLookup {
    /// The pass of the client's tag whose `attribute` is `value`, with its tag, user and pass type, read together.
    func provisioningTarget(clientID: UUID, attribute: TagIDAttribute, value: String) async throws
        -> ProvisioningTarget?

    /// Stores a pass's new binding data (``StoredPass/accountBindingData`` and ``StoredPass/updatedAt``, no other
    /// column), ends the pass's sessions still open (they can no longer be consumed) and opens the issuance's
    /// session, atomically: either all of it happens or none. It returns once that is durable.
    func recordIssuance(_ issuance: Issuance) async throws
    /// Stores what a device's callback bound (``StoredPass/issuerBindingData``, ``StoredPass/keyHash`` and
    /// ``StoredPass/updatedAt``, no other column), so that an issuance racing it cannot undo it, and spends the pass's
    /// landing links. With `authentication`, the pass's token becomes the new one, and its device registrations and
    /// pending pushes (its previous holder's) are dropped, in the same transaction.
    func recordBinding(_ pass: StoredPass, authentication: PassAuthenticationTokens.Assignment?) async throws
    /// Marks the session used if it exists, is unused and has not expired at `now`, atomically; returns it, or `nil`
    /// when it cannot be used (so a replayed or unknown session is refused).
    func consumeSession(id: String, now: Date) async throws -> ProvisioningSession?
}
