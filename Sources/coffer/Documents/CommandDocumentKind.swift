import Foundation
import WalletDocuments

/// What `coffer pass` and `coffer order` say and do differently in the commands they share: build, verify and
/// dev-identity (``BuildCommand``, ``VerifyCommand``, ``DevIdentityCommand``).
protocol CommandDocumentKind {
    /// The document's package: `PassPackage` or `OrderPackage`.
    associatedtype Package: SignableDocument

    /// The parent command's name: `pass` or `order`.
    static var name: String { get }
    /// The signed archive's extension, with its dot: `.pkpass` or `.order`.
    static var archiveExtension: String { get }
    /// What `build` says of itself and its argument.
    static var buildHelp: (abstract: String, discussion: String, source: String) { get }
    /// What `verify` checks, for its abstract.
    static var verifyAbstract: String { get }
    /// An example archive name for the commands dev-identity suggests.
    static var exampleArchive: String { get }

    /// What verifying `archive` found: a line naming the document, and its signer's subject.
    static func verify(_ archive: Data, with verifier: DocumentVerifier) async throws -> (
        summary: String, signer: String
    )
    /// A development identity for `typeIdentifier`.
    static func developmentIdentity(typeIdentifier: String, teamIdentifier: String, organizationName: String)
        throws -> DevelopmentIdentity
}

extension CommandDocumentKind {
    /// The document at `source` (a folder, or an archive) signed by `signer`, each lint warning given to `warn`.
    static func signedArchive(of source: URL, by signer: DocumentSigner, warn: (LintFinding) -> Void) throws -> Data {
        let package = try Package(contentsOf: source)
        package.lint().warnings.forEach(warn)
        return try package.signedArchive(by: signer, signingTime: Date())
    }

    /// What the type identifier is called in prose: `pass type` or `order type`.
    static var typeName: String { "\(name) type" }
    /// The certificate's name in prose: `Pass Type ID` or `Order Type ID`.
    static var certificateName: String { "\(name.capitalized) Type ID" }
    /// The long name of dev-identity's type identifier option (`--pass-type-identifier`), and its default.
    static var typeIdentifierOption: (name: String, defaultValue: String) {
        ("\(name)-type-identifier", "\(name).dev.coffer.example")
    }
    /// The file names a development identity writes for its leaf: `pass-type` or `order-type`.
    static var identityFileStem: String { "\(name)-type" }
}
