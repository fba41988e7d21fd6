import Foundation

/// Signed issuer data for one tag's pass, as the server issued it: what
/// `PKAddPassesViewController(issuerData:signature:)` takes.
public struct IssuerData: Hashable, Sendable {
    /// The server's own ID of the tag the issuer data is for (not necessarily the identifier it was asked with).
    public let tagId: String
    /// The issuer data as the server sent it: base64 text of the signed JSON binding data.
    public let base64IssuerData: String
    /// The signature as the server sent it: base64 text of a detached DER CMS signature over ``issuerData``.
    public let base64Signature: String
    /// The pass the issuer data adds, when the server says which (Coffer's server does): how the SDK finds it in
    /// Wallet afterwards.
    public let pass: WalletPassIdentity?

    /// The signed JSON binding data (decoded).
    public var issuerData: Data { Data(base64Encoded: base64IssuerData) ?? Data() }
    /// The DER CMS signature over ``issuerData`` (decoded).
    public var signature: Data { Data(base64Encoded: base64Signature) ?? Data() }

    /// The `issuerData` argument of `PKAddPassesViewController(issuerData:signature:)`: the base64 text's bytes,
    /// because PassKit decodes the base64 itself.
    public var passKitIssuerData: Data { Data(base64IssuerData.utf8) }
    /// The `signature` argument of `PKAddPassesViewController(issuerData:signature:)`: the base64 text's bytes.
    public var passKitSignature: Data { Data(base64Signature.utf8) }

    /// Creates issuer data from the server's base64 fields, or `nil` when either is empty or not base64.
    public init?(tagId: String, base64IssuerData: String, base64Signature: String, pass: WalletPassIdentity? = nil) {
        guard let data = Data(base64Encoded: base64IssuerData), !data.isEmpty,
            let signature = Data(base64Encoded: base64Signature), !signature.isEmpty
        else { return nil }
        self.tagId = tagId
        self.base64IssuerData = base64IssuerData
        self.base64Signature = base64Signature
        self.pass = pass
    }
}
