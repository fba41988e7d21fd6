import Crypto
import Foundation

/// The files of a pass before signing: `pass.json`, images (`icon.png`, `logo@2x.png`, …) and localizations
/// (`fr.lproj/pass.strings`, `fr.lproj/logo.png`).
///
/// Paths are relative, use `/`, and are at most one directory deep (an `xx.lproj` folder). `manifest.json` and
/// `signature` are made by signing, never taken from the input.
public struct PassPackage: Hashable, Sendable {
    /// The files that go into the pass, by path.
    public private(set) var files: [String: Data]

    /// The files `PassPackage` makes itself and never reads from the input.
    public static let generatedFiles: Set<String> = ["manifest.json", "signature"]
    /// The largest total size of a pass's files (Wallet's own limit is lower in practice).
    public static let maximumTotalSize = 32 * 1024 * 1024

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
        try self.init(files: try Self.read(directory: directory))
    }

    /// The files of a pass directory, by path: hidden files and an existing `manifest.json` or `signature` are
    /// skipped; symbolic links, deeper folders and anything but regular files are refused.
    static func read(directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let manager = FileManager.default
        let keys: [URLResourceKey] = [.isDirectoryKey, .isSymbolicLinkKey, .isRegularFileKey, .fileSizeKey]
        func entries(_ url: URL) throws -> [URL] {
            try manager.contentsOfDirectory(at: url, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        }
        func read(_ url: URL, as path: String) throws {
            let values = try url.resourceValues(forKeys: Set(keys))
            if values.isSymbolicLink == true {
                throw WalletPassesError.invalidFilePath(path, reason: "symbolic links are not followed")
            }
            if values.isDirectory == true {
                guard !path.contains("/") else {
                    throw WalletPassesError.invalidFilePath(path, reason: "only one level of folders (xx.lproj)")
                }
                for child in try entries(url) {
                    try read(child, as: path + "/" + child.lastPathComponent)
                }
            } else if !generatedFiles.contains(path) {
                guard values.isRegularFile == true else {
                    throw WalletPassesError.invalidFilePath(path, reason: "only regular files go into a pass")
                }
                guard (values.fileSize ?? 0) <= maximumTotalSize else {
                    throw WalletPassesError.tooLarge(what: "the pass's files", limit: maximumTotalSize)
                }
                files[path] = try Data(contentsOf: url)
            }
        }
        do {
            for entry in try entries(directory) {
                try read(entry, as: entry.lastPathComponent)
            }
        } catch let error as WalletPassesError {
            throw error
        } catch {
            throw WalletPassesError.invalidFilePath(
                directory.path,
                reason: "the folder cannot be read (\(error.localizedDescription)); check that it exists "
                    + "and that this user may read it")
        }
        return files
    }

    /// Adds or replaces a file.
    public mutating func add(_ data: Data, at path: String) throws {
        try Self.validate(path: path)
        files[path] = data
        let total = files.values.reduce(0) { $0 + $1.count }
        guard total <= Self.maximumTotalSize else {
            files[path] = nil
            throw WalletPassesError.tooLarge(what: "the pass's files", limit: Self.maximumTotalSize)
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
                throw WalletPassesError.invalidPass([
                    PassFinding(code: "json.missing", severity: .error, path: "pass.json", message: "is missing")
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
            throw WalletPassesError.malformedPassJSON(describe(error))
        } catch {
            throw WalletPassesError.malformedPassJSON("not valid JSON")
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

    /// Throws ``WalletPassesError/invalidPass(_:)`` with the errors ``lint()`` finds, if any.
    public func validate() throws {
        guard files["pass.json"] != nil else { _ = try pass; return }
        let errors = lint().errors
        guard errors.isEmpty else { throw WalletPassesError.invalidPass(errors) }
    }

    /// `manifest.json`: every file's lowercase hex SHA-1, keys sorted, slashes unescaped.
    public func manifest() throws -> Data {
        try Self.manifest(for: files)
    }

    static func manifest(for files: [String: Data]) throws -> Data {
        PassManifest.json(files.mapValues(PassManifest.hash))
    }

    /// Checks that `path` is a safe, allowed path inside a pass.
    static func validate(path: String) throws {
        func reject(_ reason: String) -> WalletPassesError { .invalidFilePath(path, reason: reason) }
        guard !path.isEmpty, path.utf8.count <= 255 else { throw reject("the path is empty or too long") }
        guard !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\u{0}") else {
            throw reject("paths are relative and use '/'")
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count <= 2 else { throw reject("only one level of folders (xx.lproj)") }
        for segment in segments {
            guard !segment.isEmpty, segment != ".", segment != ".." else { throw reject("empty, '.' or '..' segment") }
            guard !segment.hasPrefix(".") else { throw reject("hidden files are not part of a pass") }
        }
        if segments.count == 2 {
            guard segments[0].hasSuffix(".lproj") else { throw reject("folders must be localizations (xx.lproj)") }
        }
        guard !generatedFiles.contains(path) else { throw reject("it is generated when the pass is signed") }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "'\(parent.isEmpty ? "" : parent + ".")\(key.stringValue)' is required"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "'\(path(context))' should be \(type)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? context.debugDescription : "'\(path(context))': \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
