import Foundation

/// The files of a Wallet document's bundle (a pass's, an order's): the paths allowed in it, a folder or an archive
/// read into it, and the files signing generates.
package enum DocumentFiles {
    /// The files signing makes itself (`manifest.json`, `signature`), never read from the input.
    package static let generatedFiles: Set<String> = ["manifest.json", "signature"]
    /// The largest total size of the files read from a document's folder.
    package static let maximumTotalSize = 32 * 1024 * 1024

    /// The files of a document in any form it is kept in: a folder, or an archive (ZIP) whose hidden files, `__MACOSX`
    /// folder and one enclosing folder are left out when `payload` (`pass.json`, `order.json`) is not at its top;
    /// without the generated files, which signing makes anew.
    ///
    /// - Throws: ``WalletDocumentError/invalidFilePath(_:reason:)`` for a source that cannot be read or holds a path
    ///   a document may not, ``WalletDocumentError/malformedArchive(_:)`` for a file that is not a ZIP archive.
    package static func read(contentsOf url: URL, payload: String) throws -> [String: Data] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw WalletDocumentError.invalidFilePath(url.path, reason: "there is no such file or folder")
        }
        var files: [String: Data]
        if isDirectory.boolValue {
            files = try read(directory: url)
        } else {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw WalletDocumentError.invalidFilePath(url.path, reason: "the file cannot be read")
            }
            files = unwrapped(try DocumentArchive.unzip(data), payload: payload)
        }
        for path in generatedFiles { files[path] = nil }
        return files
    }

    /// The files of a document's folder, by path: hidden files and an existing `manifest.json` or `signature` are
    /// skipped; symbolic links, deeper folders and anything but regular files are refused.
    package static func read(directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let manager = FileManager.default
        let keys: [URLResourceKey] = [.isDirectoryKey, .isSymbolicLinkKey, .isRegularFileKey, .fileSizeKey]
        func entries(_ url: URL) throws -> [URL] {
            try manager.contentsOfDirectory(at: url, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        }
        func read(_ url: URL, as path: String) throws {
            let values = try url.resourceValues(forKeys: Set(keys))
            if values.isSymbolicLink == true {
                throw WalletDocumentError.invalidFilePath(path, reason: "symbolic links are not followed")
            }
            if values.isDirectory == true {
                guard !path.contains("/") else {
                    throw WalletDocumentError.invalidFilePath(path, reason: "only one level of folders (xx.lproj)")
                }
                for child in try entries(url) {
                    try read(child, as: path + "/" + child.lastPathComponent)
                }
            } else if !generatedFiles.contains(path) {
                guard values.isRegularFile == true else {
                    throw WalletDocumentError.invalidFilePath(
                        path, reason: "only regular files go into a pass or an order")
                }
                guard (values.fileSize ?? 0) <= maximumTotalSize else {
                    throw WalletDocumentError.tooLarge(what: "the folder's files", limit: maximumTotalSize)
                }
                files[path] = try Data(contentsOf: url)
            }
        }
        do {
            for entry in try entries(directory) {
                try read(entry, as: entry.lastPathComponent)
            }
        } catch let error as WalletDocumentError {
            throw error
        } catch {
            throw WalletDocumentError.invalidFilePath(
                directory.path,
                reason: "the folder cannot be read (\(error.localizedDescription)); check that it exists "
                    + "and that this user may read it")
        }
        return files
    }

    /// The files of an archive without hidden files, and from inside its one folder when it has one and `payload`
    /// (`pass.json`, `order.json`) is not at the top.
    package static func unwrapped(_ archived: [String: Data], payload: String) -> [String: Data] {
        let visible = archived.filter { path, _ in
            !path.split(separator: "/").contains { $0.hasPrefix(".") || $0 == "__MACOSX" }
        }
        let folders = Set(visible.keys.map { $0.split(separator: "/", maxSplits: 1).first.map(String.init) ?? $0 })
        guard visible[payload] == nil, folders.count == 1, let folder = folders.first,
            visible.keys.allSatisfy({ $0.hasPrefix(folder + "/") })
        else { return visible }
        return Dictionary(uniqueKeysWithValues: visible.map { (String($0.key.dropFirst(folder.count + 1)), $0.value) })
    }

    /// The languages of the `xx.lproj/` folders among `paths`, sorted.
    package static func languages(in paths: some Sequence<String>) -> [String] {
        Set(
            paths.compactMap { path -> String? in
                guard let slash = path.firstIndex(of: "/"), path[..<slash].hasSuffix(".lproj") else { return nil }
                return String(path[..<slash].dropLast(".lproj".count))
            }
        ).sorted()
    }

    /// Checks that `path` is a safe, allowed path inside a pass or an order.
    package static func validate(path: String) throws {
        func reject(_ reason: String) -> WalletDocumentError { .invalidFilePath(path, reason: reason) }
        guard !path.isEmpty, path.utf8.count <= 255 else { throw reject("the path is empty or too long") }
        guard !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\u{0}") else {
            throw reject("paths are relative and use '/'")
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count <= 2 else { throw reject("only one level of folders (xx.lproj)") }
        for segment in segments {
            guard !segment.isEmpty, segment != ".", segment != ".." else { throw reject("empty, '.' or '..' segment") }
            guard !segment.hasPrefix(".") else { throw reject("hidden files are not part of a pass or an order") }
        }
        if segments.count == 2 {
            guard segments[0].hasSuffix(".lproj") else { throw reject("folders must be localizations (xx.lproj)") }
        }
        guard !generatedFiles.contains(path) else { throw reject("it is generated when the pass or order is signed") }
    }

    /// What a decoding error says of the JSON, as a path and a reason.
    package static func describe(_ error: DecodingError) -> String {
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
