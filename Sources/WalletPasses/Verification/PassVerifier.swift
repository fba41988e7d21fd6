@_spi(CMS) import X509
import Crypto
import Foundation
import SwiftASN1

/// Checks a `.pkpass` the way a device does: every file listed in `manifest.json` with the right SHA-1, no file
/// that is not listed, and a valid detached signature over the manifest by a certificate that chains to a trust
/// root.
public struct PassVerifier: Sendable {
    /// The roots signatures must chain to (Apple Root CA, or a development root).
    public let trustRoots: [Certificate]
    /// The time at which certificates must be valid; `nil` for now.
    public let validationTime: Date?

    /// Creates a verifier that trusts `trustRoots`.
    public init(trustRoots: [Certificate], validationTime: Date? = nil) {
        self.trustRoots = trustRoots
        self.validationTime = validationTime
    }

    /// A pass that passed verification.
    public struct VerifiedPass: Sendable {
        /// The parsed `pass.json`.
        public let pass: Pass
        /// The pass's files (without `manifest.json` and `signature`).
        public let files: [String: Data]
        /// The certificate that signed it.
        public let signer: Certificate

        /// The signer's subject, for display.
        public var signerSubject: String { signer.subject.description }
    }

    /// Verifies a `.pkpass`; throws ``WalletPassesError/verificationFailed(_:)`` naming the check that failed.
    public func verify(pkpass: Data) async throws -> VerifiedPass {
        var files = try PassArchive.unzip(pkpass)
        func fail(_ failure: PassVerificationFailure) -> WalletPassesError { .verificationFailed(failure) }
        guard let manifestData = files.removeValue(forKey: "manifest.json") else {
            throw fail(.missingRequiredFile("manifest.json"))
        }
        guard let signature = files.removeValue(forKey: "signature") else {
            throw fail(.missingRequiredFile("signature"))
        }
        guard files["pass.json"] != nil else { throw fail(.missingRequiredFile("pass.json")) }
        let manifest: [String: String]
        do {
            manifest = try JSONDecoder().decode([String: String].self, from: manifestData)
        } catch {
            throw fail(.malformedManifest("not a JSON object of file names to SHA-1 hex digests"))
        }
        for path in files.keys.sorted() where manifest[path] == nil {
            throw fail(.unlistedFile(path))
        }
        for (path, expected) in manifest.sorted(by: { $0.key < $1.key }) {
            guard let data = files[path] else { throw fail(.missingFile(path)) }
            let actual = Insecure.SHA1.hash(data: data).map { String(format: "%02x", $0) }.joined()
            guard actual == expected.lowercased() else { throw fail(.hashMismatch(path)) }
        }
        let signer = try await verifySignature(signature, over: manifestData)
        let pass: Pass
        do {
            pass = try Pass(json: files["pass.json"]!)
        } catch {
            throw WalletPassesError.malformedPassJSON("pass.json of a signed pass cannot be parsed")
        }
        return VerifiedPass(pass: pass, files: files, signer: signer)
    }

    /// Verifies a detached CMS signature over `content` and returns the signer's certificate.
    public func verifySignature(_ signature: Data, over content: Data) async throws -> Certificate {
        let roots = CertificateStore(trustRoots)
        let time = validationTime ?? Date()
        let result = await CMS.isValidSignature(dataBytes: content, signatureBytes: signature, trustRoots: roots) {
            RFC5280Policy(validationTime: time)
        }
        switch result {
        case .success(let valid):
            return valid.signer
        case .failure(.invalidCMSBlock(let block)):
            throw WalletPassesError.verificationFailed(.invalidSignature(block.reason))
        case .failure(.unableToValidateSigner(let failure)):
            throw WalletPassesError.verificationFailed(
                .untrustedSigner(failure.policyFailures.map { "\($0)" }.joined(separator: "; ")))
        case .failure(let other):
            throw WalletPassesError.verificationFailed(.invalidSignature("\(other)"))
        }
    }
}
