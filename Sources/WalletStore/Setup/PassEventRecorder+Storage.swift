import Logging
import WalletServices

extension PassEventRecorder {
    /// A recorder into `storage`'s pass traces, keeping device identifiers as digests under a key of this process.
    public convenience init(storage: WalletServerStorage, logger: Logger = Logger(label: "coffer.trace")) {
        self.init(store: storage.repository, devices: nil, logger: logger)
    }
}
