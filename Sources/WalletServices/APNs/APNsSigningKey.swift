import Crypto
import Foundation

/// An APNs authentication key (a `.p8` file from App Store Connect: a P-256 private key in PKCS#8 PEM) with the key
/// ID and team ID that go into every provider token.
///
/// The private key never prints: ``description``, ``debugDescription`` and `dump` show the key ID and team only.
public struct APNsSigningKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The key's identifier (`kid` in the token's header), 10 letters and digits.
    public let keyID: String
    /// The Apple developer team the key belongs to (`iss` in the token's claims), 10 letters and digits.
    public let teamID: String
    let privateKey: P256.Signing.PrivateKey

    /// Reads a key from the text of a `.p8` file (PKCS#8 PEM, `-----BEGIN PRIVATE KEY-----`).
    ///
    /// - Throws: ``APNsError/unreadableSigningKey(_:)`` when the text is not a P-256 private key,
    ///   ``APNsError/invalidKeyID`` or ``APNsError/invalidTeamID`` when those are not 10 letters and digits.
    public init(pem: String, keyID: String, teamID: String) throws(APNsError) {
        guard Self.isIdentifier(keyID) else { throw .invalidKeyID }
        guard Self.isIdentifier(teamID) else { throw .invalidTeamID }
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw .unreadableSigningKey("not a P-256 private key in PEM")
        }
        self.keyID = keyID
        self.teamID = teamID
    }

    /// Wraps a P-256 key already in memory.
    ///
    /// - Throws: ``APNsError/invalidKeyID`` or ``APNsError/invalidTeamID`` when those are not 10 letters and digits.
    public init(privateKey: P256.Signing.PrivateKey, keyID: String, teamID: String) throws(APNsError) {
        guard Self.isIdentifier(keyID) else { throw .invalidKeyID }
        guard Self.isIdentifier(teamID) else { throw .invalidTeamID }
        self.privateKey = privateKey
        self.keyID = keyID
        self.teamID = teamID
    }

    /// Reads a key from a `.p8` file.
    ///
    /// - Throws: ``APNsError/unreadableSigningKey(_:)`` when the file cannot be read or holds no P-256 key, and the
    ///   errors of ``init(pem:keyID:teamID:)``.
    public init(contentsOf file: URL, keyID: String, teamID: String) throws(APNsError) {
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw .unreadableSigningKey("\(file.path) cannot be read")
        }
        try self.init(pem: text, keyID: keyID, teamID: teamID)
    }

    /// The public half, which verifies the tokens this key signs.
    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// The key ID and team; never the key.
    public var description: String { "APNsSigningKey(key ID \(keyID), team \(teamID))" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The key ID and team; the key shows as `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: ["keyID": keyID, "teamID": teamID, "privateKey": "<redacted>"], displayStyle: .struct)
    }

    /// Whether `text` is 10 ASCII letters and digits, as Apple's key and team identifiers are.
    static func isIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10
            && text.utf8.allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }
}
