import Crypto
import CryptoExtras
import Foundation
import NIOSSL
import SwiftASN1
import Secrets
import X509

/// A Pass Type ID certificate with its private key and the intermediates (Apple's WWDR) that go into every
/// signature.
///
/// Load one from PEM files (PKCS#8 or PKCS#1 keys, encrypted or not), from a `.p12` (including legacy RC2/3DES
/// files that OpenSSL 3 rejects without `-legacy`), or from DER bytes kept in Coffer's secret store.
/// The private key never prints.
public struct SigningIdentity: Sendable, CustomStringConvertible {
    /// The Pass Type ID certificate.
    public let certificate: Certificate
    /// Intermediate certificates included in signatures (the WWDR certificate).
    public let intermediates: [Certificate]
    let privateKey: Certificate.PrivateKey
    let rsaKey: _RSA.Signing.PrivateKey
    /// The signer with this identity's fixed parts encoded once, on its RSA engine.
    let cmsSigner: DetachedCMSSigner

    /// The RSA implementation that makes this identity's signatures (see ``RSASigningEngine``).
    public var signingEngine: RSASigningEngine { cmsSigner.engine }

    /// Pairs a certificate with its RSA key; throws if the key is not the certificate's.
    ///
    /// The identity signs with the engine `COFFER_RSA_ENGINE` names, else with OpenSSL where libcrypto 3 loads,
    /// else with swift-crypto (``RSASigningEngine/preferred``).
    ///
    /// - Throws: ``WalletDocumentError/signingEngineUnavailable(_:)`` when `COFFER_RSA_ENGINE` names no engine or
    ///   names one that cannot be used here.
    public init(certificate: Certificate, privateKeyDER: Data, intermediates: [Certificate]) throws {
        let rsaKey: _RSA.Signing.PrivateKey
        do {
            rsaKey = try _RSA.Signing.PrivateKey(derRepresentation: privateKeyDER)
        } catch {
            throw WalletDocumentError.unreadableKey("not an RSA private key (Pass Type ID keys are RSA)")
        }
        let privateKey = Certificate.PrivateKey(rsaKey)
        guard privateKey.publicKey == certificate.publicKey else {
            throw WalletDocumentError.keyDoesNotMatchCertificate
        }
        self.certificate = certificate
        self.intermediates = intermediates
        self.privateKey = privateKey
        self.rsaKey = rsaKey
        self.cmsSigner = try Self.prepareSigner(
            certificate: certificate, intermediates: intermediates, rsaKey: rsaKey,
            engine: try RSASigningEngine.requested.get())
    }

    private init(copying identity: SigningIdentity, cmsSigner: DetachedCMSSigner) {
        certificate = identity.certificate
        intermediates = identity.intermediates
        privateKey = identity.privateKey
        rsaKey = identity.rsaKey
        self.cmsSigner = cmsSigner
    }

    /// The same identity, signing with `engine`.
    ///
    /// - Throws: ``WalletDocumentError/signingEngineUnavailable(_:)`` when `engine` is OpenSSL and libcrypto 3
    ///   cannot be loaded.
    public func using(_ engine: RSASigningEngine) throws -> SigningIdentity {
        try using(engine, libcrypto: LibCrypto.shared)
    }

    /// ``using(_:)`` with `libcrypto` as OpenSSL's library (or the reason it did not load).
    func using(_ engine: RSASigningEngine?, libcrypto: Result<LibCrypto, WalletDocumentError>) throws
        -> SigningIdentity
    {
        SigningIdentity(
            copying: self,
            cmsSigner: try Self.prepareSigner(
                certificate: certificate, intermediates: intermediates, rsaKey: rsaKey, engine: engine,
                libcrypto: libcrypto))
    }

    /// Loads `rsaKey` on `engine` and encodes the signer's fixed parts. With no `engine`, OpenSSL is tried first and
    /// swift-crypto signs when libcrypto is missing or cannot take the key; a named engine is used or the call
    /// throws.
    static func prepareSigner(
        certificate: Certificate, intermediates: [Certificate], rsaKey: _RSA.Signing.PrivateKey,
        engine: RSASigningEngine?, libcrypto: Result<LibCrypto, WalletDocumentError> = LibCrypto.shared
    ) throws(WalletDocumentError) -> DetachedCMSSigner {
        let key: RSASigningKey
        if let engine {
            key = try RSASigningKey(rsaKey, engine: engine, libcrypto: libcrypto)
        } else {
            key =
                (try? RSASigningKey(rsaKey, engine: .openSSL, libcrypto: libcrypto))
                ?? .swiftCrypto(rsaKey)
        }
        return try DetachedCMSSigner(certificate: certificate, intermediates: intermediates, key: key)
    }

    /// Loads a certificate (PEM or DER), a private key (PEM: PKCS#8, PKCS#1, encrypted or not; or DER) and the
    /// WWDR intermediate (PEM or DER).
    public init(certificate: Data, privateKey: Data, passphrase: Passphrase? = nil, wwdr: Data) throws {
        try self.init(
            certificate: try Self.certificate(from: certificate, role: "the Pass Type ID certificate"),
            privateKeyDER: try Self.privateKeyDER(from: privateKey, passphrase: passphrase),
            intermediates: [try Self.certificate(from: wwdr, role: "the WWDR certificate")])
    }

    /// Loads a `.p12` bundle (its leaf certificate and key; any other certificates in it become intermediates)
    /// and the WWDR intermediate.
    public init(pkcs12: Data, passphrase: Passphrase, wwdr: Data?) throws {
        let bundle: NIOSSLPKCS12Bundle
        do {
            bundle = try NIOSSLPKCS12Bundle(buffer: [UInt8](pkcs12), passphrase: [UInt8](passphrase.utf8))
        } catch {
            throw WalletDocumentError.unreadableKey("the .p12 cannot be opened: wrong passphrase or not a PKCS#12 file")
        }
        guard let leaf = bundle.certificateChain.first else {
            throw WalletDocumentError.unreadableCertificate("the .p12 holds no certificate")
        }
        var intermediates = try bundle.certificateChain.dropFirst().map {
            try Certificate(derEncoded: try $0.toDERBytes())
        }
        if let wwdr {
            let wwdrCertificate = try Self.certificate(from: wwdr, role: "the WWDR certificate")
            if !intermediates.contains(wwdrCertificate) { intermediates.insert(wwdrCertificate, at: 0) }
        }
        try self.init(
            certificate: try Certificate(derEncoded: try leaf.toDERBytes()),
            privateKeyDER: Data(try bundle.privateKey.derBytes), intermediates: intermediates)
    }

    /// The private key as DER (PKCS#1), for keeping in Coffer's secret store. Treat the result as a secret.
    public func privateKeyDER() -> Data {
        rsaKey.derRepresentation
    }

    /// The pass type identifier the certificate is for (its subject's UID), if it names one.
    public var passTypeIdentifier: String? {
        Self.attribute(Self.userIDOID, of: certificate.subject)
    }

    /// The team identifier the certificate is for (its subject's OU), if it names one.
    public var teamIdentifier: String? {
        Self.attribute(.RDNAttributeType.organizationalUnitName, of: certificate.subject)
    }

    /// When the certificate expires (its `notAfter`): Wallet refuses passes it signs after that, and APNs its pushes.
    public var notValidAfter: Date { certificate.notValidAfter }

    /// When the certificate starts to be valid (its `notBefore`).
    public var notValidBefore: Date { certificate.notValidBefore }

    /// The organization the certificate names (its subject's O), if any.
    public var organizationName: String? {
        Self.attribute(.RDNAttributeType.organizationName, of: certificate.subject)
    }

    /// Throws ``WalletDocumentError/identityMismatch(expected:found:)`` unless the certificate is a Pass Type ID
    /// certificate for this pass type and team (see ``check(_:passTypeIdentifier:teamIdentifier:)``).
    public func check(passTypeIdentifier expectedPassType: String, teamIdentifier expectedTeam: String) throws {
        try Self.check(certificate, passTypeIdentifier: expectedPassType, teamIdentifier: expectedTeam)
    }

    /// Throws ``WalletDocumentError/identityMismatch(expected:found:)`` unless `certificate` is a Pass Type ID
    /// certificate for `expectedPassType` and `expectedTeam`: it carries Apple's Pass Type ID extension
    /// (1.2.840.113635.100.6.1.16, naming the pass type when its value is a string), its subject's UID is the pass
    /// type identifier and its OU the team identifier.
    ///
    /// The signer checks this before signing and ``DocumentVerifier`` checks a signer with it, so a certificate for one
    /// pass type or team can neither sign nor vouch for another's passes.
    public static func check(
        _ certificate: Certificate, passTypeIdentifier expectedPassType: String, teamIdentifier expectedTeam: String
    ) throws {
        let expected = "\(expectedPassType) (team \(expectedTeam))"
        guard let marker = certificate.extensions[oid: passTypeIDExtensionOID] else {
            throw WalletDocumentError.identityMismatch(
                expected: expected,
                found:
                    "\(certificate.subject), which is not a Pass Type ID certificate (it lacks Apple's Pass Type ID "
                    + "extension 1.2.840.113635.100.6.1.16; a development identity made by an earlier Coffer lacks it "
                    + "too: make a new one)")
        }
        let passType = attribute(userIDOID, of: certificate.subject)
        let team = attribute(.RDNAttributeType.organizationalUnitName, of: certificate.subject)
        let markerPassType = markerString(marker.value)
        guard passType == expectedPassType, team == expectedTeam, markerPassType == nil || markerPassType == passType
        else {
            throw WalletDocumentError.identityMismatch(
                expected: expected,
                found: "\(passType ?? "no pass type") (team \(team ?? "none"))"
                    + (markerPassType.map { $0 == passType ? "" : ", extension naming \($0)" } ?? ""))
        }
    }

    /// The string in a Pass Type ID extension's value (Apple writes the pass type identifier as a UTF8String), or
    /// `nil` when the value is not a string.
    package static func markerString(_ value: ArraySlice<UInt8>) -> String? {
        guard let node = try? DER.parse(value) else { return nil }
        if let string = try? ASN1UTF8String(derEncoded: node) { return String(string) }
        if let string = try? ASN1IA5String(derEncoded: node) { return String(string) }
        if let string = try? ASN1PrintableString(derEncoded: node) { return String(string) }
        return nil
    }

    /// The certificate's subject; the key is never shown.
    public var description: String { "SigningIdentity(\(certificate.subject))" }

    // MARK: Parsing

    /// The OID of the `UID` attribute (0.9.2342.19200300.100.1.1) where Apple puts the pass type identifier.
    package static let userIDOID: ASN1ObjectIdentifier = [0, 9, 2342, 19_200_300, 100, 1, 1]

    /// Apple's Pass Type ID certificate extension (1.2.840.113635.100.6.1.16), on every Pass Type ID certificate.
    public static let passTypeIDExtensionOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 1, 16]

    package static func attribute(_ type: ASN1ObjectIdentifier, of name: DistinguishedName) -> String? {
        for rdn in name {
            for attribute in rdn where attribute.type == type {
                return String(attribute.value)
            }
        }
        return nil
    }

    /// Parses one certificate from PEM or DER.
    public static func certificate(from data: Data, role: String) throws -> Certificate {
        do {
            if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") {
                return try Certificate(pemEncoded: text)
            }
            return try Certificate(derEncoded: [UInt8](data))
        } catch {
            throw WalletDocumentError.unreadableCertificate("\(role) is neither a PEM nor a DER X.509 certificate")
        }
    }

    /// Parses a private key from PEM or DER (PKCS#8, PKCS#1, or encrypted PEM with `passphrase`) into DER.
    static func privateKeyDER(from data: Data, passphrase: Passphrase?) throws -> Data {
        let isPEM = String(data: data, encoding: .utf8)?.contains("-----BEGIN") == true
        do {
            let key: NIOSSLPrivateKey
            if let passphrase {
                key = try NIOSSLPrivateKey(bytes: [UInt8](data), format: isPEM ? .pem : .der) { setter in
                    setter([UInt8](passphrase.utf8))
                }
            } else {
                key = try NIOSSLPrivateKey(bytes: [UInt8](data), format: isPEM ? .pem : .der)
            }
            return Data(try key.derBytes)
        } catch {
            let encrypted = String(data: data, encoding: .utf8)?.contains("ENCRYPTED") == true
            throw WalletDocumentError.unreadableKey(
                encrypted
                    ? (passphrase == nil ? "the key is encrypted: give its passphrase" : "the passphrase is wrong")
                    : "not a PEM or DER private key")
        }
    }
}
