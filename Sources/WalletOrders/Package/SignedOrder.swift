import Foundation
import WalletDocuments

/// A signed order: its files, `manifest.json` (SHA-256) and `signature`, zipped as a `.order`.
public struct SignedOrder: Hashable, Sendable {
    /// The MIME type of a `.order`, as Wallet and Safari expect it.
    public static let mimeType = "application/vnd.apple.finance.order"

    /// The order's own files.
    public let files: [String: Data]
    /// `manifest.json`.
    public let manifest: Data
    /// `signature`: detached CMS over ``manifest``.
    public let signature: Data
    /// The `.order` archive (ZIP).
    public let archive: Data

    /// Zips the parts; throws ``WalletDocumentError/tooLarge(what:limit:)`` when the archive reaches Wallet's 5 MB.
    init(files: [String: Data], manifest: Data, signature: Data) throws {
        var entries = files
        entries["manifest.json"] = manifest
        entries["signature"] = signature
        let archive = try DocumentArchive.zip(entries)
        guard archive.count < OrderPackage.maximumTotalSize else {
            throw WalletDocumentError.tooLarge(what: "the signed order", limit: OrderPackage.maximumTotalSize)
        }
        self.files = files
        self.manifest = manifest
        self.signature = signature
        self.archive = archive
    }
}
