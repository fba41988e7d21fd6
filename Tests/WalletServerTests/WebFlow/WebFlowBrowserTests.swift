import CofferTestSupport
import Foundation
import Testing

/// Runs the scripts in Tests/Browser: headless Chromium against the built `coffer serve`, every signature checked with
/// openssl (see each script's header).
@Suite("The public pages in a real browser: headless Chromium, a real coffer serve, openssl", .serialized)
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
        try Self.runScript("webflow_browser_test.py", artifacts: "webflow")
    }

    /// A desktop browser gets the badge page and downloads through it; an iPhone gets the pass at once.
    @Test(
        "a share link: a desktop's badge downloads the pass, an iPhone gets it at once; openssl verifies both",
        .enabled(if: chromium != nil || required, "chromium is not installed (apt-get install -y chromium)"))
    func shareLink() throws {
        try Self.runScript("share_link_browser_test.py", artifacts: "share-links")
    }

    /// Runs `script` against the built `coffer`, keeping its screenshots under `.build/artifacts/<artifacts>`.
    static func runScript(_ script: String, artifacts: String) throws {
        let chromium = try #require(
            Self.chromium, "CI=true, and chromium is not installed: apt-get install -y chromium")
        let coffer = try ChildProcess.executable(named: "coffer")
        let outcome = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                SourceTree.appending("Tests/Browser/\(script)").path, "--coffer", coffer.path, "--chromium", chromium,
                "--artifacts", SourceTree.appending(".build/artifacts/\(artifacts)").path,
            ])
        print(outcome.output, terminator: "")
        #expect(outcome.status == 0, "\(outcome.output)\n\(outcome.errorOutput)")
        #expect(outcome.output.contains("screenshot: "))
    }
}
