import Crypto
import Foundation
import Testing
@testable import WalletDocuments
@testable import WalletPasses

@Suite("manifest.json is written exactly as JSONEncoder does: sorted keys, slashes unescaped, same escapes")
struct PassManifestTests {
    static func encoderBytes(_ hashes: [String: String]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(hashes)
    }

    @Test(
        "the manifest equals JSONEncoder's output",
        arguments: [
            ["pass.json": "a", "icon.png": "b", "icon@2x.png": "c", "fr.lproj/logo.png": "d", "logo.png": "e"],
            ["B": "1", "a": "2", "Z": "3", "10": "4", "9": "5", "ß": "6", "é": "7", "𝄞": "8", "ss": "9"],
            ["quote\"d": "1", "back\\slash": "2", "a/b": "3", "tab\t": "4", "new\nline": "5", "del\u{7F}": "6"],
            Dictionary(uniqueKeysWithValues: (1..<0x20).map { ("c\(Character(Unicode.Scalar($0)!))", "\($0)") }),
            [:],
        ])
    func sameBytesAsJSONEncoder(hashes: [String: String]) throws {
        #expect(DocumentManifest.json(hashes) == (try Self.encoderBytes(hashes)))
    }

    @Test("each hash is the lowercase hex SHA-1 of the file")
    func hashes() {
        #expect(DocumentManifest.hash(Data("abc".utf8)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(DocumentManifest.hash(Data()) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test("a package's manifest lists every file with its SHA-1 and decodes as a dictionary")
    func packageManifest() throws {
        let package = try Fixtures.package()
        let decoded = try JSONDecoder().decode([String: String].self, from: try package.manifest())
        #expect(
            decoded
                == package.files.mapValues { Insecure.SHA1.hash(data: $0).map { String(format: "%02x", $0) }.joined() })
        #expect(try package.manifest() == Self.encoderBytes(decoded))
    }
}
