import Foundation
import WalletOrders

/// A Pass Type ID (or, of ``Kind-swift.enum/order`` kind, an Order Type ID) the server signs for. Its signing identity
/// lives in Coffer's secret store at ``signingKeyPath``; a renewed one can wait beside it at ``nextSigningKeyPath``
/// until ``nextActivatesAt``.
public struct PassType: Codable, Hashable, Sendable, Identifiable {
    /// What a type's certificate signs.
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// Passes (a Pass Type ID certificate).
        case pass
        /// Orders (an Order Type ID certificate): the type has no passes, templates, NFC keys or Google issuer.
        case order
    }

    /// The pass type's identifier.
    public var id: UUID
    /// Whether it signs passes or orders.
    public var kind: Kind
    /// The pass type identifier, e.g. `pass.com.example.ticket` (an order type's: `order.com.example.shop`).
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
    /// Where the next identity (a renewed certificate) waits in the secret store, if one is staged.
    public var nextSigningKeyPath: String?
    /// When the next identity takes over signing and certificate-based pushes.
    public var nextActivatesAt: Date?
    /// Where the identity the current one replaced is kept until its certificate expires.
    public var retiredSigningKeyPath: String?
    /// The Google Wallet issuer its passes are also issued under, if any (its service account key is in the secret
    /// store at ``GoogleIssuer/secretPath(passTypeID:)``).
    public var googleIssuerID: String?
    /// Whether Google allowlisted that issuer for `merchantLocations`: only then do the passes' locations go along.
    public var googleMayUseMerchantLocations: Bool

    /// Creates a pass type record.
    public init(
        id: UUID = UUID(), passTypeIdentifier: String, teamIdentifier: String, organizationName: String,
        signingKeyPath: String, bindingLearnMoreURL: String? = nil, createdAt: Date = Date(),
        nfcPublicKey: String? = nil, nextSigningKeyPath: String? = nil, nextActivatesAt: Date? = nil,
        retiredSigningKeyPath: String? = nil, googleIssuerID: String? = nil,
        googleMayUseMerchantLocations: Bool = false, kind: Kind = .pass
    ) {
        self.kind = kind
        self.googleIssuerID = googleIssuerID
        self.googleMayUseMerchantLocations = googleMayUseMerchantLocations
        self.id = id
        self.passTypeIdentifier = passTypeIdentifier
        self.teamIdentifier = teamIdentifier
        self.organizationName = organizationName
        self.signingKeyPath = signingKeyPath
        self.bindingLearnMoreURL = bindingLearnMoreURL
        self.createdAt = createdAt
        self.nfcPublicKey = nfcPublicKey
        self.nextSigningKeyPath = nextSigningKeyPath
        self.nextActivatesAt = nextActivatesAt
        self.retiredSigningKeyPath = retiredSigningKeyPath
    }
}
