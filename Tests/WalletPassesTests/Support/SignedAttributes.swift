import Foundation
import SwiftASN1

/// What a detached CMS signature carries, read with swift-asn1 independently of the signer's byte template.
struct SignedAttributes {
    /// The signed attributes' type OIDs, in encoded order.
    var types: [ASN1ObjectIdentifier] = []
    /// The signingTime value: its tag (UTCTime or GeneralizedTime) and its text.
    var signingTime: (tag: ASN1Identifier, text: String)?
    /// The messageDigest value.
    var messageDigest: [UInt8]?
    /// The contentType value.
    var contentType: ASN1ObjectIdentifier?
    /// How many certificates the SignedData carries.
    var certificateCount = 0
    /// Whether `encapContentInfo` has no content (a detached signature).
    var isDetached = false
    /// The RSA signature's length in bytes.
    var signatureLength = 0

    static let contentTypeOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 3]
    static let messageDigestOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 4]
    static let signingTimeOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 5]
    static let dataOID: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 7, 1]

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads `signature` (DER ContentInfo of a SignedData with one SignerInfo).
    init(_ signature: Data) throws {
        let contentInfo = try Self.children(try DER.parse([UInt8](signature)))
        let signedData = try Self.children(try Self.children(try Self.element(contentInfo, 1))[0])
        isDetached = try Self.children(try Self.element(signedData, 2)).count == 1
        certificateCount = try Self.children(try Self.element(signedData, 3)).count
        let signerInfo = try Self.children(try Self.children(try Self.element(signedData, 4))[0])
        guard case .primitive(let signatureBytes) = try Self.element(signerInfo, 5).content else {
            throw Malformed(description: "the signature is not an OCTET STRING")
        }
        signatureLength = signatureBytes.count
        for attribute in try Self.children(try Self.element(signerInfo, 3)) {
            let parts = try Self.children(attribute)
            let type = try ASN1ObjectIdentifier(derEncoded: try Self.element(parts, 0))
            let value = try Self.element(try Self.children(try Self.element(parts, 1)), 0)
            types.append(type)
            switch type {
            case Self.signingTimeOID:
                guard case .primitive(let bytes) = value.content else { throw Malformed(description: "signingTime") }
                signingTime = (value.identifier, String(decoding: bytes, as: UTF8.self))
            case Self.messageDigestOID:
                messageDigest = Array(try ASN1OctetString(derEncoded: value).bytes)
            case Self.contentTypeOID:
                contentType = try ASN1ObjectIdentifier(derEncoded: value)
            default:
                break
            }
        }
    }

    static func children(_ node: ASN1Node) throws -> [ASN1Node] {
        guard case .constructed(let nodes) = node.content else {
            throw Malformed(description: "\(node.identifier) is not constructed")
        }
        return Array(nodes)
    }

    static func element(_ nodes: [ASN1Node], _ index: Int) throws -> ASN1Node {
        guard nodes.indices.contains(index) else { throw Malformed(description: "no element \(index)") }
        return nodes[index]
    }
}
