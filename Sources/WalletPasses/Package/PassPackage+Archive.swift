import Foundation
import WalletDocuments

extension PassPackage {
    /// The package's files as a ZIP archive: how an unsigned pass is stored (for example by the server, which
    /// re-signs it when a device binds it).
    public func archived() throws -> Data {
        try DocumentArchive.zip(files)
    }

    /// Reads a package that ``archived()`` produced; its paths are checked like any other input.
    public init(archive: Data) throws {
        try self.init(files: try DocumentArchive.unzip(archive))
    }

    /// The pass of an archive that ``archived()`` produced, read without inflating its other files (a listing of
    /// many passes needs only their `pass.json`).
    ///
    /// - Throws: ``WalletDocumentError`` for an archive that is damaged or has no `pass.json`.
    public static func pass(inArchive archive: Data) throws -> Pass {
        guard let json = try DocumentArchive.unzip(archive, only: ["pass.json"])["pass.json"] else {
            throw WalletDocumentError.malformedArchive("the archive has no pass.json")
        }
        return try decodePass(json)
    }
}
