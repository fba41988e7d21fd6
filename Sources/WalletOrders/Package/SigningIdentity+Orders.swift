import WalletDocuments
import X509

extension SigningIdentity {
    /// Throws ``WalletDocumentError/identityMismatch(expected:found:)`` unless `certificate` is the Order Type ID
    /// certificate of `orderTypeIdentifier`: its subject's UID names it, and Apple's Pass Type ID extension, when the
    /// certificate carries one, names it too.
    ///
    /// Apple publishes no extension that marks Order Type ID certificates alone, so a certificate is told apart by
    /// its UID; a Pass Type ID certificate names a `pass.` identifier there and cannot sign an order.
    public static func check(_ certificate: Certificate, orderTypeIdentifier expected: String) throws {
        let subjectType = attribute(userIDOID, of: certificate.subject)
        let marker = certificate.extensions[oid: passTypeIDExtensionOID].flatMap { markerString($0.value) }
        guard !expected.isEmpty, subjectType == expected, marker == nil || marker == expected else {
            throw WalletDocumentError.identityMismatch(
                expected: "order type \(expected)",
                found: subjectType.map {
                    "\($0)" + (marker.map { $0 == subjectType ? "" : " (extension naming \($0))" } ?? "")
                }
                    ?? "a certificate naming no type identifier")
        }
    }
}
