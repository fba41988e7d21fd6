import Foundation
import ProntoWalletSDK
import Testing

@Suite("Environments and configuration")
struct EnvironmentTests {
    @Test(
        "each environment names its server",
        arguments: [
            (ProntoEnvironment.production, "https://app.prontocx.com"),
            (.staging, "https://app.stage.prontocx.com"),
            (.demo, "https://app.demo.prontocx.com"),
            (.development(host: "localhost:3000"), "http://localhost:3000"),
            (.development(host: "127.0.0.1"), "http://127.0.0.1"),
            (.custom(URL(string: "https://wallet.example.com/pronto")!), "https://wallet.example.com/pronto"),
        ])
    func baseURLs(environment: ProntoEnvironment, expected: String) {
        #expect(environment.baseURL?.absoluteString == expected)
    }

    @Test(
        "a development host that is not a host (and port) has no base URL",
        arguments: ["", "local host:80", "localhost/api", "user@localhost", "localhost?x=1", "http://x:1"])
    func invalidDevelopmentHosts(host: String) {
        #expect(ProntoEnvironment.development(host: host).baseURL == nil)
    }

    @Test("the configuration defaults to production and 30 seconds")
    func defaults() {
        let configuration = ProntoConfiguration(apiKey: "k")
        #expect(configuration.environment == .production)
        #expect(configuration.timeout == 30)
    }

    @Test("the API key never shows in description, debugDescription or dump")
    func redaction() {
        let configuration = ProntoConfiguration(apiKey: "super-secret-key", environment: .staging)
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [configuration.description, configuration.debugDescription, dumped, "\(configuration)"] {
            #expect(!text.contains("super-secret-key"))
            #expect(text.contains("<redacted>"))
        }
        #expect(configuration.description.contains("staging"))
    }

    @Test("id attributes are the server's names")
    func idAttributes() {
        #expect(TagIdAttribute.allCases.map(\.rawValue) == ["reference_id", "pronto_tag_id", "subscription_id"])
    }
}
