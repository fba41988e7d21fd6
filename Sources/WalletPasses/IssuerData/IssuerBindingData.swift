import Foundation
import WalletDocuments

/// The account-binding data an issuer signs for in-app provisioning of an account-bound pass
/// (`PKAddPassesViewController(issuerData:signature:)`).
public struct IssuerBindingData: Codable, Hashable, Sendable {
    /// The relying party and account the pass is bound to.
    public var fidoProfile: FIDOProfile
    /// When the data was made, ISO 8601; the device accepts it only for 300 seconds.
    public var creationTimestamp: String
    /// Identifies the provisioning session in the callback.
    public var sessionIdentifier: String
    /// Where the device posts the binding result.
    public var callbackURL: String
    /// The pass type identifier.
    public var passTypeIdentifier: String
    /// The team identifier.
    public var teamIdentifier: String
    /// The issuer's name as the user sees it.
    public var displayableName: String

    /// How long after ``creationTimestamp`` a device accepts the data.
    public static let maximumAge: TimeInterval = 300

    /// Creates binding data stamped with `creationDate` (whole seconds, UTC).
    public init(
        relyingPartyIdentifier: String, accountHash: String, sessionIdentifier: String, callbackURL: String,
        passTypeIdentifier: String, teamIdentifier: String, displayableName: String, creationDate: Date = Date()
    ) {
        self.fidoProfile = FIDOProfile(relyingPartyIdentifier: relyingPartyIdentifier, accountHash: accountHash)
        self.creationTimestamp = W3CDate.string(
            from: Date(timeIntervalSince1970: creationDate.timeIntervalSince1970.rounded(.down)))
        self.sessionIdentifier = sessionIdentifier
        self.callbackURL = callbackURL
        self.passTypeIdentifier = passTypeIdentifier
        self.teamIdentifier = teamIdentifier
        self.displayableName = displayableName
    }

    /// The creation time, if ``creationTimestamp`` is valid ISO 8601.
    public var creationDate: Date? { W3CDate.date(from: creationTimestamp) }

    /// The serialized form that is signed: JSON with sorted keys and unescaped slashes. Serialize once and sign
    /// and send exactly these bytes.
    public func serialized() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// The pair the iOS API takes: the binding data and its detached signature, both Base64.
public struct SignedIssuerData: Codable, Hashable, Sendable {
    /// Base64 of the exact bytes that were signed.
    public let issuerData: String
    /// Base64 of the DER CMS signature over those bytes.
    public let signature: String

    private enum CodingKeys: String, CodingKey {
        case issuerData = "issuer_data"
        case signature
    }

    /// Creates the pair from the signed bytes and the signature.
    public init(bindingData: Data, signature: Data) {
        self.issuerData = bindingData.base64EncodedString()
        self.signature = signature.base64EncodedString()
    }
}

extension DocumentSigner {
    /// Serializes `binding` once, checks that this identity is for its pass type and team, and signs exactly the
    /// serialized bytes.
    public func sign(_ binding: IssuerBindingData, signingTime: Date = Date()) throws -> SignedIssuerData {
        try identity.check(passTypeIdentifier: binding.passTypeIdentifier, teamIdentifier: binding.teamIdentifier)
        let bytes = try binding.serialized()
        return SignedIssuerData(bindingData: bytes, signature: try signature(for: bytes, signingTime: signingTime))
    }
}
