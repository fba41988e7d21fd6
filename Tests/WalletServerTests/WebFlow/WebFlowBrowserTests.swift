import CofferTestSupport
import Foundation
import Testing

/// Runs Tests/Browser/webflow_browser_test.py: headless Chromium taps "Add to Apple Wallet" on a landing page served
/// by the built `coffer serve`, and the Wallet URL it opens is checked with openssl (see the script's header).
@Suite("The web flow in a real browser: headless Chromium, a real coffer serve, openssl", .serialized)
struct WebFlowBrowserTests {
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    /// Under CI a missing browser fails the run instead of skipping the test.
    static let required = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The page is at phone size; the issuer data must be under 300 s old; the screenshot is kept as an artifact.
    @Test(
        "tapping the badge on a phone opens wallet.apple.com with issuer data (<300 s old) openssl verifies",
        .enabled(if: chromium != nil || required, "chromium is not installed (apt-get install -y chromium)"))
    func tapTheBadge() throws {
        let chromium = try #require(
            Self.chromium, "CI=true, and chromium is not installed: apt-get install -y chromium")
        let coffer = try ChildProcess.executable(named: "coffer")
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                SourceTree.appending("Tests/Browser/webflow_browser_test.py").path,
                "--coffer", coffer.path, "--chromium", chromium,
                "--artifacts", SourceTree.appending(".build/artifacts/webflow").path,
            ])
        print(outcome.output, terminator: "")
        #expect(outcome.status == 0, "\(outcome.output)\n\(outcome.errorOutput)")
        #expect(outcome.output.contains("screenshot: "))
    }
}
