import Crypto
import CryptoExtras
import Foundation
import NIOSSL
import Secrets
import SwiftASN1
import X509

/// A local certificate hierarchy for development and tests: a root CA, a WWDR-like intermediate and a Pass Type
/// ID (or Order Type ID) certificate, all labelled **not Apple's**.
///
/// Passes signed with it verify against ``root`` (with `coffer pass verify --root` or `openssl cms -verify`) but
/// not on a device, which only trusts Apple's root. The CA keys exist only in memory while the hierarchy is made.
public struct DevelopmentIdentity: Sendable {
    /// The development root CA certificate: the trust root for verification.
    public let root: Certificate
    /// The WWDR-like intermediate.
    public let wwdr: Certificate
    /// The Pass Type ID or Order Type ID identity (its certificate, key, and ``wwdr`` as intermediate).
    public let signingIdentity: SigningIdentity
    /// What ``write(to:passphrase:)`` names the leaf's files: `pass-type` or `order-type`.
    let leafFileStem: String

    /// ``root`` in PEM, to hand to a verifier (`--root`, `openssl cms -verify -CAfile`).
    public var rootPEM: String {
        get throws { try root.serializeAsPEMString() }
    }

    /// The marker in every subject that says the certificates are not Apple's.
    public static let marker = "NOT APPLE - Coffer development"

    /// Generates a new hierarchy for a pass type and team.
    public static func generate(
        passTypeIdentifier: String = "pass.dev.coffer.example",
        teamIdentifier: String = "DEVTEAM000",
        organizationName: String = "Coffer Development",
        validity: TimeInterval = 2 * 365 * 86_400,
        now: Date = Date()
    ) throws -> DevelopmentIdentity {
        try generate(
            typeIdentifier: passTypeIdentifier, isOrderType: false, teamIdentifier: teamIdentifier,
            organizationName: organizationName, validity: validity, now: now)
    }

    /// Generates a new hierarchy for an order type and team; its leaf names the order type in its UID, as Apple's
    /// Order Type ID certificates do.
    public static func generate(
        orderTypeIdentifier: String,
        teamIdentifier: String = "DEVTEAM000",
        organizationName: String = "Coffer Development",
        validity: TimeInterval = 2 * 365 * 86_400,
        now: Date = Date()
    ) throws -> DevelopmentIdentity {
        try generate(
            typeIdentifier: orderTypeIdentifier, isOrderType: true, teamIdentifier: teamIdentifier,
            organizationName: organizationName, validity: validity, now: now)
    }

    private static func generate(
        typeIdentifier passTypeIdentifier: String, isOrderType: Bool, teamIdentifier: String,
        organizationName: String, validity: TimeInterval, now: Date
    ) throws -> DevelopmentIdentity {
        let notBefore = now.addingTimeInterval(-3600)
        let notAfter = now.addingTimeInterval(validity)
        let rootKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let wwdrKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let passKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)

        let rootName = try DistinguishedName {
            CountryName("US")
            OrganizationName(marker)
            CommonName("Coffer Development Root CA (\(marker))")
        }
        let wwdrName = try DistinguishedName {
            CountryName("US")
            OrganizationName(marker)
            OrganizationalUnitName("G4")
            CommonName("Coffer Development WWDR Intermediate (\(marker))")
        }
        let passName = try DistinguishedName([
            RelativeDistinguishedName.Attribute(type: SigningIdentity.userIDOID, utf8String: passTypeIdentifier),
            RelativeDistinguishedName.Attribute(
                type: .RDNAttributeType.commonName,
                utf8String: "\(isOrderType ? "Order" : "Pass") Type ID: \(passTypeIdentifier) (\(marker))"),
            RelativeDistinguishedName.Attribute(
                type: .RDNAttributeType.organizationalUnitName, utf8String: teamIdentifier),
            RelativeDistinguishedName.Attribute(type: .RDNAttributeType.organizationName, utf8String: organizationName),
            RelativeDistinguishedName.Attribute(type: .RDNAttributeType.countryName, utf8String: "US"),
        ])

        func authority(_ pathLength: Int?, key: _RSA.Signing.PrivateKey) throws -> Certificate.Extensions {
            try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
            }
        }
        let root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey), notValidBefore: notBefore,
            notValidAfter: notAfter, issuer: rootName, subject: rootName, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try authority(nil, key: rootKey), issuerPrivateKey: .init(rootKey))
        let wwdr = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(wwdrKey.publicKey), notValidBefore: notBefore,
            notValidAfter: notAfter, issuer: rootName, subject: wwdrName, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try authority(0, key: wwdrKey), issuerPrivateKey: .init(rootKey))
        let passCertificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(passKey.publicKey), notValidBefore: notBefore,
            notValidAfter: notAfter, issuer: wwdrName, subject: passName, signatureAlgorithm: .sha256WithRSAEncryption,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                SubjectKeyIdentifier(hash: Certificate.PublicKey(passKey.publicKey))
                if !isOrderType { try passTypeIDExtension(passTypeIdentifier) }
            },
            issuerPrivateKey: .init(wwdrKey))
        return DevelopmentIdentity(
            root: root, wwdr: wwdr,
            signingIdentity: try SigningIdentity(
                certificate: passCertificate, privateKeyDER: passKey.derRepresentation, intermediates: [wwdr]),
            leafFileStem: isOrderType ? "order-type" : "pass-type")
    }

    /// Apple's Pass Type ID extension naming `passTypeIdentifier` (a UTF8String), as on Apple's certificates.
    static func passTypeIDExtension(_ passTypeIdentifier: String) throws -> Certificate.Extension {
        var serializer = DER.Serializer()
        try serializer.serialize(ASN1UTF8String(passTypeIdentifier))
        return Certificate.Extension(
            oid: SigningIdentity.passTypeIDExtensionOID, critical: false, value: serializer.serializedBytes[...])
    }

    /// Writes `root.pem`, `wwdr.pem`, `pass-type.pem` (certificates) and `pass-type.p12` (the certificate and its
    /// private key, encrypted with `passphrase`) into `directory`, refusing to replace existing files; an order
    /// type's are `order-type.pem` and `order-type.p12`. The private key is never written unencrypted.
    public func write(to directory: URL, passphrase: Passphrase) throws {
        guard !passphrase.isEmpty else {
            throw WalletDocumentError.unreadableKey("an empty passphrase would leave the key unprotected")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let bundle = NIOSSLPKCS12Bundle(
            certificateChain: [
                try NIOSSLCertificate(bytes: try signingIdentity.certificate.derBytes(), format: .der),
                try NIOSSLCertificate(bytes: try wwdr.derBytes(), format: .der),
            ],
            privateKey: try NIOSSLPrivateKey(bytes: [UInt8](signingIdentity.privateKeyDER()), format: .der))
        let files: [(String, Data)] = [
            ("root.pem", Data(try root.serializeAsPEMString().utf8)),
            ("wwdr.pem", Data(try wwdr.serializeAsPEMString().utf8)),
            ("\(leafFileStem).pem", Data(try signingIdentity.certificate.serializeAsPEMString().utf8)),
            ("\(leafFileStem).p12", Data(try bundle.serialize(passphrase: [UInt8](passphrase.utf8)))),
        ]
        for (name, data) in files {
            let url = directory.appendingPathComponent(name)
            guard !FileManager.default.fileExists(atPath: url.path) else {
                throw WalletDocumentError.invalidFilePath(
                    url.path, reason: "it already exists; choose an empty directory")
            }
            guard
                FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600])
            else { throw WalletDocumentError.invalidFilePath(url.path, reason: "it cannot be written") }
        }
    }
}
