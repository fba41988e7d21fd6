import SwiftASN1

/// Rewrites what OpenSSL (and every pass library built on it: pyca/cryptography's `PKCS7SignatureBuilder`, Ruby,
/// PHP) writes as a SignerInfo's signature algorithm into the form swift-certificates verifies.
///
/// OpenSSL writes `rsaEncryption` (1.2.840.113549.1.1.1) there and lets the SignerInfo's digest algorithm name the
/// hash, which RFC 3370 §3.2 allows. swift-certificates accepts only `sha256WithRSAEncryption` and its siblings. The
/// signature value covers the signed attributes (or the content), never the SignerInfo's algorithm field, so
/// naming the combined algorithm changes nothing that was signed.
enum CMSSignatureAlgorithm {
    /// `rsaEncryption`, RFC 3370 §3.2.
    static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]

    /// SHA-2 digest algorithm → the matching PKCS #1 v1.5 signature algorithm (RFC 4055 §5).
    static let rsaSignatureByDigest: [ASN1ObjectIdentifier: ASN1ObjectIdentifier] = [
        [2, 16, 840, 1, 101, 3, 4, 2, 1]: [1, 2, 840, 113_549, 1, 1, 11],  // sha256 → sha256WithRSAEncryption
        [2, 16, 840, 1, 101, 3, 4, 2, 2]: [1, 2, 840, 113_549, 1, 1, 12],  // sha384 → sha384WithRSAEncryption
        [2, 16, 840, 1, 101, 3, 4, 2, 3]: [1, 2, 840, 113_549, 1, 1, 13],  // sha512 → sha512WithRSAEncryption
    ]

    /// `signature` with every SignerInfo whose signature algorithm is `rsaEncryption` over a SHA-2 digest naming
    /// the combined algorithm instead; the input unchanged when there is nothing to rewrite or it cannot be parsed
    /// (the verifier then reports why).
    static func normalized(_ signature: [UInt8]) -> [UInt8] {
        guard let contentInfo = try? BER.parse(signature),
            let rewritten = try? rewrite(contentInfo, path: [1, 0, -1], leaf: rewriteSignerInfos)
        else { return signature }
        return rewritten
    }

    /// Re-encodes `node`, descending through the child at each index of `path` (-1: the last child) and handing
    /// the node at the end to `leaf`; returns `nil` when nothing changed.
    private static func rewrite(
        _ node: ASN1Node, path: ArraySlice<Int>, leaf: (ASN1Node) throws -> [UInt8]?
    ) throws -> [UInt8]? {
        guard let step = path.first else { return try leaf(node) }
        guard case .constructed(let collection) = node.content else { return nil }
        let children = Array(collection)
        let index = step < 0 ? children.count + step : step
        guard children.indices.contains(index),
            let replacement = try rewrite(children[index], path: path.dropFirst(), leaf: leaf)
        else { return nil }
        return reencode(node.identifier, children: children) { $0 == index ? replacement : nil }
    }

    /// Rewrites each SignerInfo of the `signerInfos` SET.
    private static func rewriteSignerInfos(_ signerInfos: ASN1Node) throws -> [UInt8]? {
        guard case .constructed(let collection) = signerInfos.content else { return nil }
        let children = Array(collection)
        let replacements = try children.map(rewriteSignerInfo)
        guard replacements.contains(where: { $0 != nil }) else { return nil }
        return reencode(signerInfos.identifier, children: children) { replacements[$0] }
    }

    /// SignerInfo ::= SEQUENCE { version, sid, digestAlgorithm, [0] signedAttrs OPTIONAL, signatureAlgorithm, … }
    private static func rewriteSignerInfo(_ signerInfo: ASN1Node) throws -> [UInt8]? {
        guard case .constructed(let collection) = signerInfo.content else { return nil }
        let children = Array(collection)
        guard children.count >= 5 else { return nil }
        let hasSignedAttributes = children[3].identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific)
        let signatureIndex = hasSignedAttributes ? 4 : 3
        guard children.count > signatureIndex,
            try algorithm(of: children[signatureIndex]) == rsaEncryption,
            let combined = rsaSignatureByDigest[try algorithm(of: children[2])]
        else { return nil }
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            try coder.serialize(combined)
            try coder.serialize(ASN1Null())
        }
        let replacement = serializer.serializedBytes
        return reencode(signerInfo.identifier, children: children) { $0 == signatureIndex ? replacement : nil }
    }

    /// The OID of an AlgorithmIdentifier.
    private static func algorithm(of node: ASN1Node) throws -> ASN1ObjectIdentifier {
        guard case .constructed(let collection) = node.content, let first = collection.first(where: { _ in true })
        else { throw ASN1Error.invalidASN1Object(reason: "not an AlgorithmIdentifier") }
        return try ASN1ObjectIdentifier(derEncoded: first)
    }

    /// A constructed node with its children's original bytes, except those `replacement` gives.
    private static func reencode(
        _ identifier: ASN1Identifier, children: [ASN1Node], replacement: (Int) -> [UInt8]?
    ) -> [UInt8] {
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: identifier) { coder in
            for (index, child) in children.enumerated() {
                coder.serializeRawBytes(replacement(index) ?? Array(child.encodedBytes))
            }
        }
        return serializer.serializedBytes
    }
}
