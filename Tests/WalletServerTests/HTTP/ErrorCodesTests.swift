import CofferTestSupport
import Foundation
import Testing
import WalletDocuments

@Suite("The API's error codes are the ones docs/openapi.yaml lists")
struct ErrorCodesTests {
    @Test("every code the server's sources answer with is in the Error schema's enumeration")
    func documented() throws {
        let yaml = try String(contentsOf: SourceTree.appending("docs/openapi.yaml"), encoding: .utf8)
        let schema = try #require(yaml.range(of: "\n    Error:\n")).upperBound
        let end = try #require(yaml.range(of: "\n    LintFinding:", range: schema..<yaml.endIndex)).lowerBound
        let documented = String(yaml[schema..<end])
        let folder = SourceTree.appending("Sources/WalletServer")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var codes: Set<String> = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /code: "([a-z_]+)"/) { codes.insert(String(match.1)) }
        }
        #expect(codes.count >= 10)
        for code in codes.sorted() {
            #expect(documented.contains(code), "'\(code)' is answered but not in docs/openapi.yaml's Error schema")
        }
    }
}
