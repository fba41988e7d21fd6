import Foundation

/// The server's record of a tag's Apple Wallet pass: its content, and the account-binding state.
public struct StoredPass: Codable, Hashable, Sendable, Identifiable {
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
