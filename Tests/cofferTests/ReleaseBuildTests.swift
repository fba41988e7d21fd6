import CofferTestSupport
import Foundation
import Testing

@Suite("What a release build of coffer leaves out")
struct ReleaseBuildTests {
    /// The switch that lets Coffer's own tests make stores with a weak PBKDF2 count.
    static let testSwitch = "COFFER_INSECURE_TEST_PBKDF2_ITERATIONS"

    @Test("the weak-PBKDF2 test switch is read only inside #if DEBUG, so a release build cannot honour it")
    func weakKeyDerivationSwitchIsDebugOnly() throws {
        let sources = SourceTree.appending("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var readers = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            var conditions: [String] = []
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("#if") { conditions.append(code) }
                if code.hasPrefix("#endif") { _ = conditions.popLast() }
                guard !code.hasPrefix("//"), code.contains(Self.testSwitch) else { continue }
                readers += 1
                #expect(conditions.contains("#if DEBUG"), "\(file.lastPathComponent): \(code)")
            }
        }
        #expect(readers >= 1, "the switch is read somewhere (the tests rely on it in debug builds)")
    }
}
