import Foundation
import Logging
import WalletPasses
import WalletServices
import WalletStore

extension DeliveryDispatcher {
    /// The server's dispatcher: the outbox of `storage`'s repository, an ``APNsClient`` with `apns`, and each pass
    /// type's signing identity read through `storage`'s identity cache (so a renewed certificate is used within its
    /// reload interval). Each push's result goes in its pass's trace through `trace`, if given; webhook deliveries
    /// are posted with their endpoints' secrets from `storage`'s secret store, to this machine's addresses only with
    /// `allowsLoopbackWebhooks`. It starts a round whenever `wakeUp` rings.
    public init(
        storage: WalletServerStorage, apns: APNsConfiguration, metrics: ServerMetrics? = nil,
        trace: PassEventRecorder? = nil, allowsLoopbackWebhooks: Bool = false, wakeUp: OutboxWakeUp = OutboxWakeUp(),
        logger: Logger = Logger(label: "coffer.server")
    ) {
        let repository = storage.repository
        let identities = storage.identities
        self.init(
            outbox: repository, client: APNsClient(configuration: apns, logger: logger),
            identity: { passTypeID in
                guard let passType = try await repository.passType(id: passTypeID) else {
                    throw WalletServerError.notFound("pass type \(passTypeID)")
                }
                return try await identities.identity(for: passType)
            }, metrics: metrics, trace: trace,
            webhooks: WebhookSender(secrets: storage.secrets, allowsLoopback: allowsLoopbackWebhooks), wakeUp: wakeUp,
            logger: logger)
    }
}
