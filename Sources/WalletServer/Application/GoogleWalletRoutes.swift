import Foundation
import Logging
import Secrets
import WalletServices

/// What the routes need to serve Google Wallet: where service account keys are kept, the endpoints, and the outbox's
/// doorbell for the writes a save link queues.
package struct GoogleWalletRoutes: Sendable {
    /// Where each pass type's service account key is kept.
    package var secrets: any SecretsDataStoring
    /// The endpoints (the root keys of callbacks among them).
    package var configuration: GoogleWalletConfiguration
    /// Rings the outbox after a write was queued.
    package var queued: @Sendable () -> Void

    /// The routes' set-up.
    package init(
        secrets: any SecretsDataStoring, configuration: GoogleWalletConfiguration = GoogleWalletConfiguration(),
        queued: @escaping @Sendable () -> Void = {}
    ) {
        self.secrets = secrets
        self.configuration = configuration
        self.queued = queued
    }

    /// The link and callback services over `repository`, for the server at `publicBaseURL`.
    func services(
        repository: any WalletRepository, publicBaseURL: @escaping @Sendable () -> String, trace: PassEventRecorder,
        clock: any CofferClock, logger: Logger
    ) -> (links: GoogleWalletLinks, callbacks: GoogleWalletCallbacks) {
        let configuration = configuration
        let links = GoogleWalletLinks(
            repository: repository, source: GooglePassSource(repository: repository, secrets: secrets),
            converter: GooglePassConverter(publicBaseURL: publicBaseURL),
            origins: {
                guard let url = URLComponents(string: publicBaseURL()), let scheme = url.scheme, let host = url.host
                else { return [] }
                return [scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")]
            }, queued: queued, clock: clock, logger: logger)
        let callbacks = GoogleWalletCallbacks(
            repository: repository,
            rootKeys: GoogleRootKeys(clock: clock) { try await GoogleWalletClient.rootKeys(configuration) },
            senderID: configuration.callbackSenderID, trace: trace, clock: clock, logger: logger)
        return (links, callbacks)
    }
}
