import Foundation
import ZIPFoundation

/// ZIP archives in memory: what a `.pkpass` and a `.pkpasses` bundle are.
package enum DocumentArchive {
    /// The most entries an archive may have when read.
    package static let maximumEntries = 512
    /// The largest total uncompressed size read from an archive, against ZIP bombs.
    package static let maximumUncompressedSize = 64 * 1024 * 1024
    /// The largest archive read: the content cap plus room for headers (stored entries barely shrink).
    package static let maximumArchiveSize = maximumUncompressedSize + 8 * 1024 * 1024

    /// Zips `entries` in memory, in sorted order, every entry stored (see ``ZIPWriter``).
    package static func zip(_ entries: [String: Data]) throws -> Data {
        try ZIPWriter.archive(entries.keys.sorted().map { try ZIPStoredEntry(path: $0, data: entries[$0]!) })
    }

    /// Reads every file entry of a ZIP in memory, refusing unsafe paths, oversized input and contents, entries
    /// whose real size or CRC-32 differs from what the archive declares, and damaged archives: all with a
    /// ``WalletDocumentError``, never a trap.
    ///
    /// Sizes are compared as `UInt64` before any conversion, and inflation counts the bytes it really produces:
    /// it stops as soon as an entry exceeds its declared size, so memory stays within ``maximumUncompressedSize``
    /// plus one read chunk whatever the archive claims.
    package static func unzip(_ data: Data) throws -> [String: Data] {
        try unzip(data, only: nil)
    }

    /// Reads the file entries of a ZIP in memory whose paths are in `paths` (every one when `nil`), with the same
    /// checks as ``unzip(_:)``: the others are neither inflated nor kept.
    package static func unzip(_ data: Data, only paths: Set<String>?) throws -> [String: Data] {
        guard data.count <= maximumArchiveSize else {
            throw WalletDocumentError.tooLarge(what: "the archive", limit: maximumArchiveSize)
        }
        try ZIPLayout.check(data, maximumEntries: maximumEntries)
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw WalletDocumentError.malformedArchive("not a ZIP archive")
        }
        var files: [String: Data] = [:]
        var remaining = UInt64(maximumUncompressedSize)
        var count = 0
        for entry in archive {
            count += 1
            guard count <= maximumEntries else {
                throw WalletDocumentError.malformedArchive("more than \(maximumEntries) entries")
            }
            guard entry.type == .file else { continue }
            let path = entry.path
            if path.hasPrefix("/") || path.split(separator: "/").contains("..") || path.contains("\\") {
                throw WalletDocumentError.invalidFilePath(path, reason: "unsafe path in the archive")
            }
            if let paths, !paths.contains(path) { continue }
            let declared = entry.uncompressedSize
            guard declared <= remaining else {
                throw WalletDocumentError.tooLarge(what: "the archive's contents", limit: maximumUncompressedSize)
            }
            remaining -= declared
            let contents = try extract(entry, declaredSize: Int(declared), from: archive)
            guard files.updateValue(contents, forKey: path) == nil else {
                throw WalletDocumentError.malformedArchive("\(path) appears twice")
            }
        }
        return files
    }

    /// Inflates one entry, stopping as soon as it yields more than `declaredSize` bytes, and checks its size and
    /// CRC-32 against the archive's.
    private static func extract(_ entry: Entry, declaredSize: Int, from archive: Archive) throws -> Data {
        let path = entry.path
        var contents = Data()
        contents.reserveCapacity(min(declaredSize, 1 << 20))
        let checksum: CRC32
        do {
            checksum = try archive.extract(entry) { chunk in
                guard chunk.count <= declaredSize - contents.count else { throw EntryOverrun() }
                contents.append(chunk)
            }
        } catch is EntryOverrun {
            throw WalletDocumentError.malformedArchive(
                "\(path) inflates to more than the \(declaredSize) bytes the archive declares")
        } catch {
            throw WalletDocumentError.malformedArchive("\(path) cannot be extracted: the archive is damaged")
        }
        guard contents.count == declaredSize else {
            throw WalletDocumentError.malformedArchive(
                "\(path) holds \(contents.count) bytes, not the \(declaredSize) the archive declares")
        }
        guard checksum == entry.checksum else {
            throw WalletDocumentError.malformedArchive("\(path) fails its CRC-32 check: the archive is damaged")
        }
        return contents
    }

    /// Thrown from the inflation callback to stop an entry that exceeds its declared size.
    private struct EntryOverrun: Error {}
}
