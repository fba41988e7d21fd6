import Foundation
import Testing

@testable import WalletServer
@testable import WalletServices
@testable import WalletStore

@Suite("Transport: devices reach the server over https, and a remote PostgreSQL is reached over TLS")
struct TransportSecurityTests {
    @Test(
        "a plain-http public URL is refused unless it names this machine or is explicitly allowed",
        arguments: [
            ("https://wallet.example.com", false, true), ("http://wallet.example.com", false, false),
            ("http://wallet.example.com", true, true), ("http://127.0.0.1:8080", false, true),
            ("http://localhost:8080", false, true), ("http://[::1]:8080", false, true),
            ("http://127.0.0.1.example.com", false, false), ("http://10.0.0.5", false, false),
        ])
    func publicURL(_ url: String, _ allowed: Bool, _ accepted: Bool) throws {
        var configuration = WalletServerConfiguration(publicURL: URL(string: url))
        configuration.allowsInsecurePublicURL = allowed
        if accepted {
            try configuration.validatePublicURL()
        } else {
            #expect { try configuration.validatePublicURL() } throws: { error in
                "\(error)".contains("https") && "\(error)".contains("--insecure-public-url")
            }
        }
    }

    @Test("listening on every interface without a public URL is refused (devices cannot call back to 0.0.0.0)")
    func wildcardHost() {
        let configuration = WalletServerConfiguration(host: "0.0.0.0")
        #expect(throws: WalletServerError.self) { try configuration.validatePublicURL() }
    }

    @Test(
        "listening beyond this machine with a plain-http public URL is refused unless explicitly allowed",
        arguments: ["0.0.0.0", "::", "192.0.2.10"])
    func plainHTTPOnTheNetwork(_ host: String) throws {
        var configuration = WalletServerConfiguration(host: host, publicURL: URL(string: "http://127.0.0.1:8080"))
        #expect { try configuration.validatePublicURL() } throws: { error in
            "\(error)".contains("beyond this machine") && "\(error)".contains("--insecure-public-url")
        }
        configuration.allowsInsecurePublicURL = true
        try configuration.validatePublicURL()
        configuration = WalletServerConfiguration(host: host, publicURL: URL(string: "https://wallet.example.com"))
        try configuration.validatePublicURL()
    }

    @Test("X-Forwarded-For is believed only from a trusted proxy; the settings name IP addresses")
    func trustedProxies() throws {
        #expect(
            try WalletServerConfiguration.trustedProxies("127.0.0.1, ::1,10.0.0.2", from: "x") == [
                "127.0.0.1", "::1", "10.0.0.2",
            ])
        #expect(try WalletServerConfiguration.trustedProxies("none", from: "x").isEmpty)
        #expect(throws: WalletServerError.self) {
            try WalletServerConfiguration.trustedProxies("proxy.local", from: "x")
        }
        let configuration = try WalletServerConfiguration(environment: ["COFFER_TRUSTED_PROXIES": "10.1.2.3"])
        #expect(configuration.trustedProxies == ["10.1.2.3"])
    }

    @Test("COFFER_INSECURE_PUBLIC_URL=1 is the environment's opt-out")
    func environmentOptOut() throws {
        let configuration = try WalletServerConfiguration(environment: [
            "COFFER_PUBLIC_URL": "http://wallet.internal", "COFFER_INSECURE_PUBLIC_URL": "1",
        ])
        try configuration.validatePublicURL()
    }

    @Test(
        "a remote PostgreSQL URL without a TLS mode gets sslmode=require; a local or explicit one is kept",
        arguments: [
            ("postgres://u:p@db.example.com/w", "postgres://u:p@db.example.com/w?sslmode=require"),
            (
                "postgres://u:p@db.example.com:5432/w?application_name=c",
                "postgres://u:p@db.example.com:5432/w?application_name=c&sslmode=require"
            ),
            ("postgres://u:p@db.example.com/w?sslmode=disable", "postgres://u:p@db.example.com/w?sslmode=disable"),
            ("postgres://u:p@db.example.com/w?tls=prefer", "postgres://u:p@db.example.com/w?tls=prefer"),
            ("postgres://u:p@127.0.0.1:5432/w", "postgres://u:p@127.0.0.1:5432/w"),
            ("postgres://u:p@localhost/w", "postgres://u:p@localhost/w"),
        ])
    func postgresTLS(_ url: String, _ expected: String) {
        #expect(WalletDatabase.requiringTLSForRemoteHosts(url) == expected)
    }
}
