import Foundation
import WalletDocuments
import X509

extension DocumentVerifier {
    /// A pass that passed verification.
    public typealias VerifiedPass = VerifiedDocument<Pass>

    /// Verifies a `.pkpass`; throws ``WalletDocumentError/verificationFailed(_:)`` naming the check that failed.
    public func verify(pkpass: Data) async throws -> VerifiedPass {
        let contents = try Self.listedFiles(
            of: pkpass, payload: "pass.json", digest: "SHA-1", hash: DocumentManifest.hash)
        let pass: Pass
        do {
            pass = try Pass(json: contents.files["pass.json"]!)
        } catch {
            throw WalletDocumentError.malformedPassJSON("pass.json of a signed pass cannot be parsed")
        }
        let signer = try await verifySignature(
            contents.signature, over: contents.manifest, passTypeIdentifier: pass.passTypeIdentifier,
            teamIdentifier: pass.teamIdentifier)
        return VerifiedPass(document: pass, files: contents.files, signer: signer)
    }

    /// Issuer data that passed verification.
    public struct VerifiedIssuerData: Sendable {
        /// The binding data, decoded from the exact bytes that were signed.
        public let binding: IssuerBindingData
        /// The certificate that signed it.
        public let signer: Certificate
    }

    /// Verifies issuer data (the exact signed bytes) and its detached signature: the signature must be valid, chain
    /// to a trust root, and come from the Pass Type ID certificate of the data's own `passTypeIdentifier` and
    /// `teamIdentifier`.
    public func verify(issuerData: Data, signature: Data) async throws -> VerifiedIssuerData {
        let binding: IssuerBindingData
        do {
            binding = try JSONDecoder().decode(IssuerBindingData.self, from: issuerData)
        } catch {
            throw WalletDocumentError.verificationFailed(
                .invalidSignature("the issuer data is not the JSON binding data Coffer signs"))
        }
        let signer = try await verifySignature(
            signature, over: issuerData, passTypeIdentifier: binding.passTypeIdentifier,
            teamIdentifier: binding.teamIdentifier)
        return VerifiedIssuerData(binding: binding, signer: signer)
    }

    /// Verifies the Base64 pair ``SignedIssuerData`` carries (see ``verify(issuerData:signature:)``).
    public func verify(_ signed: SignedIssuerData) async throws -> VerifiedIssuerData {
        guard let issuerData = Data(base64Encoded: signed.issuerData),
            let signature = Data(base64Encoded: signed.signature)
        else {
            throw WalletDocumentError.verificationFailed(.invalidSignature("issuer_data or signature is not Base64"))
        }
        return try await verify(issuerData: issuerData, signature: signature)
    }
}

extension VerifiedDocument where Document == Pass {
    /// The parsed `pass.json`.
    public var pass: Pass { document }
}
