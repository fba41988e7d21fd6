import Foundation
import Secrets
import WalletGoogle

/// A pass type's Google Wallet issuer, as `coffer admin pass-type google show` tells it: the issuer ID and the
/// service account, never its key.
public struct GoogleIssuer: Codable, Hashable, Sendable {
    /// The issuer's number, from the Google Pay & Wallet console.
    public let issuerID: String
    /// The service account's e-mail address.
    public let serviceAccountEmail: String
    /// The service account key's identifier, if its file has one.
    public let keyID: String?
    /// Whether Google allowlisted the issuer for `merchantLocations`, so that passes' locations go along.
    public let mayUseMerchantLocations: Bool

    /// Where the service account key of the pass type `passTypeID` is kept in the secret store.
    public static func secretPath(passTypeID: UUID) -> String {
        "wallet/google-issuers/\(passTypeID.uuidString.lowercased())"
    }

    /// The service account of the pass type `passTypeID`'s issuer, read from `secrets`.
    ///
    /// - Throws: ``WalletServerError/corruptRecord(_:)`` when its key is gone from the store or unreadable; the
    ///   store's error when it cannot be read.
    package static func account(passTypeID: UUID, in secrets: any SecretsDataStoring) throws -> GoogleServiceAccount {
        guard let data = try secrets.readData(account: secretPath(passTypeID: passTypeID)),
            let account = try? GoogleServiceAccount(json: data)
        else { throw WalletServerError.corruptRecord("the Google service account key (set it again)") }
        return account
    }

    /// Whether `text` is an issuer ID: 1 to 20 digits.
    public static func isIssuerID(_ text: String) -> Bool {
        (1...20).contains(text.count) && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    enum CodingKeys: String, CodingKey {
        case issuerID = "issuer_id"
        case serviceAccountEmail = "service_account_email"
        case keyID = "key_id"
        case mayUseMerchantLocations = "merchant_locations"
    }
}
