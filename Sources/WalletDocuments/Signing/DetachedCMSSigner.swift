import Crypto
import Foundation
import SwiftASN1
import X509

/// Makes detached CMS SignedData signatures (RFC 5652; SHA-256 with RSA, PKCS#1 v1.5) for one identity, with every
/// fixed part encoded once.
///
/// The output has exactly the structure `CMS.sign(_:signatureAlgorithm:additionalIntermediateCertificates:
/// certificate:privateKey:signingTime:detached:)` of swift-certificates makes (and, for the same key, time and
/// content, the same bytes):
///
/// ```
/// ContentInfo { signedData, [0] SignedData {
///     version 1, digestAlgorithms { sha256 }, encapContentInfo { data (detached) },
///     certificates [0] { DER SET OF the identity's certificate and intermediates },
///     signerInfos { SignerInfo {
///         version 1, issuerAndSerialNumber, sha256,
///         signedAttrs [0] { contentType data, signingTime, messageDigest },   (DER SET order)
///         sha256WithRSAEncryption, signature } } } }
/// ```
///
/// When the signer is made, the whole structure is laid out once per time type (UTCTime, GeneralizedTime) as a
/// byte template: certificates, signer identifier, algorithm identifiers, attribute headers and every length. A
/// signature copies the template and fills in three fields: the signing time, the content's SHA-256 and the RSA
/// signature over the DER SET of the signed attributes (hashed in place, with the SET header in front of the
/// template's `[0]` contents). Nothing is re-encoded.
///
/// The signed attributes' order is fixed: DER sorts a SET OF by encoding, and the three attributes' encodings
/// differ in their second byte (their lengths: 24, 28 or 30, 47), so contentType, signingTime, messageDigest is
/// their DER order for every time and digest.
final class DetachedCMSSigner: Sendable {
    /// Where the per-signature fields go in a template.
    struct Layout: Sendable {
        /// The whole signature with zeros in the time, digest and signature fields.
        let template: Data
        /// The signing time's TLV.
        let time: Range<Int>
        /// The messageDigest value (32 bytes).
        let digest: Range<Int>
        /// The contents of the `[0] IMPLICIT` signed attributes: what is signed, after ``attributesSetHeader``.
        let attributes: Range<Int>
        /// The DER header of the signed attributes as a SET (tag 0x31 and the same length): the signed bytes are
        /// this header followed by the attributes.
        let attributesSetHeader: [UInt8]
        /// The RSA signature.
        let signature: Range<Int>
    }

    /// The RSA key that signs.
    let key: RSASigningKey
    /// The layout for signing times from 1950 to 2049 (UTCTime).
    let utcTimeLayout: Layout
    /// The layout for other signing times (GeneralizedTime).
    let generalizedTimeLayout: Layout

    /// Encodes the fixed parts for `certificate` (the signer) and `intermediates`, signing with `key`.
    ///
    /// - Throws: ``WalletDocumentError/unreadableCertificate(_:)`` when a certificate cannot be encoded.
    init(certificate: Certificate, intermediates: [Certificate], key: RSASigningKey) throws(WalletDocumentError) {
        self.key = key
        let certificates: [UInt8]
        let signerIdentifier: [UInt8]
        do {
            var serializer = DER.Serializer()
            try serializer.serializeSetOf(
                intermediates + [certificate], identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
            certificates = serializer.serializedBytes
            serializer = DER.Serializer()
            try serializer.appendConstructedNode(identifier: .sequence) { coder in
                try coder.serialize(certificate.issuer)
                try coder.serialize(certificate.serialNumber.bytes)
            }
            signerIdentifier = serializer.serializedBytes
        } catch {
            throw .unreadableCertificate("the certificates cannot be encoded for a signature")
        }
        func layout(utcTime: Bool) -> Layout {
            Self.layout(
                certificates: certificates, signerIdentifier: signerIdentifier,
                timeCount: CMSSigningTime.encodedCount(utcTime: utcTime), signatureCount: key.signatureSize)
        }
        utcTimeLayout = layout(utcTime: true)
        generalizedTimeLayout = layout(utcTime: false)
    }

    /// The engine that signs.
    var engine: RSASigningEngine { key.engine }

    /// A detached CMS signature (DER) over exactly `content`, with `signingTime` as its signing-time attribute.
    ///
    /// - Throws: ``WalletDocumentError/signingFailed(_:)`` when the time is outside the years 0 to 9999 or the RSA
    ///   engine fails.
    func signature(for content: some DataProtocol, signingTime: Date) throws(WalletDocumentError) -> Data {
        let time = try CMSSigningTime(signingTime)
        let layout = time.isUTCTime ? utcTimeLayout : generalizedTimeLayout
        let contentDigest = SHA256.hash(data: content)
        var output = layout.template
        let outcome = output.withUnsafeMutableBytes { buffer in
            Result { () throws(WalletDocumentError) in
                time.write(to: UnsafeMutableRawBufferPointer(rebasing: buffer[layout.time]))
                contentDigest.withUnsafeBytes {
                    UnsafeMutableRawBufferPointer(rebasing: buffer[layout.digest]).copyMemory(from: $0)
                }
                var hasher = SHA256()
                hasher.update(data: layout.attributesSetHeader)
                hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[layout.attributes]))
                try key.sign(hasher.finalize(), into: UnsafeMutableRawBufferPointer(rebasing: buffer[layout.signature]))
            }
        }
        try outcome.get()
        return output
    }

    // MARK: Layout

    /// `id-data` (1.2.840.113549.1.7.1).
    static let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    /// `id-signedData` (1.2.840.113549.1.7.2).
    static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    /// `id-contentType` (1.2.840.113549.1.9.3).
    static let contentTypeOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x03]
    /// `id-messageDigest` (1.2.840.113549.1.9.4).
    static let messageDigestOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x04]
    /// `id-signingTime` (1.2.840.113549.1.9.5).
    static let signingTimeOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x09, 0x05]
    /// AlgorithmIdentifier `id-sha256` (2.16.840.1.101.3.4.2.1) with absent parameters (RFC 5754 § 2).
    static let sha256Algorithm: [UInt8] = [
        0x30, 0x0B, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01,
    ]
    /// AlgorithmIdentifier `sha256WithRSAEncryption` (1.2.840.113549.1.1.11) with NULL parameters (RFC 4055).
    static let sha256WithRSAAlgorithm: [UInt8] = [
        0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x0B, 0x05, 0x00,
    ]
    /// INTEGER 1: the version of SignedData and SignerInfo with an issuerAndSerialNumber.
    static let version1: [UInt8] = [0x02, 0x01, 0x01]

    /// A DER definite length.
    static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    /// A DER TLV: `tag`, the length of `content`, `content`.
    static func node(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        [tag] + length(content.count) + content
    }

    /// Lays out a whole signature with zeros where the time (`timeCount` bytes, TLV), the content digest and the
    /// signature (`signatureCount` bytes) go.
    ///
    /// Each variable field ends the structure it is in, and each structure that holds one ends its parent, so
    /// every offset is the total length minus what follows the field.
    static func layout(certificates: [UInt8], signerIdentifier: [UInt8], timeCount: Int, signatureCount: Int)
        -> Layout
    {
        let contentType = node(0x30, contentTypeOID + node(0x31, dataOID))
        let signingTime = node(0x30, signingTimeOID + node(0x31, [UInt8](repeating: 0, count: timeCount)))
        let messageDigest = node(0x30, messageDigestOID + node(0x31, node(0x04, [UInt8](repeating: 0, count: 32))))
        let attributes = contentType + signingTime + messageDigest
        let signerPrefix = version1 + signerIdentifier + sha256Algorithm
        let signerInfo =
            signerPrefix + node(0xA0, attributes) + sha256WithRSAAlgorithm
            + node(0x04, [UInt8](repeating: 0, count: signatureCount))
        let signedData =
            version1 + node(0x31, sha256Algorithm) + node(0x30, dataOID) + certificates
            + node(0x31, node(0x30, signerInfo))
        let whole = node(0x30, signedDataOID + node(0xA0, node(0x30, signedData)))

        let signerInfoStart = whole.count - signerInfo.count
        let attributesStart = signerInfoStart + signerPrefix.count + 1 + length(attributes.count).count
        let timeStart = attributesStart + contentType.count + signingTime.count - timeCount
        let digestStart = attributesStart + attributes.count - 32
        return Layout(
            template: Data(whole), time: timeStart..<(timeStart + timeCount), digest: digestStart..<(digestStart + 32),
            attributes: attributesStart..<(attributesStart + attributes.count),
            attributesSetHeader: [0x31] + length(attributes.count),
            signature: (whole.count - signatureCount)..<whole.count)
    }
}
