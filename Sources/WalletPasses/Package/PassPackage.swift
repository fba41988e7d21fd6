import Crypto
import Foundation
import WalletDocuments

/// The files of a pass before signing: `pass.json`, images (`icon.png`, `logo@2x.png`, …) and localizations
/// (`fr.lproj/pass.strings`, `fr.lproj/logo.png`).
///
/// Paths are relative, use `/`, and are at most one directory deep (an `xx.lproj` folder). `manifest.json` and
/// `signature` are made by signing, never taken from the input.
public struct PassPackage: Hashable, Sendable {
    /// The files that go into the pass, by path.
    public private(set) var files: [String: Data]

    /// The files `PassPackage` makes itself and never reads from the input.
    public static let generatedFiles = DocumentFiles.generatedFiles
    /// The largest total size of a pass's files (Wallet's own limit is lower in practice).
    public static let maximumTotalSize = DocumentFiles.maximumTotalSize

    /// Creates a package from `pass.json` bytes and other files.
    public init(files: [String: Data]) throws {
        self.files = [:]
        for (path, data) in files {
            try add(data, at: path)
        }
    }

    /// Creates a package from a pass model and its other files (images, localizations).
    public init(pass: Pass, files: [String: Data] = [:]) throws {
        try self.init(files: files)
        try add(try pass.encoded(), at: "pass.json")
    }

    /// Reads a pass directory (`pass.json`, images, `xx.lproj/`); hidden files and an existing `manifest.json` or
    /// `signature` are skipped; symbolic links and deeper folders are refused.
    public init(directory: URL) throws {
        try self.init(files: try DocumentFiles.read(directory: directory))
    }

    /// Adds or replaces a file.
    public mutating func add(_ data: Data, at path: String) throws {
        try DocumentFiles.validate(path: path)
        files[path] = data
        let total = files.values.reduce(0) { $0 + $1.count }
        guard total <= Self.maximumTotalSize else {
            files[path] = nil
            throw WalletDocumentError.tooLarge(what: "the pass's files", limit: Self.maximumTotalSize)
        }
    }

    /// Removes the file at `path` (a personalizable pass's `personalization.json` once it was personalized, for
    /// example); returns whether there was one.
    @discardableResult
    public mutating func remove(at path: String) -> Bool {
        files.removeValue(forKey: path) != nil
    }

    /// The parsed `pass.json`.
    public var pass: Pass {
        get throws {
            guard let json = files["pass.json"] else {
                throw WalletDocumentError.invalidPass([
                    LintFinding(code: "json.missing", severity: .error, path: "pass.json", message: "is missing")
                ])
            }
            return try Self.decodePass(json)
        }
    }

    /// Parses `pass.json`, describing what is wrong when it cannot.
    static func decodePass(_ json: Data) throws -> Pass {
        do {
            return try Pass(json: json)
        } catch let error as DecodingError {
            throw WalletDocumentError.malformedPassJSON(DocumentFiles.describe(error))
        } catch {
            throw WalletDocumentError.malformedPassJSON("not valid JSON")
        }
    }

    /// Replaces `pass.json` with `pass`.
    public mutating func setPass(_ pass: Pass) throws {
        try add(try pass.encoded(), at: "pass.json")
    }

    /// What ``PassLint`` finds in the pass and its files.
    public func lint() -> PassLintReport {
        var others = files
        let json = others.removeValue(forKey: "pass.json")
        return PassLint.report(passJSON: json ?? Data("{}".utf8), files: others)
    }

    /// Throws ``WalletDocumentError/invalidPass(_:)`` with the errors ``lint()`` finds, if any.
    public func validate() throws {
        guard files["pass.json"] != nil else { _ = try pass; return }
        let errors = lint().errors
        guard errors.isEmpty else { throw WalletDocumentError.invalidPass(errors) }
    }

    /// `manifest.json`: every file's lowercase hex SHA-1, keys sorted, slashes unescaped.
    public func manifest() throws -> Data {
        try Self.manifest(for: files)
    }

    static func manifest(for files: [String: Data]) throws -> Data {
        DocumentManifest.json(files.mapValues(DocumentManifest.hash))
    }

}
