import ArgumentParser
import Foundation
import Logging
import WalletServer

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

    /// The configuration from the environment with these options applied.
    func configuration() throws -> WalletServerConfiguration {
        var configuration = try CommandFailure.mapping { try WalletServerConfiguration() }
        if let dataDir { configuration.dataDirectory = StoreOptions.absoluteURL(dataDir) }
        if let databaseURL { configuration.databaseURL = databaseURL }
        if let storeKeyFile {
            configuration.secretStoreKey = .keyFile(StoreOptions.absoluteURL(storeKeyFile))
        } else if let storePassphraseFile {
            configuration.secretStoreKey = .passphrase(
                try StoreOptions.passphrase(
                    file: storePassphraseFile, environmentVariable: "COFFER_PASSPHRASE", prompt: "", confirming: false))
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
