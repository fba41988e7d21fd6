import Foundation
import WalletDocuments

/// The `personalizationToken` Wallet sends when a user signs up for a rewards pass, checked before it is signed.
///
/// The personalize route has no authentication (Wallet sends none) and answers with a signature by the pass type's
/// key, the key that also signs `manifest.json`: a signature over bytes a caller chose would forge passes. So only a
/// token's shape is signed: Base64, Base64URL or hexadecimal text of ``lengths`` characters, which is never JSON,
/// a manifest or issuer data. ([Apple: Return a Personalized Pass](https://developer.apple.com/documentation/walletpasses/return-a-personalized-pass))
public struct PersonalizationToken: Hashable, Sendable {
    /// How many characters a token may have.
    public static let lengths: ClosedRange<Int> = 16...1024

    /// The token's text, exactly as Wallet sent it.
    public let text: String

    /// Checks `text`'s shape.
    ///
    /// - Throws: ``WalletDocumentError/invalidPersonalizationToken(_:)`` for text outside ``lengths``, or with a
    ///   character outside the Base64, Base64URL and hexadecimal alphabets (`=` padding only at the end).
    public init(_ text: String) throws(WalletDocumentError) {
        let bytes = Array(text.utf8)
        guard Self.lengths.contains(bytes.count) else {
            throw .invalidPersonalizationToken(
                "it must be \(Self.lengths.lowerBound) to \(Self.lengths.upperBound) characters")
        }
        let body = bytes.reversed().drop { $0 == UInt8(ascii: "=") }
        guard bytes.count - body.count <= 2, body.allSatisfy(Self.isTokenCharacter) else {
            throw .invalidPersonalizationToken(
                "it must be Base64, Base64URL or hexadecimal text ('=' padding only at the end)")
        }
        self.text = text
    }

    /// The bytes that are signed: the token's UTF-8.
    public var signedContent: Data { Data(text.utf8) }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "-"),
            UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}
