import Foundation

/// A pass's or an order's files before signing, as a tool that signs either kind sees them: read from a folder or an
/// archive, linted, signed into the archive Wallet takes.
public protocol SignableDocument {
    /// What the document's lint reports.
    associatedtype LintReport: DocumentLintReport

    /// Reads the document from a folder or an archive.
    init(contentsOf url: URL) throws
    /// What lint finds in the document and its files.
    func lint() -> LintReport
    /// The signed archive (`.pkpass`, `.order`); the lint's errors stop it.
    func signedArchive(by signer: DocumentSigner, signingTime: Date) throws -> Data
}
