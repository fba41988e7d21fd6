import Foundation
import WalletDocuments

/// An "Add to Google Wallet" link: `https://pay.google.com/gp/v/save/<JWT>`, the JWT signed by the issuer's service
/// account and carrying the pass's class and object
/// ([Google](https://developers.google.com/wallet/reference/rest/v1/Jwt)).
///
/// A link longer than ``maximumLength`` is cut by some browsers, so it then carries only the object's and class's
/// identifiers (a "skinny" JWT): the class and object must be inserted through the API first.
public struct GoogleSaveLink: Hashable, Sendable {
    /// The longest link sent whole, in characters (the limit Google's converter keeps to).
    public static let maximumLength = 1800
    /// Where a save link points.
    public static let prefix = "https://pay.google.com/gp/v/save/"

    /// The link.
    public let url: String
    /// Whether it names the class and object only, which must then exist in Google Wallet.
    public let isSkinny: Bool

    /// The link of `conversion`, signed by `account`, for buttons on the web pages of `origins` (`https://host`),
    /// with JWT's standard `exp` claim at `expiresAt` when given (Google's reference lists no `exp`, so Google may
    /// ignore it).
    ///
    /// - Throws: ``WalletDocumentError/signingFailed(_:)`` when the key cannot sign.
    public init(
        _ conversion: GooglePassConversion, account: GoogleServiceAccount, origins: [String] = [],
        issuedAt: Date = Date(), expiresAt: Date? = nil
    ) throws {
        let type = conversion.walletClass.type
        let encoder = JSONEncoder()
        func json(_ value: some Encodable) throws -> JSONValue { try JSONValue(parsing: try encoder.encode(value)) }
        func link(_ payload: [String: JSONValue]) throws -> String {
            var claims: [String: JSONValue] = [
                "iss": .string(account.clientEmail), "aud": .string("google"), "typ": .string("savetowallet"),
                "iat": .number(Double(Int64(issuedAt.timeIntervalSince1970))),
                "origins": .array(origins.map(JSONValue.string)), "payload": .object(payload),
            ]
            if let expiresAt { claims["exp"] = .number(Double(Int64(expiresAt.timeIntervalSince1970))) }
            return Self.prefix + (try account.jwt(claims: claims))
        }
        let whole = try link([
            type.classesPayloadKey: .array([try json(conversion.walletClass)]),
            type.objectsPayloadKey: .array([try json(conversion.walletObject)]),
        ])
        if whole.count <= Self.maximumLength {
            url = whole
            isSkinny = false
        } else {
            url = try link([
                type.objectsPayloadKey: .array([
                    .object([
                        "id": .string(conversion.walletObject.id), "classId": .string(conversion.walletObject.classId),
                    ])
                ])
            ])
            isSkinny = true
        }
    }
}
