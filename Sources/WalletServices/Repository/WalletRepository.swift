import Foundation

/// Everything the provisioning server stores, as one protocol: controllers and the admin commands depend on it,
/// and `SQLWalletRepository` implements it once for SQLite and PostgreSQL. What the web service stores is in
/// ``PassWebServiceStore``, what the management API stores in ``PassManagementRepository``, and the web flow's landing
/// links in ``LandingLinkStore``, share links in ``ShareLinkStore``, passes' traces in ``PassTraceStore`` and webhook
/// endpoints in ``WebhookEndpointStore``.
package protocol WalletRepository:
    PassWebServiceStore, PassManagementRepository, LandingLinkStore, ShareLinkStore, PassTraceStore,
    WebhookEndpointStore
{
    /// Creates a client.
    func createClient(name: String) async throws -> Client
    /// The client with `id`.
    func client(id: UUID) async throws -> Client?
    /// Every client, oldest first.
    func clients() async throws -> [Client]

    /// Creates an API user and returns it with its token; only the token's hash is stored.
    func createAPIUser(clientID: UUID, name: String) async throws -> (apiUser: APIUser, token: String)
    /// The active (not revoked) API user whose token this is.
    func apiUser(token: String) async throws -> APIUser?
    /// The client's API users (revoked ones included), oldest first.
    func apiUsers(clientID: UUID) async throws -> [APIUser]
    /// Revokes an API user; returns whether an active one was revoked.
    func revokeAPIUser(id: UUID) async throws -> Bool

    /// Creates a user with a fresh account hash.
    func createUser(clientID: UUID, externalReference: String?) async throws -> User
    /// The user with `id`.
    func user(id: UUID) async throws -> User?
    /// The client's users, oldest first.
    func users(clientID: UUID) async throws -> [User]

    /// Stores a pass type.
    func createPassType(_ passType: PassType) async throws
    /// Changes a pass type's organization name, signing identity path and binding learn-more page.
    func updatePassType(_ passType: PassType) async throws
    /// The pass type with `id`.
    func passType(id: UUID) async throws -> PassType?
    /// Every pass type.
    func passTypes() async throws -> [PassType]
    /// Lets the client issue passes under the pass type (granting it twice changes nothing).
    func grantPassType(passTypeID: UUID, clientID: UUID, now: Date) async throws
    /// Stops the client from issuing under the pass type; returns whether it could.
    func revokePassType(passTypeID: UUID, clientID: UUID) async throws -> Bool
    /// Whether the client may issue passes under the pass type.
    func isPassTypeGranted(passTypeID: UUID, clientID: UUID) async throws -> Bool
    /// The pass types shared with the client, oldest first.
    func passTypes(sharedWith clientID: UUID) async throws -> [PassType]
    /// Stores an NFC key and makes it its pass type's current one (``PassType/nfcPublicKey``).
    func addNFCKey(_ key: PassTypeNFCKey) async throws
    /// The pass type's NFC keys, newest (the current one) first.
    func nfcKeys(passTypeID: UUID) async throws -> [PassTypeNFCKey]
    /// Stores (or, with `nil`, removes) the template archive passes of a pass type are made from.
    func setPassTemplate(passTypeID: UUID, archive: Data?) async throws

    /// Stores a tag.
    func createTag(_ tag: ClientTag) async throws
    /// Stores tags with their passes, all of them or none (each tag's user must be of the tag's client).
    func createTags(_ tags: [(tag: ClientTag, pass: ApplePass)]) async throws
    /// The tag with `id`.
    func tag(id: UUID) async throws -> ClientTag?
    /// The client's tag whose `attribute` is `value`.
    func tag(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> ClientTag?
    /// The client's tags, oldest first.
    func tags(clientID: UUID) async throws -> [ClientTag]

    /// The pass of the client's tag whose `attribute` is `value`, with its tag, user and pass type, read together.
    func provisioningTarget(clientID: UUID, attribute: TagIDAttribute, value: String) async throws
        -> ProvisioningTarget?
    /// What an issuance needs about the pass of the client's tag whose `attribute` is `value` (not the pass's
    /// content), read in one query.
    func issuanceTarget(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> IssuanceTarget?

    /// Stores a pass.
    func createPass(_ pass: ApplePass) async throws
    /// The pass of a tag.
    func pass(tagID: UUID) async throws -> ApplePass?
    /// The pass with `id`.
    func pass(id: UUID) async throws -> ApplePass?
    /// Replaces a pass's mutable fields (content, binding data, key hash, update time); a signed archive kept for the
    /// pass is no longer served once its ``ApplePass/updatedAt`` moves.
    func updatePass(_ pass: ApplePass) async throws

    /// Records a provisioning session, under the SHA-256 of its identifier (never the identifier itself).
    func createSession(_ session: ProvisioningSession) async throws
    /// Stores a pass's new binding data (``ApplePass/accountBindingData`` and ``ApplePass/updatedAt``, no other
    /// column), ends the pass's sessions still open (they can no longer be consumed) and opens the issuance's
    /// session, atomically: either all of it happens or none. It returns once that is durable.
    func recordIssuance(_ issuance: Issuance) async throws
    /// Stores what a device's callback bound (``ApplePass/issuerBindingData``, ``ApplePass/keyHash`` and
    /// ``ApplePass/updatedAt``, no other column), so that an issuance racing it cannot undo it, and spends the pass's
    /// landing links. With `authentication`, the pass's token becomes the new one, and its device registrations and
    /// pending pushes (its previous holder's) are dropped, in the same transaction.
    func recordBinding(_ pass: ApplePass, authentication: PassAuthenticationTokens.Assignment?) async throws
    /// Marks the session used if it exists, is unused and has not expired at `now`, atomically; returns it, or `nil`
    /// when it cannot be used (so a replayed or unknown session is refused).
    func consumeSession(id: String, now: Date) async throws -> ProvisioningSession?
    /// Deletes up to `limit` sessions that expired at or before `now`; returns how many it deleted.
    func deleteExpiredSessions(now: Date, limit: Int) async throws -> Int
}
