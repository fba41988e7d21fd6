import Foundation
import WalletDocuments

/// A pass type's shared files (images, localizations) hashed and laid out for the archive once, so that each pass
/// made from it costs only its `pass.json`, the manifest, the signature and one copy into the archive.
///
/// A template holds everything but `pass.json`, `manifest.json` and `signature`: each file's SHA-1 for the manifest
/// and its ZIP entry (CRC-32 and sizes computed). ``pkpass(passJSON:files:signer:signingTime:)`` validates the pass
/// as ``DocumentSigner/sign(_:signingTime:)`` does and returns the same archive, byte for byte, that
/// `signer.sign(package).pkpass()` returns for a package of the same files.
///
/// A template is immutable: share one between tasks and requests.
///
/// ```swift
/// let template = try PreparedPassTemplate(directory: passTypeFolder)  // once
/// let pkpass = try template.pkpass(passJSON: try pass.encoded(), signer: signer)  // per pass
/// ```
public struct PreparedPassTemplate: Sendable {
    /// The template's files, by path.
    public let files: [String: Data]
    /// The entries, sorted by path.
    let entries: [ZIPStoredEntry]
    /// Each file's lowercase hex SHA-1, by path.
    let hashes: [String: String]
    /// The files' total size in bytes.
    let totalSize: Int

    /// Prepares `files` (images and `xx.lproj/` localizations, by path).
    ///
    /// - Throws: ``WalletDocumentError/invalidFilePath(_:reason:)`` for a `pass.json` (each pass brings its own), a
    ///   `manifest.json` or `signature`, and a path a pass may not hold (absolute, `..`, hidden, nested);
    ///   ``WalletDocumentError/tooLarge(what:limit:)`` when the files exceed ``PassPackage/maximumTotalSize``;
    ///   ``WalletDocumentError/invalidPass(_:)`` for a `.png` that is not a PNG or a `pass.strings` Wallet cannot read.
    public init(files: [String: Data]) throws {
        var total = 0
        var context = LintContext()
        for path in files.keys.sorted() {
            try Self.checkTemplatePath(path)
            total += files[path]!.count
            DocumentChecks.checkFile(path, files[path]!, stringsFile: "pass.strings", in: &context)
        }
        guard total <= PassPackage.maximumTotalSize else {
            throw WalletDocumentError.tooLarge(what: "the template's files", limit: PassPackage.maximumTotalSize)
        }
        guard context.findings.isEmpty else { throw WalletDocumentError.invalidPass(context.findings) }
        self.files = files
        self.totalSize = total
        self.entries = try files.keys.sorted().map { try ZIPStoredEntry(path: $0, data: files[$0]!) }
        self.hashes = files.mapValues(DocumentManifest.hash)
    }

    /// Prepares a pass type's folder: its images and `xx.lproj/` folders. A `pass.json`, `manifest.json` or
    /// `signature` in it is skipped (each pass brings its own `pass.json`), and so are hidden files.
    ///
    /// - Throws: ``WalletDocumentError/invalidFilePath(_:reason:)`` for a folder that cannot be read, symbolic links,
    ///   anything but regular files, and folders deeper than `xx.lproj/`; the errors of ``init(files:)``.
    public init(directory: URL) throws {
        var files = try DocumentFiles.read(directory: directory)
        files["pass.json"] = nil
        try self.init(files: files)
    }

    /// Prepares a package's files but its `pass.json`.
    public init(package: PassPackage) throws {
        var files = package.files
        files["pass.json"] = nil
        try self.init(files: files)
    }

    /// The sorted paths of the template's files.
    public var paths: [String] { entries.map(\.path) }

    /// The signed `.pkpass` of the pass whose `pass.json` is `passJSON`, with the template's files and `files`.
    ///
    /// - Parameters:
    ///   - passJSON: The pass's `pass.json`.
    ///   - files: Files of this pass only (say a personalized `strip.png`); none may be one of the template's.
    ///   - signer: Signs `manifest.json`; its identity must be for the pass's type and team.
    ///   - signingTime: The signature's signing time.
    /// - Throws: What ``DocumentSigner/sign(_:signingTime:)`` throws for a package of the same files:
    ///   ``WalletDocumentError/invalidPass(_:)``, ``WalletDocumentError/identityMismatch(expected:found:)``,
    ///   ``WalletDocumentError/tooLarge(what:limit:)``; ``WalletDocumentError/invalidFilePath(_:reason:)`` for a file
    ///   the template has already, a `pass.json` among `files`, or a path a pass may not hold.
    public func pkpass(passJSON: Data, files: [String: Data] = [:], signer: DocumentSigner, signingTime: Date = Date())
        throws -> Data
    {
        let signed = try assemble(passJSON: passJSON, files: files, signer: signer, signingTime: signingTime)
        return try ZIPWriter.archive(signed.entries)
    }

    /// ``pkpass(passJSON:files:signer:signingTime:)`` for a pass model, encoded as ``Pass/encoded()`` encodes it.
    public func pkpass(pass: Pass, files: [String: Data] = [:], signer: DocumentSigner, signingTime: Date = Date())
        throws -> Data
    {
        try pkpass(passJSON: try pass.encoded(), files: files, signer: signer, signingTime: signingTime)
    }

    /// The signed pass (files, manifest, signature) that ``pkpass(passJSON:files:signer:signingTime:)`` archives.
    public func sign(passJSON: Data, files: [String: Data] = [:], signer: DocumentSigner, signingTime: Date = Date())
        throws -> SignedPass
    {
        let signed = try assemble(passJSON: passJSON, files: files, signer: signer, signingTime: signingTime)
        var all = self.files.merging(files) { template, _ in template }
        all["pass.json"] = passJSON
        return SignedPass(files: all, manifest: signed.manifest, signature: signed.signature)
    }

    /// `manifest.json` for the pass whose `pass.json` is `passJSON`, with the template's files and `files`: the bytes
    /// ``PassPackage/manifest()`` makes for a package of the same files.
    public func manifest(passJSON: Data, files: [String: Data] = [:]) throws -> Data {
        try checkPassFiles(passJSON: passJSON, files: files)
        return manifest(passJSONHash: DocumentManifest.hash(passJSON), files: files)
    }

    /// Validates the pass, signs its manifest and returns every entry of its archive, sorted by path.
    private func assemble(passJSON: Data, files: [String: Data], signer: DocumentSigner, signingTime: Date) throws -> (
        manifest: Data, signature: Data, entries: [ZIPStoredEntry]
    ) {
        try checkPassFiles(passJSON: passJSON, files: files)
        try validate(passJSON: passJSON, files: files, identity: signer.identity)
        let manifest = manifest(passJSONHash: DocumentManifest.hash(passJSON), files: files)
        let signature = try signer.signature(for: manifest, signingTime: signingTime)
        var added = [
            try ZIPStoredEntry(path: "pass.json", data: passJSON),
            try ZIPStoredEntry(path: "manifest.json", data: manifest),
            try ZIPStoredEntry(path: "signature", data: signature),
        ]
        for (path, data) in files {
            added.append(try ZIPStoredEntry(path: path, data: data))
        }
        added.sort { $0.path < $1.path }
        // Merge the two sorted lists: the template's entries are sorted already.
        var merged: [ZIPStoredEntry] = []
        merged.reserveCapacity(entries.count + added.count)
        var next = added.startIndex
        for entry in entries {
            while next < added.endIndex, added[next].path < entry.path {
                merged.append(added[next])
                next += 1
            }
            merged.append(entry)
        }
        merged += added[next...]
        return (manifest, signature, merged)
    }

    /// Checks the paths and sizes of a pass's own files.
    private func checkPassFiles(passJSON: Data, files: [String: Data]) throws {
        var total = totalSize + passJSON.count
        for (path, data) in files {
            try DocumentFiles.validate(path: path)
            guard path != "pass.json" else {
                throw WalletDocumentError.invalidFilePath(
                    path, reason: "pass.json is the passJSON argument, not one of the pass's other files")
            }
            guard hashes[path] == nil else {
                throw WalletDocumentError.invalidFilePath(
                    path, reason: "the template has this file already; make a template without it to vary it per pass")
            }
            total += data.count
        }
        guard total <= PassPackage.maximumTotalSize else {
            throw WalletDocumentError.tooLarge(what: "the pass's files", limit: PassPackage.maximumTotalSize)
        }
    }

    /// What ``DocumentSigner/sign(_:signingTime:)`` checks: the errors ``PassLint`` finds in the pass with the
    /// template's files and its own, and the signer's pass type and team.
    private func validate(passJSON: Data, files: [String: Data], identity: SigningIdentity) throws {
        let report = PassLint.report(passJSON: passJSON, files: self.files.merging(files) { template, _ in template })
        guard report.isValid, let pass = report.pass else { throw WalletDocumentError.invalidPass(report.errors) }
        try identity.check(passTypeIdentifier: pass.passTypeIdentifier, teamIdentifier: pass.teamIdentifier)
    }

    private func manifest(passJSONHash: String, files: [String: Data]) -> Data {
        var all = hashes
        all["pass.json"] = passJSONHash
        for (path, data) in files {
            all[path] = DocumentManifest.hash(data)
        }
        return DocumentManifest.json(all)
    }

    /// Checks a path given to a template.
    private static func checkTemplatePath(_ path: String) throws {
        guard path != "pass.json" else {
            throw WalletDocumentError.invalidFilePath(
                path, reason: "a template holds the files passes share; give each pass its own pass.json")
        }
        try DocumentFiles.validate(path: path)
    }
}
