import Crypto
import CryptoExtras
import Foundation
import Secrets
import SwiftASN1
import X509

/// A request for a Pass Type ID certificate whose private key never leaves Coffer's secret store: a new RSA-2048 key
/// and the certificate signing request (CSR) that Apple's developer portal takes for it.
///
/// ``identity(certificate:wwdr:now:)`` pairs the certificate Apple issues with the waiting key, once it has proved
/// to be one Wallet accepts for this pass type and team (see [Apple's certificate
/// policy](https://www.apple.com/certificateauthority/)).
public struct PassTypeCertificateRequest: Sendable, CustomStringConvertible {
    /// The pass type identifier the certificate is for (`pass.com.example.ticket`).
    public let passTypeIdentifier: String
    /// The team identifier the certificate is for (the portal's ten-character Team ID).
    public let teamIdentifier: String
    /// When the key was made.
    public let createdAt: Date
    private let key: _RSA.Signing.PrivateKey

    /// Apple's extended key usage for pass signing (1.2.840.113635.100.4.14), on every Pass Type ID certificate.
    static let passSigningUsage: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 4, 14]

    /// Makes a new RSA-2048 key for a certificate of `passTypeIdentifier` in team `teamIdentifier`.
    ///
    /// - Throws: ``WalletDocumentError/invalidIdentifier(_:)`` for an identifier Apple's portal would refuse: a pass
    ///   type identifier that does not start with `pass.`, or a team identifier that is not ten capital letters and
    ///   digits.
    public init(passTypeIdentifier: String, teamIdentifier: String, now: Date = Date()) throws {
        try Self.validate(passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier)
        self.init(
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier, createdAt: now,
            key: try _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    private init(passTypeIdentifier: String, teamIdentifier: String, createdAt: Date, key: _RSA.Signing.PrivateKey) {
        self.passTypeIdentifier = passTypeIdentifier
        self.teamIdentifier = teamIdentifier
        self.createdAt = createdAt
        self.key = key
    }

    /// The CSR to upload in Apple's developer portal (PEM, signed with SHA-256); Apple takes only its key, and
    /// writes the certificate's subject itself.
    public func csrPEM() throws -> String {
        let subject = try DistinguishedName {
            CommonName("Pass Type ID: \(passTypeIdentifier)")
            OrganizationalUnitName(teamIdentifier)
        }
        let request = try CertificateSigningRequest(
            version: .v1, subject: subject, privateKey: Certificate.PrivateKey(key), attributes: .init(),
            signatureAlgorithm: .sha256WithRSAEncryption)
        return try request.serializeAsPEM().pemString
    }

    /// Apple's certificate for this request, paired with its key as an identity that signs with `wwdr` in its chain.
    ///
    /// - Parameters:
    ///   - certificate: The `.cer` the portal gave (DER or PEM).
    ///   - wwdr: The Apple WWDR intermediate that issued it (G4 for Pass Type ID certificates), DER or PEM.
    ///   - now: The moment the certificate must be valid at.
    /// - Throws: ``WalletDocumentError/keyDoesNotMatchCertificate`` for a certificate made from another CSR;
    ///   ``WalletDocumentError/identityMismatch(expected:found:)`` for another pass type or team, or a certificate that
    ///   is not a Pass Type ID certificate; ``WalletDocumentError/unusableCertificate(_:)`` for one without Apple's
    ///   pass-signing usage, one not valid at `now`, or one `wwdr` did not issue; and
    ///   ``WalletDocumentError/unreadableCertificate(_:)`` for bytes that are no certificate.
    public func identity(certificate: Data, wwdr: Data, now: Date = Date()) throws -> SigningIdentity {
        let issued = try SigningIdentity.certificate(from: certificate, role: "the certificate")
        let intermediate = try SigningIdentity.certificate(from: wwdr, role: "the WWDR intermediate")
        guard issued.publicKey == Certificate.PublicKey(key.publicKey) else {
            throw WalletDocumentError.keyDoesNotMatchCertificate
        }
        try SigningIdentity.check(issued, passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier)
        let usages = (try? issued.extensions.extendedKeyUsage).map { Array($0) } ?? []
        guard usages.contains(ExtendedKeyUsage.Usage(oid: Self.passSigningUsage)) else {
            throw WalletDocumentError.unusableCertificate(
                "the certificate lacks Apple's pass-signing extended key usage (1.2.840.113635.100.4.14), so Wallet "
                    + "would refuse its passes: make a Pass Type ID certificate for \(passTypeIdentifier) in the portal"
            )
        }
        guard issued.notValidBefore <= now else {
            throw WalletDocumentError.unusableCertificate(
                "the certificate is not valid until \(issued.notValidBefore): check this machine's clock")
        }
        guard now <= issued.notValidAfter else {
            throw WalletDocumentError.unusableCertificate(
                "the certificate expired on \(issued.notValidAfter): make a new one from a new request")
        }
        guard issued.issuer == intermediate.subject,
            intermediate.publicKey.isValidSignature(issued.signature, for: issued)
        else {
            throw WalletDocumentError.unusableCertificate(
                "the certificate was not issued by the intermediate given (\(AppleCertificateAuthority.name(of: intermediate))); "
                    + "Pass Type ID certificates come from Apple's WWDR G4: https://www.apple.com/certificateauthority/"
            )
        }
        return try SigningIdentity(
            certificate: issued, privateKeyDER: Data(key.derRepresentation), intermediates: [intermediate])
    }

    /// The request and its key, as ``save(to:at:)`` keeps them.
    private struct Stored: Codable {
        var passTypeIdentifier: String
        var teamIdentifier: String
        var createdAt: Date
        var privateKey: Data
    }

    /// Keeps the request, its private key included, in Coffer's secret store at `path`.
    public func save(to store: any SecretsDataStoring, at path: String) throws {
        let stored = Stored(
            passTypeIdentifier: passTypeIdentifier, teamIdentifier: teamIdentifier, createdAt: createdAt,
            privateKey: Data(key.derRepresentation))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try store.saveData(try encoder.encode(stored), account: path)
    }

    /// Loads the request ``save(to:at:)`` kept at `path`.
    ///
    /// - Throws: ``WalletDocumentError/unreadableKey(_:)`` when there is none there or it is damaged; the store's own
    ///   errors as they are.
    public init(from store: any SecretsDataStoring, at path: String) throws {
        guard let data = try store.readData(account: path) else {
            throw WalletDocumentError.unreadableKey("no certificate request is waiting at '\(path)'")
        }
        guard let stored = try? JSONDecoder().decode(Stored.self, from: data),
            let key = try? _RSA.Signing.PrivateKey(derRepresentation: stored.privateKey)
        else {
            throw WalletDocumentError.unreadableKey("the item at '\(path)' is not a stored certificate request")
        }
        self.init(
            passTypeIdentifier: stored.passTypeIdentifier, teamIdentifier: stored.teamIdentifier,
            createdAt: stored.createdAt, key: key)
    }

    /// The pass type and team; never the key.
    public var description: String {
        "PassTypeCertificateRequest(\(passTypeIdentifier), team \(teamIdentifier))"
    }

    /// Refuses what Apple's portal would: a pass type identifier without the `pass.` prefix (or with characters a
    /// reverse-DNS name lacks), a team identifier other than ten capital letters and digits.
    static func validate(passTypeIdentifier: String, teamIdentifier: String) throws {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
        guard passTypeIdentifier.hasPrefix("pass."), passTypeIdentifier.count > 5, passTypeIdentifier.count <= 255,
            passTypeIdentifier.allSatisfy(allowed.contains)
        else {
            throw WalletDocumentError.invalidIdentifier(
                "'\(passTypeIdentifier)' is not a pass type identifier: Apple's start with 'pass.' and read like "
                    + "pass.com.example.ticket")
        }
        guard teamIdentifier.count == 10,
            teamIdentifier.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })
        else {
            throw WalletDocumentError.invalidIdentifier(
                "'\(teamIdentifier)' is not a team identifier: the portal's Team ID is ten capital letters and digits")
        }
    }
}
