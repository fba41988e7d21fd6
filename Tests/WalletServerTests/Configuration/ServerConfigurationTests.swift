import CofferTestSupport
import Foundation
import Secrets
import SecretsAudit
import Testing
import WalletServer
import WalletServices
import WalletStore

@Suite("Server configuration: zero-config defaults, environment variables, and what unlocks the secret store")
struct ServerConfigurationTests {
    @Test("with nothing set: 127.0.0.1:8080, SQLite and secrets in $XDG_DATA_HOME/coffer/server, automatic key")
    func defaults() throws {
        let configuration = try WalletServerConfiguration(environment: ["XDG_DATA_HOME": "/data"])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.dataDirectory.path == "/data/coffer/server")
        #expect(configuration.effectiveDatabaseURL == "sqlite:///data/coffer/server/coffer-wallet.sqlite")
        #expect(configuration.secretStoreDirectory.path == "/data/coffer/server/secrets")
        #expect(configuration.callbackURL == "http://127.0.0.1:8080/api/v2/in_app_provisioning/callback")
        #expect(configuration.relyingPartyIdentifier == "127.0.0.1")
        #expect(configuration.createsDevelopmentIdentity)
        #expect(configuration.issuanceRateLimit == RateLimit(perMinute: 60, burst: 20))
        #expect(configuration.idleTimeout == 30)
        #expect(configuration.sessionPurgeInterval == 60)
        guard case .automatic = configuration.secretStoreKey else {
            Issue.record("expected the automatic key file")
            return
        }
    }

    @Test("every variable is read; the public URL sets the callback URL and the relying party")
    func environment() throws {
        let configuration = try WalletServerConfiguration(environment: [
            "COFFER_HOST": "0.0.0.0", "COFFER_PORT": "9090", "COFFER_DATA_DIR": "/srv/coffer",
            "DATABASE_URL": "postgres://u:p@db:5432/wallet", "COFFER_PUBLIC_URL": "https://wallet.example.com/base",
            "COFFER_PASSPHRASE": "correct horse",
        ])
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 9090)
        #expect(configuration.dataDirectory.path == "/srv/coffer")
        #expect(configuration.effectiveDatabaseURL == "postgres://u:p@db:5432/wallet")
        #expect(configuration.callbackURL == "https://wallet.example.com/base/api/v2/in_app_provisioning/callback")
        #expect(configuration.relyingPartyIdentifier == "wallet.example.com")
        guard case .passphrase(let passphrase) = configuration.secretStoreKey else {
            Issue.record("expected the passphrase")
            return
        }
        #expect(passphrase.utf8 == Data("correct horse".utf8))
        #expect(!"\(configuration.secretStoreKey)".contains("correct horse"))
    }

    @Test("the abuse controls are read from their variables; 0 turns each off")
    func abuseControls() throws {
        let set = try WalletServerConfiguration(environment: [
            "COFFER_ISSUANCE_RATE_LIMIT": "10", "COFFER_ISSUANCE_BURST": "2", "COFFER_IDLE_TIMEOUT": "2.5",
            "COFFER_SESSION_PURGE_INTERVAL": "600", "COFFER_CHANGE_RATE_LIMIT": "120", "COFFER_CHANGE_BURST": "5",
        ])
        #expect(set.issuanceRateLimit == RateLimit(perMinute: 10, burst: 2))
        #expect(set.changeRateLimit == RateLimit(perMinute: 120, burst: 5))
        #expect(try WalletServerConfiguration(environment: [:]).changeRateLimit == .passChanges)
        #expect(set.idleTimeout == 2.5)
        #expect(set.sessionPurgeInterval == 600)
        let off = try WalletServerConfiguration(environment: [
            "COFFER_ISSUANCE_RATE_LIMIT": "0", "COFFER_ISSUANCE_BURST": "0", "COFFER_IDLE_TIMEOUT": "0",
            "COFFER_SESSION_PURGE_INTERVAL": "0", "COFFER_CHANGE_RATE_LIMIT": "0",
        ])
        #expect(off.issuanceRateLimit.isUnlimited)
        #expect(off.changeRateLimit.isUnlimited)
        #expect(off.idleTimeout == nil)
        #expect(off.sessionPurgeInterval == nil)
        #expect(throws: Never.self) { try off.validateLimits() }
        for change: (inout WalletServerConfiguration) -> Void in [
            { $0.idleTimeout = 0 }, { $0.sessionPurgeInterval = -1 }, { $0.issuanceRateLimit.burst = 0 },
            { $0.idleTimeout = .infinity },
        ] {
            var configuration = set
            change(&configuration)
            #expect(throws: WalletServerError.self) { try configuration.validateLimits() }
        }
    }

    @Test(
        "a configuration prints, debug-prints and dumps without the database password or the passphrase",
        arguments: [
            "postgres://coffer:s3cr%2Ft@db.example.com:5432/wallet", "postgresql://coffer:s3cr%2Ft@db.example.com/w",
        ])
    func redaction(_ databaseURL: String) throws {
        let configuration = try WalletServerConfiguration(environment: [
            "DATABASE_URL": databaseURL, "COFFER_PASSPHRASE": "correct horse",
        ])
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in ["\(configuration)", String(reflecting: configuration), dumped] {
            #expect(!text.contains("s3cr"), "\(text)")
            #expect(!text.contains("correct horse"), "\(text)")
            #expect(text.contains("coffer:<redacted>@db.example.com"), "\(text)")
        }
    }

    @Test("a provisioning session prints, debug-prints and dumps without its identifier")
    func sessionRedaction() {
        let identifier = "b7f4c2d9e1a84f0c9d3e5a6b7c8d9e0f"
        let session = ProvisioningSession(
            id: identifier, passID: UUID(), createdAt: Date(), expiresAt: Date().addingTimeInterval(300))
        var dumped = ""
        dump(session, to: &dumped)
        for text in ["\(session)", String(reflecting: session), dumped] {
            #expect(!text.contains(identifier), "\(text)")
            #expect(text.contains(session.passID.uuidString))
        }
    }

    @Test("a key file wins over a passphrase, and relative paths are made absolute")
    func keyFileAndRelativePaths() throws {
        let configuration = try WalletServerConfiguration(environment: [
            "COFFER_KEY_FILE": "keys/server.key", "COFFER_PASSPHRASE": "ignored", "COFFER_DATA_DIR": "data",
        ])
        let here = FileManager.default.currentDirectoryPath
        #expect(configuration.dataDirectory.path == URL(fileURLWithPath: here).appendingPathComponent("data").path)
        guard case .keyFile(let url) = configuration.secretStoreKey else {
            Issue.record("expected the key file")
            return
        }
        #expect(url.path == URL(fileURLWithPath: here).appendingPathComponent("keys/server.key").path)
    }

    @Test(
        "unusable values are refused with the variable's name",
        arguments: [
            ("COFFER_PORT", "80a"), ("COFFER_PORT", "70000"), ("COFFER_PORT", "-1"),
            ("COFFER_PUBLIC_URL", "ftp://example.com"), ("COFFER_PUBLIC_URL", "not a url"),
            ("COFFER_PUBLIC_URL", "https://"), ("COFFER_ISSUANCE_RATE_LIMIT", "-1"),
            ("COFFER_ISSUANCE_RATE_LIMIT", "ten"), ("COFFER_ISSUANCE_BURST", "0"), ("COFFER_ISSUANCE_BURST", "1.5"),
            ("COFFER_IDLE_TIMEOUT", "-1"), ("COFFER_IDLE_TIMEOUT", "nan"), ("COFFER_IDLE_TIMEOUT", "90000"),
            ("COFFER_SESSION_PURGE_INTERVAL", "soon"), ("COFFER_CHANGE_RATE_LIMIT", "many"),
            ("COFFER_CHANGE_BURST", "0"), ("COFFER_APNS_STAND_IN", "https://localhost:9"),
            ("COFFER_APNS_STAND_IN", "http://localhost:9"),
        ])
    func refusals(_ variable: String, _ value: String) throws {
        #expect {
            try WalletServerConfiguration(environment: [variable: value])
        } throws: { error in
            guard case WalletServerError.invalidConfiguration(let reason) = error else { return false }
            return reason.contains(variable)
        }
    }

    @Test("port 0 is accepted: the system picks one when the server starts")
    func portZero() throws {
        #expect(try WalletServerConfiguration(environment: ["COFFER_PORT": "0"]).port == 0)
    }
}
