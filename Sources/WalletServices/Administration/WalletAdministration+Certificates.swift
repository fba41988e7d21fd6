import Foundation
import Logging
import Secrets
import WalletDocuments
import WalletPasses

extension WalletAdministration {
    /// Where a pass type's waiting certificate request is kept in the secret store.
    static func certificateRequestPath(_ passTypeIdentifier: String) -> String {
        "wallet/pass-type-requests/\(passTypeIdentifier)"
    }

    /// Makes the private key of a new Pass Type ID certificate inside the secret store and returns the CSR to upload
    /// in Apple's developer portal; ``completeCertificateRequest(passTypeIdentifier:certificate:wwdr:organizationName:bindingLearnMoreURL:staged:activatingAt:now:)``
    /// takes the certificate Apple gives for it. A pass type that exists keeps signing with its
    /// current identity meanwhile.
    ///
    /// - Parameter replacing: Whether to replace a request that is still waiting for its certificate (whose key is
    ///   then gone, and a certificate Apple issued for it useless).
    /// - Throws: ``WalletServerError/conflict(_:)`` when a request for the pass type is waiting and not `replacing`;
    ///   `WalletDocumentError.invalidIdentifier` for identifiers Apple's portal would refuse.
    public func requestCertificate(passTypeIdentifier: String, teamIdentifier: String, replacing: Bool = false)
        throws -> String
    {
        let path = Self.certificateRequestPath(passTypeIdentifier)
        let request = try PassTypeCertificateRequest(
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier)
        try SecretPath.validate(path: path)
        if !replacing, try secrets.readData(account: path) != nil {
            throw WalletServerError.conflict(
                "a certificate request for \(passTypeIdentifier) (give --replace to make a new key; a certificate "
                    + "Apple issued for the waiting one will not work then)")
        }
        try request.save(to: secrets, at: path)
        logger.notice(
            "made the key of a certificate request",
            metadata: ["pass_type": "\(passTypeIdentifier)", "team": "\(teamIdentifier)"])
        return try request.csrPEM()
    }

    /// Pairs Apple's certificate with the key of the waiting request, checks it (this key, this pass type and team,
    /// Apple's pass-signing usage, valid now, issued by `wwdr`), and imports it as
    /// ``importPassType(_:organizationName:bindingLearnMoreURL:staged:activatingAt:)`` does (signing with it now, or
    /// staged beside the current identity); the request is removed once the identity is stored.
    ///
    /// - Throws: ``WalletServerError/notFound(_:)`` when no request is waiting for the pass type; the certificate's
    ///   refusal (`WalletDocumentError`), saying what to do.
    /// - Returns: The pass type, whether it was new, and the name of the intermediate that issued the certificate.
    public func completeCertificateRequest(
        passTypeIdentifier: String, certificate: Data, wwdr: Data, organizationName: String? = nil,
        bindingLearnMoreURL: String? = nil, staged: Bool = false, activatingAt: Date? = nil, now: Date = Date()
    ) async throws -> (passType: PassType, created: Bool, issuer: String) {
        let path = Self.certificateRequestPath(passTypeIdentifier)
        guard try secrets.readData(account: path) != nil else {
            throw WalletServerError.notFound(
                "a certificate request for \(passTypeIdentifier): make one with `coffer admin pass-type request`")
        }
        let request = try PassTypeCertificateRequest(from: secrets, at: path)
        let identity = try request.identity(certificate: certificate, wwdr: wwdr, now: now)
        let (passType, created) = try await importPassType(
            identity, organizationName: organizationName, bindingLearnMoreURL: bindingLearnMoreURL, staged: staged,
            activatingAt: activatingAt)
        _ = try? secrets.deleteData(account: path)
        let issuer = identity.intermediates.first.map(AppleCertificateAuthority.name(of:)) ?? "none"
        logger.notice(
            "attached a certificate to its request",
            metadata: ["pass_type": "\(passTypeIdentifier)", "issuer": "\(issuer)"])
        return (passType, created, issuer)
    }
}
