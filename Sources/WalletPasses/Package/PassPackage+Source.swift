import Foundation
import WalletDocuments

extension PassPackage {
    /// Files Apple's tools keep beside a pass that are not part of it: Pass Designer's `tooling.json`.
    public static let toolingFiles: Set<String> = ["tooling.json"]

    /// Reads a pass in any form it is kept in: a pass folder; a Pass Designer template (`.pkpasstemplate`, a folder
    /// or a ZIP of one); or a `.pkpass`, whose manifest and signature are left out (signing makes them anew).
    ///
    /// Pass Designer's `tooling.json` is left out, and so are a ZIP's hidden files and `__MACOSX` folder; a ZIP whose
    /// every file is inside one folder (`Ticket.pkpasstemplate/pass.json`) is read from that folder.
    ///
    /// - Throws: ``WalletDocumentError/invalidFilePath(_:reason:)`` for a source that cannot be read or holds a path a
    ///   pass may not, ``WalletDocumentError/malformedArchive(_:)`` for a file that is not a ZIP archive, and the
    ///   errors of ``init(files:)``.
    public init(contentsOf url: URL) throws {
        var files = try DocumentFiles.read(contentsOf: url, payload: "pass.json")
        for path in Self.toolingFiles { files[path] = nil }
        try self.init(files: files)
    }
}

extension PassPackage: SignableDocument {
    /// The signed `.pkpass` (``DocumentSigner/sign(_:signingTime:)``).
    public func signedArchive(by signer: DocumentSigner, signingTime: Date) throws -> Data {
        try signer.sign(self, signingTime: signingTime).pkpass()
    }
}
