import Foundation
import X509

/// A pass or an order that passed verification: the parsed document, its files and the certificate that signed it.
public struct VerifiedDocument<Document: Sendable>: Sendable {
    /// The parsed `pass.json` or `order.json`.
    public let document: Document
    /// The document's files (without `manifest.json` and `signature`).
    public let files: [String: Data]
    /// The certificate that signed it.
    public let signer: Certificate

    /// Creates the record of a verification.
    package init(document: Document, files: [String: Data], signer: Certificate) {
        self.document = document
        self.files = files
        self.signer = signer
    }

    /// The signer's subject, for display.
    public var signerSubject: String { signer.subject.description }
}
