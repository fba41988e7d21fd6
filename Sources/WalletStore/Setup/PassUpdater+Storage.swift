import Logging
import WalletServices

extension PassUpdater {
    /// An updater over `storage`'s records: each change goes in its pass's trace through `trace`, and
    /// `pushesQueued` is called after a change queued pushes (give it the push dispatcher's `DeliveryDispatcher/wake()`).
    public init(
        storage: WalletServerStorage, logger: Logger = Logger(label: "coffer.updates"),
        trace: PassEventRecorder, pushesQueued: @escaping @Sendable () -> Void = {}
    ) {
        self.init(store: storage.repository, logger: logger, trace: trace, pushesQueued: pushesQueued)
    }
}
