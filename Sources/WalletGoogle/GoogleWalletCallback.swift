import Crypto
import Foundation

/// A save or delete callback from Google Wallet, verified: Google signs each with an intermediate key it signs with
/// one of its published root keys (`ECv2SigningOnly`: ECDSA P-256 with SHA-256 over length-prefixed parts,
/// [Google](https://developers.google.com/wallet/generic/use-cases/use-callbacks-for-saves-and-deletions)).
///
/// Verification checks the intermediate key against the root keys, its expiry, the message's signature for this
/// issuer, and the message's own expiry; replays are for the caller to refuse, by ``nonce``.
public struct GoogleWalletCallback: Hashable, Sendable {
    /// What the holder did.
    public enum Event: String, Hashable, Sendable {
        /// Saved the pass to Google Wallet.
        case saved = "save"
        /// Removed it.
        case removed = "del"
    }

    /// Why a callback is refused.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// The body is not a callback's shape.
        case malformed(String)
        /// A signature does not verify (another issuer's message, a forged or changed one, an unknown root).
        case badSignature(String)
        /// The intermediate key or the message has expired.
        case expired(String)

        /// What is wrong.
        public var description: String {
            switch self {
            case .malformed(let reason): "the callback is malformed: \(reason)"
            case .badSignature(let reason): "the callback's signature does not verify: \(reason)"
            case .expired(let reason): "the callback has expired: \(reason)"
            }
        }
    }

    /// The sender Google's class callbacks name: the callbacks page names `GooglePayPasses` for them and a message
    /// Google really signed verifies with it; `GoogleWalletPasses` belongs to another format (private passes'
    /// issuer-level callbacks), which Coffer does not receive.
    public static let senderID = "GooglePayPasses"
    /// The only protocol the callbacks use.
    public static let protocolVersion = "ECv2SigningOnly"
    /// The most signatures of the intermediate key that are verified.
    public static let maximumKeySignatures = 4
    /// Where Google publishes its root signing keys.
    public static let rootKeysURL = "https://pay.google.com/gp/m/issuer/keys"

    /// The class of the pass (`<issuer id>.<suffix>`).
    public let classID: String
    /// The object (`<issuer id>.<suffix>`).
    public let objectID: String
    /// Whether it was saved or removed.
    public let event: Event
    /// The message's unique value: a second callback with it is a replay.
    public let nonce: String
    /// When the message stops being valid.
    public let expiresAt: Date

    /// Verifies `body` for the issuer `issuerID` at `now` against Google's `rootKeys`.
    ///
    /// - Throws: ``Failure``.
    public init(
        verifying body: Data, rootKeys: [P256.Signing.PublicKey], issuerID: String, senderID: String = senderID,
        now: Date = Date()
    ) throws(Failure) {
        guard let outer = try? JSONSerialization.jsonObject(with: body) as? [String: Any], outer.count == 4,
            outer["protocolVersion"] as? String == Self.protocolVersion,
            let signature = (outer["signature"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let signedMessage = outer["signedMessage"] as? String,
            let intermediate = outer["intermediateSigningKey"] as? [String: Any],
            let signedKey = intermediate["signedKey"] as? String,
            let keySignatures = intermediate["signatures"] as? [String]
        else {
            throw .malformed(
                "expected protocolVersion ECv2SigningOnly, signature, intermediateSigningKey and signedMessage only")
        }
        // Google signs with one root key at a time, two while it rotates them: more is not worth verifying.
        guard keySignatures.count <= Self.maximumKeySignatures else {
            throw .malformed("the intermediate key has more than \(Self.maximumKeySignatures) signatures")
        }
        let keyBytes = Self.lengthPrefixed([senderID, Self.protocolVersion, signedKey])
        let signedByRoot = keySignatures.contains { text in
            guard let der = Data(base64Encoded: text),
                let signature = try? P256.Signing.ECDSASignature(derRepresentation: der)
            else { return false }
            return rootKeys.contains { $0.isValidSignature(signature, for: keyBytes) }
        }
        guard signedByRoot else { throw .badSignature("no root key signed its intermediate key") }
        guard let key = try? JSONSerialization.jsonObject(with: Data(signedKey.utf8)) as? [String: Any],
            let keyValue = (key["keyValue"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let publicKey = try? P256.Signing.PublicKey(derRepresentation: keyValue),
            let keyExpiration = Self.milliseconds(key["keyExpiration"])
        else { throw .malformed("its intermediate key is not a P-256 keyValue with a keyExpiration") }
        guard keyExpiration > now else { throw .expired("its intermediate key expired at \(keyExpiration)") }
        guard
            Self.isSigned(
                signedMessage, signature: signature, by: publicKey, issuerID: issuerID, senderID: senderID)
        else { throw .badSignature("the message is not signed by its intermediate key for this issuer") }
        guard let message = try? JSONSerialization.jsonObject(with: Data(signedMessage.utf8)) as? [String: Any],
            let classID = message["classId"] as? String, let objectID = message["objectId"] as? String,
            let event = (message["eventType"] as? String).flatMap(Event.init(rawValue:)),
            let nonce = message["nonce"] as? String, !nonce.isEmpty,
            let expiresAt = Self.milliseconds(message["expTimeMillis"])
        else {
            throw .malformed("its message lacks classId, objectId, eventType (save or del), nonce or expTimeMillis")
        }
        guard expiresAt > now else { throw .expired("its message expired at \(expiresAt)") }
        self.classID = classID
        self.objectID = objectID
        self.event = event
        self.nonce = nonce
        self.expiresAt = expiresAt
    }

    /// Google's published root keys (`{"keys": [{"keyValue", "protocolVersion", "keyExpiration"}]}`) that are for
    /// ``protocolVersion`` and unexpired at `now`.
    ///
    /// - Throws: ``Failure/malformed(_:)`` when the document is not that shape.
    public static func rootKeys(json: Data, now: Date = Date()) throws(Failure) -> [P256.Signing.PublicKey] {
        guard let document = try? JSONSerialization.jsonObject(with: json) as? [String: Any],
            let keys = document["keys"] as? [[String: Any]]
        else { throw .malformed("the root keys are not {\"keys\": [...]}") }
        return keys.compactMap { key in
            guard key["protocolVersion"] as? String == protocolVersion,
                let expiration = milliseconds(key["keyExpiration"]), expiration > now,
                let value = (key["keyValue"] as? String).flatMap({ Data(base64Encoded: $0) })
            else { return nil }
            return try? P256.Signing.PublicKey(derRepresentation: value)
        }
    }

    /// Whether `signature` (DER) is `key`'s ECDSA signature of `signedMessage` sent by `senderID` to the issuer
    /// `issuerID`: the message-level step of verification.
    package static func isSigned(
        _ signedMessage: String, signature: Data, by key: P256.Signing.PublicKey, issuerID: String, senderID: String
    ) -> Bool {
        guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
        return key.isValidSignature(
            signature, for: lengthPrefixed([senderID, issuerID, protocolVersion, signedMessage]))
    }

    /// Each part as its UTF-8 length (4 bytes, little-endian) and bytes: what Google signs.
    package static func lengthPrefixed(_ parts: [String]) -> Data {
        var bytes = Data()
        for part in parts {
            let utf8 = Data(part.utf8)
            withUnsafeBytes(of: UInt32(utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(utf8)
        }
        return bytes
    }

    /// Milliseconds since 1970, given as a number or a string of digits.
    private static func milliseconds(_ value: Any?) -> Date? {
        let number: Double? =
            if let text = value as? String { Double(text) } else { (value as? NSNumber)?.doubleValue }
        return number.map { Date(timeIntervalSince1970: $0 / 1000) }
    }
}
