import ArgumentParser
import Foundation
import Secrets
import Logging
import WalletServer
import WalletServices
import WalletStore

/// The options `coffer serve` and `coffer admin` share: where the server's data lives and what unlocks its secret
/// store. Each falls back to an environment variable, then to the zero-configuration default.
struct ServerOptions: ParsableArguments {
    @Option(help: "The data directory (default: $COFFER_DATA_DIR, else $XDG_DATA_HOME/coffer/server).")
    var dataDir: String?

    @Option(
        help: """
            sqlite:///path, sqlite::memory: or postgres://user:password@host:port/db (default: $DATABASE_URL, else a \
            SQLite file in the data directory).
            """)
    var databaseURL: String?

    @Option(help: "Unlock the secret store with this key file (default: $COFFER_KEY_FILE).")
    var storeKeyFile: String?

    @Option(
        help: """
            Read the secret store's passphrase from this file's first line (default: $COFFER_PASSPHRASE; with \
            neither, a key file in the data directory, created on first use).
            """)
    var storePassphraseFile: String?

    @Option(
        help: """
            Push pass updates with provider tokens signed by this APNs .p8 key, with --apns-key-id and --apns-team-id \
            (default: $COFFER_APNS_KEY_FILE; with none of the three, each pass type's certificate authenticates).
            """)
    var apnsKeyFile: String?

    @Option(help: "The APNs key's ID, 10 letters and digits (default: $COFFER_APNS_KEY_ID).")
    var apnsKeyID: String?

    @Option(help: "The Apple developer team of the APNs key (default: $COFFER_APNS_TEAM_ID).")
    var apnsTeamID: String?

    @Option(help: "production or sandbox: where pushes go (default: $COFFER_APNS_ENVIRONMENT, else production).")
    var apnsEnvironment: String?

    @Option(
        help: """
            Also record every access to the secret store in this tamper-evident file (default: $COFFER_AUDIT_FILE); \
            check it with `coffer secrets audit verify`.
            """)
    var auditFile: String?

    /// The configuration from the environment with these options applied.
    func configuration() throws -> WalletServerConfiguration {
        var configuration = try CommandFailure.mapping { try WalletServerConfiguration() }
        if let dataDir { configuration.dataDirectory = StoreOptions.absoluteURL(dataDir) }
        if let auditFile { configuration.secretsAuditFile = StoreOptions.absoluteURL(auditFile) }
        if let databaseURL { configuration.databaseURL = databaseURL }
        if let storeKeyFile {
            configuration.secretStoreKey = .keyFile(StoreOptions.absoluteURL(storeKeyFile))
        } else if let storePassphraseFile {
            configuration.secretStoreKey = .passphrase(
                try StoreOptions.passphrase(
                    file: storePassphraseFile, environmentVariable: "COFFER_PASSPHRASE", prompt: "", confirming: false))
        }
        if apnsKeyFile != nil || apnsKeyID != nil || apnsTeamID != nil || apnsEnvironment != nil {
            let environment = ProcessInfo.processInfo.environment
            func pick(_ option: String?, _ variable: String) -> String? {
                option ?? EnvironmentValue.named(variable, in: environment)
            }
            configuration.apns = try CommandFailure.mapping {
                try WalletServerConfiguration.apns(
                    keyFile: pick(apnsKeyFile, WalletServerConfiguration.Variable.apnsKeyFile),
                    keyID: pick(apnsKeyID, WalletServerConfiguration.Variable.apnsKeyID),
                    teamID: pick(apnsTeamID, WalletServerConfiguration.Variable.apnsTeamID),
                    environment: pick(apnsEnvironment, WalletServerConfiguration.Variable.apnsEnvironment),
                    names: ("--apns-key-file", "--apns-key-id", "--apns-team-id", "--apns-environment"))
            }
        }
        return configuration
    }

    /// Opens the server's storage, runs `body` with it, and closes it whatever happens.
    func withStorage<Result>(
        _ configuration: WalletServerConfiguration, logger: Logger,
        _ body: (WalletServerStorage) async throws -> Result
    ) async throws -> Result {
        let storage = try await CommandFailure.mapping {
            try await WalletServerStorage.open(configuration: configuration, logger: logger)
        }
        do {
            let result = try await CommandFailure.mapping { try await body(storage) }
            try await storage.shutdown()
            return result
        } catch {
            try? await storage.shutdown()
            throw error
        }
    }
}
