import Foundation

/// Everything the provisioning server stores, as the one protocol `SQLWalletRepository` implements for SQLite and
/// PostgreSQL. Only the application's assembly and ``WalletAdministration`` hold it; each service holds the store it
/// uses (``ProvisioningStore``, ``PassWebServiceStore``, ``PassManagementStore``, ``PassChangeStore``,
/// ``ShareLinkStore``, ``LandingLinkStore``, ``PassTraceStore``, ``WebhookEndpointStore``, ``ExpiringRecordStore``,
/// ``PassTypeStore``, ``PassTypeIdentityStore``, ``APITokenStore``, ``GoogleWalletOutbox``, ``OrderStore``), and what
/// it adds here
/// is the operator's: clients, users, pass types and tags.
package protocol WalletRepository:
    APITokenStore, ProvisioningStore, PassManagementStore, PassChangeStore, PassWebServiceStore, LandingLinkStore,
    ShareLinkStore, PassTraceStore, WebhookEndpointStore, ExpiringRecordStore, PassTypeIdentityStore,
    GoogleWalletOutbox, OrderStore, PassChangeJobStore
{
    /// Creates a client.
    func createClient(name: String) async throws -> Client
    /// The client with `id`.
    func client(id: UUID) async throws -> Client?
    /// Every client, oldest first.
    func clients() async throws -> [Client]

    /// Creates an API user and returns it with its token; only the token's hash is stored.
    func createAPIUser(clientID: UUID, name: String) async throws -> (apiUser: APIUser, token: String)
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
    /// Lets the client issue passes under the pass type (granting it twice changes nothing).
    func grantPassType(passTypeID: UUID, clientID: UUID, now: Date) async throws
    /// Stops the client from issuing under the pass type; returns whether it could.
    func revokePassType(passTypeID: UUID, clientID: UUID) async throws -> Bool
    /// Stores an NFC key and makes it its pass type's current one (``PassType/nfcPublicKey``).
    func addNFCKey(_ key: PassTypeNFCKey) async throws
    /// The pass type's NFC keys, newest (the current one) first.
    func nfcKeys(passTypeID: UUID) async throws -> [PassTypeNFCKey]
    /// Stores (or, with `nil`, removes) the template archive passes of a pass type are made from.
    func setPassTemplate(passTypeID: UUID, archive: Data?) async throws

    /// Stores a tag.
    func createTag(_ tag: ClientTag) async throws
    /// Stores tags with their passes, all of them or none (each tag's user must be of the tag's client).
    func createTags(_ tags: [(tag: ClientTag, pass: StoredPass)]) async throws
    /// The tag with `id`.
    func tag(id: UUID) async throws -> ClientTag?
    /// The client's tag whose `attribute` is `value`.
    func tag(clientID: UUID, attribute: TagIDAttribute, value: String) async throws -> ClientTag?
    /// The client's tags, oldest first.
    func tags(clientID: UUID) async throws -> [ClientTag]

    /// Stores a pass.
    func createPass(_ pass: StoredPass) async throws
    /// The pass of a tag.
    func pass(tagID: UUID) async throws -> StoredPass?
    /// The pass with `id`.
    func pass(id: UUID) async throws -> StoredPass?
    /// Replaces a pass's mutable fields (content, binding data, key hash, update time); a signed archive kept for the
    /// pass is no longer served once its ``StoredPass/updatedAt`` moves.
    func updatePass(_ pass: StoredPass) async throws

    /// Records a provisioning session, under the SHA-256 of its identifier (never the identifier itself).
    func createSession(_ session: ProvisioningSession) async throws
}
