import Foundation

/// A pass type's key for the Value Added Services protocol: a P-256 key pair whose public half every NFC pass of the
/// type carries as `nfc.encryptionPublicKey`, and whose private half (kept in the secret store) the NFC reader needs.
///
/// The newest key is the pass type's current one; older ones are kept, so that a reader can still read passes issued
/// before a rotation until they are next updated.
public struct PassTypeNFCKey: Codable, Hashable, Sendable, Identifiable {
    /// The key's identifier.
    public var id: UUID
    /// The pass type it belongs to.
    public var passTypeID: UUID
    /// Base64 of the DER X.509 SubjectPublicKeyInfo of the public key: what passes carry.
    public var publicKey: String
    /// Where the private key (PKCS#8 PEM) is kept in the secret store.
    public var keyPath: String
    /// When it was made or imported.
    public var createdAt: Date

    /// Creates a key record.
    public init(id: UUID = UUID(), passTypeID: UUID, publicKey: String, keyPath: String, createdAt: Date = Date()) {
        self.id = id
        self.passTypeID = passTypeID
        self.publicKey = publicKey
        self.keyPath = keyPath
        self.createdAt = createdAt
    }
}
