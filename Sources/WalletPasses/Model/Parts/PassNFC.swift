import Crypto
import Foundation
import WalletDocuments

/// Near-field communication data for Value Added Services passes (`nfc`).
public struct PassNFC: DocumentDictionary {
    /// Every key, as read or set.
    public var json: [String: JSONValue]

    /// Wraps an NFC dictionary as it is.
    public init(json: [String: JSONValue]) { self.json = json }

    /// Creates NFC data.
    public init(message: String, encryptionPublicKey: String? = nil, requiresAuthentication: Bool? = nil) {
        self.init(json: [:])
        self.message = message
        self.encryptionPublicKey = encryptionPublicKey
        self.requiresAuthentication = requiresAuthentication
    }

    /// The payload sent to the terminal, at most 64 bytes (required).
    public var message: String {
        get { self["message", default: ""] }
        set { self["message", default: ""] = newValue }
    }
    /// The terminal's public key, Base64 of an X.509 SubjectPublicKeyInfo of a P-256 key (required).
    public var encryptionPublicKey: String? {
        get { self["encryptionPublicKey"] }
        set { self["encryptionPublicKey"] = newValue }
    }
    /// Whether the user must authenticate before each use.
    public var requiresAuthentication: Bool? {
        get { self["requiresAuthentication"] }
        set { self["requiresAuthentication"] = newValue }
    }

    /// Whether `text` is what `encryptionPublicKey` must hold: Base64 of the DER X.509 SubjectPublicKeyInfo of a
    /// P-256 public key, parsed as one (a key of another curve, or bytes that merely look like one, is not).
    public static func isP256PublicKey(_ text: String) -> Bool {
        guard let der = Data(base64Encoded: text) else { return false }
        return (try? P256.KeyAgreement.PublicKey(derRepresentation: der)) != nil
    }

    /// The keys of an NFC dictionary.
    public static let schema = DocumentSchema(
        "NFC",
        [
            .init("message", .string, required: true),
            .init("encryptionPublicKey", .string, required: true),
            .init("requiresAuthentication", .boolean),
        ])
}
