import Crypto
import Foundation

/// Everything a pass's signed archive is made from, short of its content: the stored columns that change whenever
/// what a device gets changes (the content's `Last-Modified` and update tag, the binding, the token, the user's
/// account hash, the pass type's identity and NFC key) and the renderer's own settings.
///
/// Its ``digest(settings:)`` names one signed archive: a kept archive with the same digest is what signing again
/// would give, less the signing time.
package struct PassArchiveVersion: Hashable, Sendable {
    /// The pass.
    package var passID: UUID
    /// When the pass's record last changed (an issuance, a binding).
    package var updatedAt: Date
    /// When its content last changed (`Last-Modified`).
    package var modifiedAt: Date
    /// Its update tag.
    package var updateTag: Int64
    /// The SHA-256 of its authentication token, once it has one.
    package var authenticationTokenHash: Data?
    /// The issuer binding data a device returned, if bound.
    package var issuerBindingData: String?
    /// The device key hash a device returned, if bound.
    package var keyHash: String?
    /// The account hash of the tag's user (`fidoProfile.accountHash`).
    package var accountHash: String
    /// Where the pass type's signing identity is kept (an import stores a renewed identity at a new path).
    package var signingKeyPath: String
    /// The pass type's current NFC public key.
    package var nfcPublicKey: String?
    /// The pass type's binding learn-more page.
    package var bindingLearnMoreURL: String?

    /// Creates a version from its parts.
    package init(
        passID: UUID, updatedAt: Date, modifiedAt: Date, updateTag: Int64, authenticationTokenHash: Data?,
        issuerBindingData: String?, keyHash: String?, accountHash: String, signingKeyPath: String,
        nfcPublicKey: String?, bindingLearnMoreURL: String?
    ) {
        self.passID = passID
        self.updatedAt = updatedAt
        self.modifiedAt = modifiedAt
        self.updateTag = updateTag
        self.authenticationTokenHash = authenticationTokenHash
        self.issuerBindingData = issuerBindingData
        self.keyHash = keyHash
        self.accountHash = accountHash
        self.signingKeyPath = signingKeyPath
        self.nfcPublicKey = nfcPublicKey
        self.bindingLearnMoreURL = bindingLearnMoreURL
    }

    /// The SHA-256 of every part, each length-prefixed, and of the renderer's `settings`.
    package func digest(settings: Data) -> Data {
        var hash = SHA256()
        func add(_ bytes: Data?) {
            guard let bytes else {
                hash.update(data: [0xFF])
                return
            }
            withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { hash.update(bufferPointer: $0) }
            hash.update(data: bytes)
        }
        func add(_ text: String?) { add(text.map { Data($0.utf8) }) }
        func add(_ number: Int64) { withUnsafeBytes(of: number.bigEndian) { hash.update(bufferPointer: $0) } }
        add(passID.uuidString)
        add(Int64((updatedAt.timeIntervalSince1970 * 1000).rounded()))
        add(Int64((modifiedAt.timeIntervalSince1970 * 1000).rounded()))
        add(updateTag)
        add(authenticationTokenHash)
        add(issuerBindingData)
        add(keyHash)
        add(accountHash)
        add(signingKeyPath)
        add(nfcPublicKey)
        add(bindingLearnMoreURL)
        add(settings)
        return Data(hash.finalize())
    }
}

/// A pass's archive version with the archive last signed for it, as kept.
package struct KeptPassArchive: Sendable {
    /// The pass's version now.
    package var version: PassArchiveVersion
    /// The digest the kept archive was signed at, if one is kept.
    package var keptDigest: Data?
    /// The kept archive (`.pkpass` bytes), if one is kept.
    package var pkpass: Data?

    /// Creates the record.
    package init(version: PassArchiveVersion, keptDigest: Data?, pkpass: Data?) {
        self.version = version
        self.keptDigest = keptDigest
        self.pkpass = pkpass
    }
}
