import Foundation
import Secrets

/// A pass issuer's customer: the owner of users, tags and API users. Every API request is scoped to one client.
public struct Client: Codable, Hashable, Sendable, Identifiable {
    /// The client's identifier.
    public var id: UUID
    /// The client's display name.
    public var name: String
    /// When it was created.
    public var createdAt: Date

    /// Creates a client.
    public init(id: UUID = UUID(), name: String, createdAt: Date = Date()) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }
}

/// A credential for the API, belonging to a client. Only a SHA-256 hash of its token is stored; the token itself
/// is shown once, when the API user is created.
public struct APIUser: Codable, Hashable, Sendable, Identifiable {
    /// The API user's identifier.
    public var id: UUID
    /// The client whose data the token may reach.
    public var clientID: UUID
    /// A name for people ("iOS app", "staging").
    public var name: String
    /// SHA-256 of the token.
    public var tokenHash: Data
    /// When it was created.
    public var createdAt: Date
    /// When it was revoked (soft delete); a revoked token no longer authenticates.
    public var revokedAt: Date?

    /// Creates an API user record.
    public init(
        id: UUID = UUID(), clientID: UUID, name: String, tokenHash: Data, createdAt: Date = Date(),
        revokedAt: Date? = nil
    ) {
        self.id = id
        self.clientID = clientID
        self.name = name
        self.tokenHash = tokenHash
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

/// A client's end user, whose passes are bound to their account through a stable, non-guessable hash.
public struct User: Codable, Hashable, Sendable, Identifiable {
    /// The user's identifier.
    public var id: UUID
    /// The client the user belongs to.
    public var clientID: UUID
    /// The client's own reference for the user (an e-mail address, a customer number), if any.
    public var externalReference: String?
    /// The account hash sent as `fidoProfile.accountHash`: random, stable, unrelated to any personal data.
    public var accountHash: String
    /// When it was created.
    public var createdAt: Date

    /// Creates a user with a fresh account hash.
    public init(
        id: UUID = UUID(), clientID: UUID, externalReference: String? = nil,
        accountHash: String = SecureRandom.hex(byteCount: 16), createdAt: Date = Date()
    ) {
        self.id = id
        self.clientID = clientID
        self.externalReference = externalReference
        self.accountHash = accountHash
        self.createdAt = createdAt
    }
}

/// A Pass Type ID the server signs for. Its signing identity lives in Coffer's secret store at ``signingKeyPath``.
public struct PassType: Codable, Hashable, Sendable, Identifiable {
    /// The pass type's identifier.
    public var id: UUID
    /// The pass type identifier, e.g. `pass.com.example.ticket`.
    public var passTypeIdentifier: String
    /// The Apple team identifier.
    public var teamIdentifier: String
    /// The organization name shown to users.
    public var organizationName: String
    /// Where the signing identity is kept in the secret store.
    public var signingKeyPath: String
    /// The page bound passes of this type link to from their binding (`issuerBindingData.learnMoreURL`), if any.
    public var bindingLearnMoreURL: String?
    /// When it was created.
    public var createdAt: Date
    /// The current NFC key's public half (Base64 SubjectPublicKeyInfo, P-256) that every NFC pass of the type carries
    /// as `nfc.encryptionPublicKey`; `nil` until one is made (``PassTypeNFCKey``).
    public var nfcPublicKey: String?

    /// Creates a pass type record.
    public init(
        id: UUID = UUID(), passTypeIdentifier: String, teamIdentifier: String, organizationName: String,
        signingKeyPath: String, bindingLearnMoreURL: String? = nil, createdAt: Date = Date(),
        nfcPublicKey: String? = nil
    ) {
        self.id = id
        self.passTypeIdentifier = passTypeIdentifier
        self.teamIdentifier = teamIdentifier
        self.organizationName = organizationName
        self.signingKeyPath = signingKeyPath
        self.bindingLearnMoreURL = bindingLearnMoreURL
        self.createdAt = createdAt
        self.nfcPublicKey = nfcPublicKey
    }
}

/// The attribute a tag is looked up by in the API (`id_attribute`).
public enum TagIDAttribute: String, Codable, Hashable, Sendable, CaseIterable {
    /// The client's reference.
    case referenceID = "reference_id"
    /// Pronto's own tag identifier.
    case prontoTagID = "pronto_tag_id"
    /// A subscription identifier.
    case subscriptionID = "subscription_id"
}

/// A client's tag (a ticket, a membership) for one user; it may have an Apple pass.
public struct ClientTag: Codable, Hashable, Sendable, Identifiable {
    /// The tag's identifier.
    public var id: UUID
    /// The client it belongs to.
    public var clientID: UUID
    /// The user it belongs to.
    public var userID: UUID
    /// The client's reference, unique within the client.
    public var referenceID: String?
    /// Pronto's tag identifier, unique within the client.
    public var prontoTagID: String?
    /// A subscription identifier, unique within the client.
    public var subscriptionID: String?
    /// When it was created.
    public var createdAt: Date

    /// Creates a tag.
    public init(
        id: UUID = UUID(), clientID: UUID, userID: UUID, referenceID: String? = nil, prontoTagID: String? = nil,
        subscriptionID: String? = nil, createdAt: Date = Date()
    ) {
        self.id = id
        self.clientID = clientID
        self.userID = userID
        self.referenceID = referenceID
        self.prontoTagID = prontoTagID
        self.subscriptionID = subscriptionID
        self.createdAt = createdAt
    }
}

/// An Apple Wallet pass for a tag: its content, and the account-binding state.
public struct ApplePass: Codable, Hashable, Sendable, Identifiable {
    /// The pass's identifier.
    public var id: UUID
    /// The tag it belongs to (one pass per tag).
    public var tagID: UUID
    /// The pass type it is signed for.
    public var passTypeID: UUID
    /// The pass's serial number.
    public var serialNumber: String
    /// The `pass.json` template, without the account-binding keys.
    public var passContent: Data
    /// The binding data last signed for this pass, if any: the JSON that was signed, with its `sessionIdentifier`
    /// replaced by `sha256:` and the hex SHA-256 of the identifier (the database never holds the identifier).
    public var accountBindingData: Data?
    /// The issuer binding data the device returned, hex.
    public var issuerBindingData: String?
    /// The device key hash the device returned, hex.
    public var keyHash: String?
    /// When the pass last changed.
    public var updatedAt: Date
    /// When what devices fetch from the web service last changed (its `Last-Modified`): content, personalization.
    /// Two changes are at least a second apart, so that `If-Modified-Since` (whole seconds) tells them apart.
    public var modifiedAt: Date
    /// The web service's update tag of the pass's last change: a device that listed passes updated since a tag
    /// gets the passes whose tag is greater.
    public var updateTag: Int64

    /// Creates a pass record; ``modifiedAt`` is `updatedAt` unless given.
    public init(
        id: UUID = UUID(), tagID: UUID, passTypeID: UUID, serialNumber: String, passContent: Data,
        accountBindingData: Data? = nil, issuerBindingData: String? = nil, keyHash: String? = nil,
        updatedAt: Date = Date(), modifiedAt: Date? = nil, updateTag: Int64 = 0
    ) {
        self.id = id
        self.tagID = tagID
        self.passTypeID = passTypeID
        self.serialNumber = serialNumber
        self.passContent = passContent
        self.accountBindingData = accountBindingData
        self.issuerBindingData = issuerBindingData
        self.keyHash = keyHash
        self.updatedAt = updatedAt
        self.modifiedAt = modifiedAt ?? updatedAt
        self.updateTag = updateTag
    }
}

/// A provisioning session the server issued with issuer data; the device's callback must name one that exists,
/// has not expired, and has not been used.
package struct ProvisioningSession: Codable, Hashable, Sendable {
    /// The random session identifier sent as `sessionIdentifier`. The database stores only its SHA-256; a session
    /// read back carries the identifier it was looked up with.
    package var id: String
    /// The pass being provisioned.
    package var passID: UUID
    /// When it was issued.
    package var createdAt: Date
    /// When it stops being accepted.
    package var expiresAt: Date
    /// When a callback used it, if one did.
    package var usedAt: Date?

    /// Creates a session.
    package init(id: String, passID: UUID, createdAt: Date, expiresAt: Date, usedAt: Date? = nil) {
        self.id = id
        self.passID = passID
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}
