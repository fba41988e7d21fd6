import Foundation
import Logging
import Secrets
import WalletServices
import WalletStore

extension DeliveryDispatcher {
    /// The server's dispatcher: the outbox of `storage`'s repository, an ``APNsClient`` with `apns`, a
    /// ``GoogleWalletClient`` with `googleWallet` and each pass type's Google service account (images and callbacks
    /// under `publicURL`, when it is https), and each pass type's signing identity read through `storage`'s identity
    /// cache (so a renewed certificate is used within its reload interval; the pass type's record is read again
    /// after a second). Each push's result goes in its pass's trace through `trace`, if given; webhook deliveries
    /// are posted with their endpoints' secrets from `storage`'s secret store, to this machine's addresses only with
    /// `allowsLoopbackWebhooks`. It starts a round whenever `wakeUp` rings.
    public init(
        storage: WalletServerStorage, apns: APNsConfiguration,
        googleWallet: GoogleWalletConfiguration = GoogleWalletConfiguration(), publicURL: URL? = nil,
        metrics: ServerMetrics? = nil,
        trace: PassEventRecorder? = nil, allowsLoopbackWebhooks: Bool = false, wakeUp: OutboxWakeUp = OutboxWakeUp(),
        logger: Logger = Logger(label: "coffer.server")
    ) {
        let repository = storage.repository
        let identities = storage.identities
        let recentPassTypes = Locked<[UUID: (PassType, ContinuousClock.Instant)]>([:])
        let base = publicURL.map {
            $0.absoluteString.hasSuffix("/") ? String($0.absoluteString.dropLast()) : $0.absoluteString
        }
        let google = GoogleWalletWriter(
            api: GoogleWalletClient(
                configuration: googleWallet, rateBuckets: storage.database.engine == .postgres ? repository : nil),
            outbox: repository,
            source: GooglePassSource(repository: repository, secrets: storage.secrets),
            converter: GooglePassConverter(publicBaseURL: { base }))
        self.init(
            outbox: repository, client: APNsClient(configuration: apns, logger: logger),
            identity: { passTypeID in
                // A fan-out sends thousands of pushes of one pass type: its record is read once a second at most.
                let now = ContinuousClock.now
                if let (passType, readAt) = recentPassTypes.withLock({ $0[passTypeID] }), now - readAt < .seconds(1) {
                    return try await identities.identity(for: passType)
                }
                guard let passType = try await repository.passType(id: passTypeID) else {
                    throw WalletServerError.notFound("pass type \(passTypeID)")
                }
                recentPassTypes.withLock { $0[passTypeID] = (passType, now) }
                return try await identities.identity(for: passType)
            }, metrics: metrics, trace: trace,
            webhooks: WebhookSender(secrets: storage.secrets, allowsLoopback: allowsLoopbackWebhooks), google: google,
            wakeUp: wakeUp, logger: logger)
    }
}
