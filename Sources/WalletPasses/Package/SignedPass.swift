import Foundation
import WalletDocuments

/// A signed pass: its files, `manifest.json` and `signature`, ready to be zipped as a `.pkpass`.
public struct SignedPass: Hashable, Sendable {
    /// The pass's own files.
    public let files: [String: Data]
    /// `manifest.json`.
    public let manifest: Data
    /// `signature`: detached CMS over ``manifest``.
    public let signature: Data

    /// The `.pkpass` archive (ZIP).
    public func pkpass() throws -> Data {
        var entries = files
        entries["manifest.json"] = manifest
        entries["signature"] = signature
        return try DocumentArchive.zip(entries)
    }

    /// A `.pkpasses` bundle: several `.pkpass` archives in one ZIP, added to Wallet together.
    public static func bundle(_ passes: [SignedPass]) throws -> Data {
        var entries: [String: Data] = [:]
        for (index, pass) in passes.enumerated() {
            entries["pass-\(index + 1).pkpass"] = try pass.pkpass()
        }
        return try DocumentArchive.zip(entries)
    }
}
