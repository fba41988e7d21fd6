import CofferTestSupport
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

/// Archives an attacker crafts: each is refused with a typed error, never a trap, with memory bounded by what the
/// archive declares.
@Suite("Reading an untrusted archive: zip bombs, lying sizes, ZIP64 extremes, bad CRCs, truncation")
struct ArchiveHardeningTests {
    static let text = Data(String(repeating: "Wallet pass contents. ", count: 200).utf8)

    /// Expects `unzip` to throw a `WalletDocumentError` for which `matches` holds.
    func expectRefused(_ archive: Data, _ matches: (WalletDocumentError) -> Bool) {
        #expect {
            try DocumentArchive.unzip(archive)
        } throws: { error in
            guard let error = error as? WalletDocumentError else { return false }
            return matches(error)
        }
    }

    func isMalformed(_ error: WalletDocumentError, saying text: String) -> Bool {
        guard case .malformedArchive(let reason) = error else { return false }
        return reason.contains(text)
    }

    @Test("honest crafted archives read back (the builder itself is sound)")
    func honestArchives() throws {
        let stored = try CraftedZip.Entry.honest("a.txt", Self.text)
        let deflated = try CraftedZip.Entry.honest("b.txt", Self.text, deflated: true)
        var zip64 = try CraftedZip.Entry.honest("c.txt", Self.text, deflated: true)
        zip64.zip64 = true
        let files = try DocumentArchive.unzip(CraftedZip.archive([stored, deflated, zip64]))
        #expect(files == ["a.txt": Self.text, "b.txt": Self.text, "c.txt": Self.text])
    }

    @Test("a zip bomb: an entry declaring 1 KiB that inflates to 16 MiB stops at the declared size")
    func zipBomb() throws {
        let bomb = Data(count: 16 * 1024 * 1024)
        var entry = try CraftedZip.Entry.honest("pass.json", bomb, deflated: true)
        #expect(entry.payload.count < 64 * 1024, "the bomb compresses well")
        entry.uncompressedSize = 1024
        expectRefused(CraftedZip.archive([entry])) { isMalformed($0, saying: "more than the 1024 bytes") }
    }

    @Test(
        "an entry whose real size exceeds its declared size is refused, deflated or stored", arguments: [true, false])
    func realSizeExceedsDeclared(deflated: Bool) throws {
        var entry = try CraftedZip.Entry.honest("icon.png", Self.text, deflated: deflated)
        entry.uncompressedSize -= 100
        if !deflated { entry.compressedSize -= 100 }
        let archive = CraftedZip.archive([entry])
        if deflated {
            expectRefused(archive) { isMalformed($0, saying: "inflates to more than") }
        } else {
            // A stored entry is read for its declared size: the extra bytes are never read, and the CRC of the
            // truncated contents is wrong.
            expectRefused(archive) { isMalformed($0, saying: "CRC-32") }
        }
    }

    @Test("an entry that inflates to less than its declared size is refused")
    func realSizeBelowDeclared() throws {
        var entry = try CraftedZip.Entry.honest("pass.json", Self.text, deflated: true)
        entry.uncompressedSize += 100
        expectRefused(CraftedZip.archive([entry])) { isMalformed($0, saying: "not the \(Self.text.count + 100)") }
    }

    static let extremeSizes: [UInt64] = [
        UInt64(Int.max), UInt64(Int.max) + 1, UInt64.max, UInt64(DocumentArchive.maximumUncompressedSize) + 1,
    ]

    @Test("ZIP64 entries declaring sizes beyond Int.max or the cap are refused as too large", arguments: extremeSizes)
    func zip64Extremes(size: UInt64) throws {
        var entry = try CraftedZip.Entry.honest("pass.json", Self.text, deflated: true)
        entry.zip64 = true
        entry.uncompressedSize = size
        expectRefused(CraftedZip.archive([entry])) { error in
            if case .tooLarge = error { return true }
            return false
        }
    }

    static let outsideOffsets: [UInt64] = [4096, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max]

    @Test("a ZIP64 local header offset outside the archive (up to UInt64.max) is refused", arguments: outsideOffsets)
    func zip64OffsetOutside(offset: UInt64) throws {
        var entry = try CraftedZip.Entry.honest("pass.json", Self.text, deflated: true)
        entry.zip64 = true
        entry.zip64Offset = offset
        expectRefused(CraftedZip.archive([entry])) { isMalformed($0, saying: "outside") }
    }

    @Test("a central directory or entry count that points outside the archive is refused")
    func centralDirectoryOutside() throws {
        var bytes = [UInt8](CraftedZip.archive([try CraftedZip.Entry.honest("pass.json", Self.text)]))
        let end = bytes.count - 22
        var moved = bytes
        moved[end + 16] = 0xF0  // the central directory's offset
        expectRefused(Data(moved)) { isMalformed($0, saying: "outside") }
        bytes[end + 10] = 2  // two entries, one there
        expectRefused(Data(bytes)) { isMalformed($0, saying: "outside") }
    }

    @Test("declared sizes that together exceed the cap are refused before anything is inflated")
    func totalCap() throws {
        var entries: [CraftedZip.Entry] = []
        for index in 0..<5 {
            var entry = try CraftedZip.Entry.honest("file\(index).txt", Self.text, deflated: true)
            entry.zip64 = true
            entry.uncompressedSize = UInt64(DocumentArchive.maximumUncompressedSize / 4)
            entries.append(entry)
        }
        expectRefused(CraftedZip.archive(entries)) { error in
            if case .tooLarge = error { return true }
            // The first entries fail their size check before the cap is reached.
            return isMalformed(error, saying: "not the")
        }
    }

    @Test("a bad CRC-32 is refused, stored or deflated", arguments: [true, false])
    func badCRC(deflated: Bool) throws {
        var entry = try CraftedZip.Entry.honest("pass.json", Self.text, deflated: deflated)
        entry.crc ^= 0x0000_0100
        expectRefused(CraftedZip.archive([entry])) { isMalformed($0, saying: "CRC-32") }
    }

    @Test("an input larger than the archive cap is refused before it is parsed")
    func inputCap() {
        expectRefused(Data(count: DocumentArchive.maximumArchiveSize + 1)) { error in
            if case .tooLarge(what: "the archive", _) = error { return true }
            return false
        }
    }

    @Test("a truncated .pkpass is a typed error wherever it is cut", arguments: [0.0, 0.1, 0.5, 0.9, 0.99])
    func truncated(fraction: Double) throws {
        let pkpass = try DocumentSigner(identity: Fixtures.identity.signingIdentity).sign(try Fixtures.package())
            .pkpass()
        let cut = pkpass.prefix(Int(Double(pkpass.count) * fraction))
        expectRefused(Data(cut)) { error in
            if case .malformedArchive = error { return true }
            return false
        }
    }

    @Test("a pass whose archive lies about an entry fails verification with the archive error")
    func verifierSurfacesArchiveErrors() async throws {
        var entry = try CraftedZip.Entry.honest("pass.json", Self.text, deflated: true)
        entry.crc ^= 1
        await #expect {
            try await DocumentVerifier(trustRoots: [Fixtures.identity.root]).verify(pkpass: CraftedZip.archive([entry]))
        } throws: { error in
            guard case WalletDocumentError.malformedArchive(let reason) = error else { return false }
            return reason.contains("CRC-32")
        }
    }
}
