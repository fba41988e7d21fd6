import Foundation

/// What the management API stores and reads: idempotent creation, pass types' templates, and passes' states, with
/// the pass types and tags they belong to. ``WalletRepository`` includes it; `SQLWalletRepository` implements it.
package protocol PassManagementStore: PassTypeStore, TagLookup {
    /// The template archive stored for a pass type, or `nil` when it has none (or does not exist).
    func passTemplate(passTypeID: UUID) async throws -> Data?

    /// Makes a tag (owned by the client's oldest user with `userReference`, or a new user) with its pass, and answers
    /// its state as `encode` writes it, in one transaction.
    ///
    /// With a `claim`, the key is claimed in the same transaction first: if the client used it within
    /// ``IdempotencyKey/lifetime`` for the same request, nothing is made and the stored answer is returned
    /// (``StoredResponse/replayed``); for another request it throws ``PassManagementFailure/idempotencyKeyReused``.
    /// Concurrent requests with one key make one pass.
    ///
    /// - Throws: ``PassManagementFailure/conflict(_:)`` when the client has a tag with one of the identifiers.
    func createManagedPass(
        _ creation: ManagedPassCreation, claim: IdempotencyClaim?, now: Date,
        encode: @escaping @Sendable (ManagedPassState) throws -> Data
    ) async throws -> StoredResponse

    /// The state of the pass of the client's tag whose `attribute` is `value`, or `nil` when there is none.
    func managedPassState(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> ManagedPassState?

    /// Up to `limit` states of the client's passes after `cursor`, oldest tag first, with the cursor of the last.
    func managedPasses(clientID: UUID, after cursor: PassPageCursor?, limit: Int) async throws
        -> [(state: ManagedPassState, cursor: PassPageCursor)]
}

/// A tag and its pass, ready to store: everything but the owner, who is found (or made) by ``userReference``.
package struct ManagedPassCreation: Sendable {
    /// The client.
    package let clientID: UUID
    /// The tag's identifier.
    package let tagID: UUID
    /// The client's reference for the tag.
    package let referenceID: String?
    /// Pronto's tag identifier.
    package let prontoTagID: String?
    /// A subscription identifier.
    package let subscriptionID: String?
    /// The client's reference for the owner.
    package let userReference: String?
    /// The pass (for the tag ``tagID``).
    package let pass: StoredPass

    /// Creates a creation.
    package init(
        clientID: UUID, tagID: UUID, referenceID: String?, prontoTagID: String?, subscriptionID: String?,
        userReference: String?, pass: StoredPass
    ) {
        self.clientID = clientID
        self.tagID = tagID
        self.referenceID = referenceID
        self.prontoTagID = prontoTagID
        self.subscriptionID = subscriptionID
        self.userReference = userReference
        self.pass = pass
    }
}
