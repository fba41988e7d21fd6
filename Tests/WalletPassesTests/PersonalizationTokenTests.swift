import Foundation
import Testing
import WalletDocuments
import WalletPasses

@Suite("A personalization token is signed only when it has the shape Wallet sends")
struct PersonalizationTokenTests {
    @Test(
        "Base64, Base64URL and hexadecimal tokens are accepted",
        arguments: [
            Data(repeating: 0xFB, count: 32).base64EncodedString(), "q83vASNFZ4mrze8BI0VniQ", "0123456789abcdefABCDEF",
            "AAAAAAAAAAAAAAAAAAAAAA==",
        ])
    func accepted(_ text: String) throws {
        #expect(try PersonalizationToken(text).signedContent == Data(text.utf8))
    }

    @Test(
        "JSON, whitespace, quotes, control characters, padding inside and lengths out of bounds are refused",
        arguments: [
            #"{"pass.json":"da39a3ee5e6b4b0d3255bfef95601890afd80709"}"#, #"["aaaaaaaaaaaaaaaaaaaaaaaa"]"#,
            "\"aaaaaaaaaaaaaaaaaaaa\"", "aaaaaaaa aaaaaaaaaaaa", "aaaaaaaaaaaaaaaaaaaa\n", "aaaaaaaa\u{0}aaaaaaaaaaaa",
            "aaaaaaaa=aaaaaaaaaaaa", "aaaaaaaaaaaaaaaa===", "aaaaaaaaaaaaaaa", "", "ééééééééééééééééé",
            String(repeating: "a", count: PersonalizationToken.lengths.upperBound + 1),
        ])
    func refused(_ text: String) {
        #expect(throws: WalletDocumentError.self) { try PersonalizationToken(text) }
    }
}
