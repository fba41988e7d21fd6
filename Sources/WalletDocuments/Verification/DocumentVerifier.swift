@_spi(CMS) import X509
import Crypto
import Foundation
import SwiftASN1

/// Checks a `.pkpass` the way a device does: every file listed in `manifest.json` with the right SHA-1, no file
/// that is not listed, and a valid detached signature over the manifest by a certificate that chains to a trust
/// root.
public struct DocumentVerifier: Sendable {
    /// The roots signatures must chain to (Apple Root CA, or a development root).
    public let trustRoots: [Certificate]
    /// The time at which certificates must be valid; `nil` for now.
    public let validationTime: Date?

    /// Creates a verifier that trusts `trustRoots`.
    public init(trustRoots: [Certificate], validationTime: Date? = nil) {
        self.trustRoots = trustRoots
        self.validationTime = validationTime
    }

    /// The files of a signed archive once `manifest.json` lists exactly them, each with its `hash`; and the manifest
    /// and signature, to check next.
    package static func listedFiles(of archive: Data, payload: String, digest: String, hash: (Data) -> String) throws
        -> (files: [String: Data], manifest: Data, signature: Data)
    {
        var files = try DocumentArchive.unzip(archive)
        func fail(_ failure: VerificationFailure) -> WalletDocumentError { .verificationFailed(failure) }
        guard let manifestData = files.removeValue(forKey: "manifest.json") else {
            throw fail(.missingRequiredFile("manifest.json"))
        }
        guard let signature = files.removeValue(forKey: "signature") else {
            throw fail(.missingRequiredFile("signature"))
        }
        guard files[payload] != nil else { throw fail(.missingRequiredFile(payload)) }
        let manifest: [String: String]
        do {
            manifest = try JSONDecoder().decode([String: String].self, from: manifestData)
        } catch {
            throw fail(.malformedManifest("not a JSON object of file names to \(digest) hex digests"))
        }
        for path in files.keys.sorted() where manifest[path] == nil {
            throw fail(.unlistedFile(path))
        }
        for (path, expected) in manifest.sorted(by: { $0.key < $1.key }) {
            guard let data = files[path] else { throw fail(.missingFile(path)) }
            guard hash(data) == expected.lowercased() else { throw fail(.hashMismatch(path)) }
        }
        return (files, manifestData, signature)
    }

    /// Verifies a detached CMS signature over `content` by the Pass Type ID certificate for `passTypeIdentifier` and
    /// `teamIdentifier` (Apple's Pass Type ID extension on the leaf, UID and OU matching; see
    /// ``SigningIdentity/check(_:passTypeIdentifier:teamIdentifier:)``) that chains to a trust root, and returns
    /// that certificate. Use it for personalization signatures and any other content signed for one pass type.
    ///
    /// Signatures whose SignerInfo names `rsaEncryption` with a SHA-2 digest (what `openssl cms -sign` and the
    /// pass libraries built on OpenSSL write, RFC 3370 §3.2) are accepted.
    public func verifySignature(
        _ signature: Data, over content: Data, passTypeIdentifier: String, teamIdentifier: String
    ) async throws -> Certificate {
        let signer = try await verifyChainedSignature(signature, over: content)
        do {
            try SigningIdentity.check(signer, passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier)
        } catch let WalletDocumentError.identityMismatch(expected, found) {
            throw WalletDocumentError.verificationFailed(.wrongSigner(expected: expected, found: found))
        }
        return signer
    }

    /// Verifies a detached CMS signature over `content` and returns the signer's certificate, which chains to a
    /// trust root but may be for any pass type or team, or not a Pass Type ID certificate at all: check it, or
    /// use ``verifySignature(_:over:passTypeIdentifier:teamIdentifier:)``.
    @available(
        *, deprecated,
        message:
            "the signer may be any certificate under the root; use verifySignature(_:over:passTypeIdentifier:teamIdentifier:)"
    )
    public func verifySignature(_ signature: Data, over content: Data) async throws -> Certificate {
        try await verifyChainedSignature(signature, over: content)
    }

    /// The signature check without the pass type check: CMS structure, digest, signature value, chain.
    package func verifyChainedSignature(_ signature: Data, over content: Data) async throws -> Certificate {
        let roots = CertificateStore(trustRoots)
        let time = validationTime ?? Date()
        let result = await CMS.isValidSignature(
            dataBytes: content, signatureBytes: CMSSignatureAlgorithm.normalized([UInt8](signature)), trustRoots: roots
        ) {
            RFC5280Policy(validationTime: time)
        }
        switch result {
        case .success(let valid):
            return valid.signer
        case .failure(.invalidCMSBlock(let block)):
            throw WalletDocumentError.verificationFailed(
                .invalidSignature(Self.explanation(ofInvalidBlock: block.reason)))
        case .failure(.unableToValidateSigner(let failure)):
            let reasons = failure.policyFailures.map(\.policyFailureReason.description)
            throw WalletDocumentError.verificationFailed(
                .untrustedSigner(
                    reasons.isEmpty ? "no chain from the signer to a trust root" : reasons.joined(separator: "; ")))
        }
    }

    /// A message of Coffer's own for swift-certificates' reason, which may quote its source files or whole
    /// certificates.
    static func explanation(ofInvalidBlock reason: String) -> String {
        let known: [(prefix: String, message: String)] = [
            ("Unable to parse signed data", "it is not a CMS SignedData"),
            ("Too many signatures", "it has more than one signer"),
            ("Invalid v1 signed data", "its SignedData version does not match its contents"),
            ("Invalid v3 signed data", "its SignedData version does not match its contents"),
            ("Invalid v4 signed data", "its SignedData version does not match its contents"),
            ("Invalid signed data", "its SignedData version is not one a signature uses"),
            ("Attached content data", "it carries content of its own; a Wallet signature is detached"),
            ("Digest algorithm mismatch", "its signer's digest algorithm is not among the SignedData's"),
            ("Invalid digest algorithm", "its digest algorithm is not SHA-256, SHA-384 or SHA-512"),
            ("Digest and signature algorithm mismatch", "its digest and signature algorithms disagree"),
            ("Unable to locate signing certificate", "it does not carry the signer's certificate"),
            ("Missing message digest", "its signed attributes have no message digest"),
            ("Message digest mismatch", "the content's digest differs from the signed one: the content changed"),
            ("Invalid signature from signing certificate", "the signature value does not verify with the signer's key"),
        ]
        if let match = known.first(where: { reason.hasPrefix($0.prefix) }) { return match.message }
        if reason.contains("unsupportedSignatureAlgorithm") || reason.contains("SignatureAlgorithm") {
            return "its signature algorithm is not SHA-256, SHA-384 or SHA-512 with RSA or ECDSA"
        }
        return "it is not a DER or BER CMS SignedData Coffer can read"
    }
}
