import Logging
import WalletServices

extension WalletAdministration {
    /// Creates the administration over opened storage: its records, its secret store and its identity cache.
    public init(storage: WalletServerStorage, logger: Logger = Logger(label: "coffer.admin")) {
        self.init(
            repository: storage.repository, secrets: storage.secrets, identities: storage.identities,
            developmentRootURL: storage.configuration.developmentRootURL, logger: logger)
    }
}
