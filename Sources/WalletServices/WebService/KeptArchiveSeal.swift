import Crypto
import Foundation

/// Seals the signed archives the server keeps between fetches (``PassRenderer/signedArchive(passID:signingTime:)``):
/// an archive carries its pass's `authenticationToken`, and the database alone must not reveal one.
///
/// AES-256-GCM under a key derived (HKDF-SHA256) from the web service's key in the secret store, with the pass and
/// the version the archive was signed at as associated data, so that a sealed archive opens for no other pass or
/// version.
struct KeptArchiveSeal: Sendable {
    private let key: SymmetricKey

    /// The seal derived from the web service's key.
    init(webServiceKey: SymmetricKey) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: webServiceKey, info: Data("coffer kept pass archives v1".utf8), outputByteCount: 32)
    }

    /// `pkpass` sealed for the pass `passID` at `version`.
    func seal(_ pkpass: Data, passID: UUID, version: Data) throws -> Data {
        try AES.GCM.seal(pkpass, using: key, authenticating: Self.context(passID, version)).combined ?? Data()
    }

    /// The archive `sealed` holds for the pass `passID` at `version`, or `nil` when it does not open (another key, pass
    /// or version, or an archive kept in clear by an earlier version): the caller signs it again.
    func open(_ sealed: Data, passID: UUID, version: Data) -> Data? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed) else { return nil }
        return try? AES.GCM.open(box, using: key, authenticating: Self.context(passID, version))
    }

    private static func context(_ passID: UUID, _ version: Data) -> Data {
        Data("\(passID.uuidString)\u{0}".utf8) + version
    }
}
