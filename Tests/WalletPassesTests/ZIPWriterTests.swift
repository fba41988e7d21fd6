import CofferTestSupport
import Crypto
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("The pass ZIP writer: stored entries that unzip(1), Python's zipfile and our reader accept exactly")
struct ZIPWriterTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Bytes that do not repeat with any short period, `count` long.
    static func bytes(_ count: Int, seed: UInt64 = 1) -> Data {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        return Data(
            (0..<count).map { _ in
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return UInt8(truncatingIfNeeded: state)
            })
    }

    /// Files of every awkward size: empty, one byte, around the 16-byte step, odd, and over a mebibyte; UTF-8 names.
    static let files: [String: Data] = [
        "empty.txt": Data(),
        "one.bin": Data([0xA5]),
        "fifteen.bin": bytes(15, seed: 2),
        "sixteen.bin": bytes(16, seed: 3),
        "seventeen.bin": bytes(17, seed: 4),
        "odd.png": bytes(12_345, seed: 5),
        "large.png": bytes(3 * 1024 * 1024 + 7, seed: 6),
        "fr.lproj/pass.strings": Data("\"EVENT\" = \"ÉVÉNEMENT\";\n".utf8),
        "ja.lproj/イベント.txt": Data("イベント".utf8),
        "é.png": bytes(100, seed: 7),
    ]

    static func sha1(_ data: Data) -> String {
        Insecure.SHA1.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    @Test("the CRC-32 of the standard check string is 0xCBF43926")
    func checkValue() {
        #expect(ZIPChecksum.checksum(Data("123456789".utf8)) == 0xCBF4_3926)
        #expect(ZIPChecksum.checksum(Data()) == 0)
    }

    @Test(
        "the CRC-32 matches the bit-by-bit definition for all lengths around the 16-byte step and large data",
        arguments: [0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 255, 4_097, 65_537, 1_048_579])
    func crcMatchesDefinition(count: Int) {
        let data = Self.bytes(count, seed: UInt64(count) + 11)
        #expect(ZIPChecksum.checksum(data) == CraftedZip.crc32(data))
    }

    @Test("a CRC-32 continued over a second part equals the CRC-32 of the whole", arguments: [0, 1, 5, 16, 999, 1_000])
    func crcContinues(split: Int) {
        let data = Self.bytes(1_000, seed: 9)
        let first = ZIPChecksum.checksum(data.prefix(split))
        #expect(ZIPChecksum.checksum(data.dropFirst(split), continuing: first) == ZIPChecksum.checksum(data))
    }

    @Test("unzip -t finds no errors")
    func unzipTests() throws {
        let archive = try DocumentArchive.zip(Self.files)
        let result = try ArchiveTools.unzipTest(archive, in: directory)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("No errors detected"))
    }

    @Test("Python's zipfile passes testzip(), reads UTF-8 names (flag bit 11) and the same contents, all stored")
    func pythonReadsIt() throws {
        let reading = try ArchiveTools.python(try DocumentArchive.zip(Self.files))
        #expect(reading.firstBadFile == nil)
        #expect(reading.names == Self.files.keys.sorted())
        #expect(reading.sha1 == Self.files.mapValues(Self.sha1))
        for name in Self.files.keys {
            let isASCII = name.utf8.allSatisfy { $0 < 0x80 }
            #expect(reading.flags[name]! & 0x800 == (isASCII ? 0 : 0x800), "\(name)")
            #expect(reading.methods[name] == 0, "\(name) is stored")
        }
    }

    @Test("our own reader gives back every file byte for byte")
    func readsBack() throws {
        #expect(try DocumentArchive.unzip(try DocumentArchive.zip(Self.files)) == Self.files)
    }

    @Test("the same files always give the same bytes, whatever order the dictionary holds them in")
    func deterministic() throws {
        var shuffled: [String: Data] = [:]
        for key in Self.files.keys.shuffled() { shuffled[key] = Self.files[key] }
        #expect(try DocumentArchive.zip(Self.files) == DocumentArchive.zip(shuffled))
    }

    @Test("an empty archive is a valid ZIP: the 22-byte end record alone")
    func emptyArchive() throws {
        let archive = try DocumentArchive.zip([:])
        #expect(archive.count == 22)
        #expect(try DocumentArchive.unzip(archive).isEmpty)
        #expect(try ArchiveTools.python(archive).names.isEmpty)
    }

    @Test("a name of 65,535 bytes is written; one of 65,536 is refused with a typed error")
    func nameLengthLimit() throws {
        let longest = String(repeating: "n", count: 65_535)
        #expect(
            try DocumentArchive.unzip(try DocumentArchive.zip([longest: Data("x".utf8)])) == [longest: Data("x".utf8)])
        let tooLong = String(repeating: "n", count: 65_536)
        #expect(throws: WalletDocumentError.tooLarge(what: "the name of an archive entry (65536 bytes)", limit: 65_535))
        {
            try DocumentArchive.zip([tooLong: Data()])
        }
    }

    @Test("65,535 entries are written; 65,536 are refused with a typed error")
    func entryCountLimit() throws {
        let entries = try (0..<65_536).map { try ZIPStoredEntry(path: "f\($0)", data: Data()) }
        let archive = try ZIPWriter.archive(Array(entries.prefix(65_535)))
        let reading = try ArchiveTools.python(archive)
        #expect(reading.firstBadFile == nil)
        #expect(reading.names.count == 65_535)
        #expect(throws: WalletDocumentError.tooLarge(what: "the number of archive entries (65536)", limit: 65_535)) {
            try ZIPWriter.archive(entries)
        }
    }

    @Test(
        "archives past 4 GiB are refused before any byte is written: a ZIP without ZIP64 cannot hold them",
        arguments: [
            [0xFFFF_FFFF],  // one entry of 4 GiB
            [0xC000_0000, 0x4000_0000],  // the second entry's header starts past 4 GiB
            [0x7FFF_FFFF, 0x7FFF_FFFF, 100],
        ])
    func archiveSizeLimit(sizes: [Int]) {
        #expect(throws: WalletDocumentError.tooLarge(what: "the archive (a ZIP without ZIP64)", limit: 0xFFFF_FFFE)) {
            try ZIPWriter.size(of: sizes.map { (nameLength: 8, dataSize: $0) })
        }
    }

    @Test("the largest layout that fits is accepted, and its size adds up: headers, data, directory, end record")
    func archiveSizeFits() throws {
        let layout = try ZIPWriter.size(of: [(nameLength: 3, dataSize: 1_000), (nameLength: 5, dataSize: 0)])
        #expect(layout.directoryOffset == 30 + 3 + 1_000 + 30 + 5)
        #expect(layout.directorySize == 46 + 3 + 46 + 5)
        #expect(layout.total == layout.directoryOffset + layout.directorySize + 22)
        #expect(
            try DocumentArchive.zip(["abc": Self.bytes(1_000), "defgh": Data()]).count == layout.total)
    }

    @Test("a package's archive reads back as the same package")
    func packageRoundTrip() throws {
        let package = try Fixtures.package()
        #expect(try PassPackage(archive: try package.archived()) == package)
    }
}
