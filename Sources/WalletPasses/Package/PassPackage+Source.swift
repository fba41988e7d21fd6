import Foundation

extension PassPackage {
    /// Files Apple's tools keep beside a pass that are not part of it: Pass Designer's `tooling.json`.
    public static let toolingFiles: Set<String> = ["tooling.json"]

    /// Reads a pass in any form it is kept in: a pass folder; a Pass Designer template (`.pkpasstemplate`, a folder
    /// or a ZIP of one); or a `.pkpass`, whose manifest and signature are left out (signing makes them anew).
    ///
    /// Pass Designer's `tooling.json` is left out, and so are a ZIP's hidden files and `__MACOSX` folder; a ZIP whose
    /// every file is inside one folder (`Ticket.pkpasstemplate/pass.json`) is read from that folder.
    ///
    /// - Throws: ``WalletPassesError/invalidFilePath(_:reason:)`` for a source that cannot be read or holds a path a
    ///   pass may not, ``WalletPassesError/malformedArchive(_:)`` for a file that is not a ZIP archive, and the
    ///   errors of ``init(files:)``.
    public init(contentsOf url: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw WalletPassesError.invalidFilePath(url.path, reason: "there is no such file or folder")
        }
        var files: [String: Data]
        if isDirectory.boolValue {
            files = try Self.read(directory: url)
        } else {
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw WalletPassesError.invalidFilePath(url.path, reason: "the file cannot be read")
            }
            files = Self.unwrapped(try PassArchive.unzip(data), payload: "pass.json")
        }
        for path in Self.toolingFiles.union(Self.generatedFiles) { files[path] = nil }
        try self.init(files: files)
    }

    /// The files of an archive without hidden files, and from inside its one folder when it has one and `payload`
    /// (`pass.json`, `order.json`) is not at the top.
    static func unwrapped(_ archived: [String: Data], payload: String) -> [String: Data] {
        let visible = archived.filter { path, _ in
            !path.split(separator: "/").contains { $0.hasPrefix(".") || $0 == "__MACOSX" }
        }
        let folders = Set(visible.keys.map { $0.split(separator: "/", maxSplits: 1).first.map(String.init) ?? $0 })
        guard visible[payload] == nil, folders.count == 1, let folder = folders.first,
            visible.keys.allSatisfy({ $0.hasPrefix(folder + "/") })
        else { return visible }
        return Dictionary(uniqueKeysWithValues: visible.map { (String($0.key.dropFirst(folder.count + 1)), $0.value) })
    }
}
