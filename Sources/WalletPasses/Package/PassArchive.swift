import Foundation
import ZIPFoundation

/// ZIP archives in memory: what a `.pkpass` and a `.pkpasses` bundle are.
enum PassArchive {
    /// The most entries a pass archive may have when read.
    static let maximumEntries = 512
    /// The largest total uncompressed size read from an archive, against ZIP bombs.
    static let maximumUncompressedSize = 64 * 1024 * 1024

    /// Files stored without compression: their formats are compressed already, so deflating them again costs
    /// time and saves nothing.
    static let precompressedExtensions: Set<String> = ["png", "jpg", "jpeg", "pkpass", "zip"]

    /// Zips `entries` in memory, in sorted order: text deflated, already-compressed formats stored.
    static func zip(_ entries: [String: Data]) throws -> Data {
        do {
            let archive = try Archive(accessMode: .create)
            for path in entries.keys.sorted() {
                let data = entries[path]!
                try archive.addEntry(
                    with: path, type: .file, uncompressedSize: Int64(data.count),
                    modificationDate: Date(timeIntervalSince1970: 1_700_000_000),
                    compressionMethod: precompressedExtensions.contains(
                        (path as NSString).pathExtension.lowercased()) ? .none : .deflate
                ) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            guard let bytes = archive.data else { throw WalletPassesError.malformedArchive("no archive data") }
            return bytes
        } catch let error as WalletPassesError {
            throw error
        } catch {
            throw WalletPassesError.malformedArchive("cannot build the archive: \(error)")
        }
    }

    /// Reads every file entry of a ZIP in memory, refusing unsafe paths and oversized contents.
    static func unzip(_ data: Data) throws -> [String: Data] {
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw WalletPassesError.malformedArchive("not a ZIP archive")
        }
        var files: [String: Data] = [:]
        var total = 0
        var count = 0
        for entry in archive {
            count += 1
            guard count <= maximumEntries else {
                throw WalletPassesError.malformedArchive("more than \(maximumEntries) entries")
            }
            guard entry.type == .file else { continue }
            let path = entry.path
            if path.hasPrefix("/") || path.split(separator: "/").contains("..") || path.contains("\\") {
                throw WalletPassesError.invalidFilePath(path, reason: "unsafe path in the archive")
            }
            total += Int(entry.uncompressedSize)
            guard total <= maximumUncompressedSize else {
                throw WalletPassesError.tooLarge(what: "the archive's contents", limit: maximumUncompressedSize)
            }
            var contents = Data()
            do {
                _ = try archive.extract(entry) { contents.append($0) }
            } catch {
                throw WalletPassesError.malformedArchive("\(path) cannot be extracted (damaged or bad CRC)")
            }
            guard files.updateValue(contents, forKey: path) == nil else {
                throw WalletPassesError.malformedArchive("\(path) appears twice")
            }
        }
        return files
    }
}
