import CofferSupport
import Crypto
import CryptoExtras
import Foundation
import WalletDocuments

/// A Google Cloud service account's key, as the JSON file Google's console gives holds it: what signs save links and
/// the API's token requests. Its description names the account, never the key.
public struct GoogleServiceAccount: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The account's e-mail address: the issuer of every JWT it signs.
    public let clientEmail: String
    /// The key's identifier, sent as the JWT header's `kid`.
    public let privateKeyID: String?
    private let key: _RSA.Signing.PrivateKey

    /// Reads a service account key file (`client_email`, `private_key` as PEM, `private_key_id`).
    ///
    /// - Throws: ``WalletDocumentError/unreadableKey(_:)`` when it is not such a file or its key is not RSA.
    public init(json: Data) throws(WalletDocumentError) {
        guard case .object(let object)? = try? JSONValue(parsing: json),
            case .string(let email)? = object["client_email"], email.contains("@"),
            case .string(let pem)? = object["private_key"]
        else {
            throw .unreadableKey(
                "a Google service account key is the JSON file with client_email and private_key that the Google "
                    + "Cloud console downloads")
        }
        guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) else {
            throw .unreadableKey("the service account's private_key is not an RSA key in PEM")
        }
        clientEmail = email
        if case .string(let id)? = object["private_key_id"] { privateKeyID = id } else { privateKeyID = nil }
        self.key = key
    }

    /// A compact JWT of `claims`, signed RS256 (RSASSA-PKCS1-v1_5 with SHA-256) by the account's key.
    public func jwt(claims: [String: JSONValue]) throws -> String {
        var header: [String: JSONValue] = ["alg": .string("RS256"), "typ": .string("JWT")]
        if let privateKeyID { header["kid"] = .string(privateKeyID) }
        let signingInput =
            JSONValue.object(header).serialized().base64URLEncodedString + "."
            + JSONValue.object(claims).serialized().base64URLEncodedString
        do {
            let signature = try key.signature(for: Data(signingInput.utf8), padding: .insecurePKCS1v1_5)
            return signingInput + "." + signature.rawRepresentation.base64URLEncodedString
        } catch {
            throw WalletDocumentError.signingFailed("the service account's key could not sign")
        }
    }

    /// The account and its key's identifier.
    public var description: String { "GoogleServiceAccount(\(clientEmail), key \(privateKeyID ?? "without id"))" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}
