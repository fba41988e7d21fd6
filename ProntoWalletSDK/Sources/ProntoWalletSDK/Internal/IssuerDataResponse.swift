import Foundation

/// The body of a successful `POST /api/v2/in_app_provisioning/issuer_data`:
/// `{"issuer_data": "<base64>", "signature": "<base64>", "tag_id": "…"}`, and from Coffer's server also the pass's
/// `pass_type_identifier` and `serial_number`.
///
/// `tag_id` may be a string (WalletServer sends a UUID) or an integer (a server that renders a database id); either
/// is kept as its text.
struct IssuerDataResponse: Decodable, Sendable {
    let issuerData: String
    let signature: String
    let tagId: String
    /// The pass, when the server named both its pass type identifier and its serial number.
    let pass: WalletPassIdentity?

    enum CodingKeys: String, CodingKey {
        case issuerData = "issuer_data"
        case signature
        case tagId = "tag_id"
        case passTypeIdentifier = "pass_type_identifier"
        case serialNumber = "serial_number"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuerData = try container.decode(String.self, forKey: .issuerData)
        signature = try container.decode(String.self, forKey: .signature)
        if let number = try? container.decode(Int64.self, forKey: .tagId) {
            tagId = String(number)
        } else {
            tagId = try container.decode(String.self, forKey: .tagId)
        }
        // Optional, and ignored unless both are non-empty strings: an answer without them still adds the pass.
        let passTypeIdentifier = try? container.decodeIfPresent(String.self, forKey: .passTypeIdentifier)
        let serialNumber = try? container.decodeIfPresent(String.self, forKey: .serialNumber)
        if let passTypeIdentifier, let serialNumber, !passTypeIdentifier.isEmpty, !serialNumber.isEmpty {
            pass = WalletPassIdentity(passTypeIdentifier: passTypeIdentifier, serialNumber: serialNumber)
        } else {
            pass = nil
        }
    }
}

/// The message of an error answer, in the shapes servers use: `{"error": {"message": "…"}}` (WalletServer),
/// `{"error": "…"}` and `{"message": "…"}` (Rails); `nil` for anything else.
enum ServerErrorMessage {
    /// The longest message kept; a longer one is cut, so that a misbehaving server cannot flood an app's logs.
    static let maximumLength = 500

    static func message(in body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        let candidates: [Any?] = [
            (object["error"] as? [String: Any])?["message"], object["error"], object["message"],
        ]
        guard let message = candidates.lazy.compactMap({ $0 as? String }).first(where: { !$0.isEmpty }) else {
            return nil
        }
        return message.count > maximumLength ? String(message.prefix(maximumLength)) + "…" : message
    }
}
