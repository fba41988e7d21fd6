import CofferTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import WalletServer
import WalletServices
import WalletStore

/// A real provisioning server for the SDK to talk to: `WalletServerApplication` with its zero-configuration
/// defaults (SQLite, an encrypted secret store, a development signing identity) in a temporary data directory,
/// listening on a free loopback port, and the administration `coffer admin` uses, over the same data directory.
struct ProvisioningServer: Sendable {
    let directory: TemporaryDirectory
    let port: Int
    let administration: WalletAdministration

    /// The development root certificate that the server's signatures chain to.
    var rootPEM: Data { get throws { try Data(contentsOf: directory.appending("data/development-root.pem")) } }

    /// What `.development(host:)` takes to reach this server.
    var host: String { "127.0.0.1:\(port)" }

    /// Starts a server, runs `body` with it, and stops it.
    static func run<Result: Sendable>(_ body: @Sendable (ProvisioningServer) async throws -> Result) async throws
        -> Result
    {
        let directory = try TemporaryDirectory(prefix: "coffer-sdk")
        let configuration = WalletServerConfiguration(port: 0, dataDirectory: directory.appending("data"))
        let logger = Logger(label: "sdk-tests")
        let application = try await WalletServerApplication.buildApplication(
            configuration: configuration, logger: logger)
        return try await application.test(.live) { client in
            let storage = try await WalletServerStorage.open(configuration: configuration, logger: logger)
            let server = ProvisioningServer(
                directory: directory, port: try #require(client.port),
                administration: WalletAdministration(storage: storage, logger: logger))
            do {
                let result = try await body(server)
                try await storage.shutdown()
                return result
            } catch {
                try? await storage.shutdown()
                throw error
            }
        }
    }
}
