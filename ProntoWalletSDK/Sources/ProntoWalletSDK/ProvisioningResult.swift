/// How a provisioning flow that ran to the Wallet sheet ended.
public enum ProvisioningResult: Hashable, Sendable {
    /// The pass was added to Apple Wallet.
    case added
    /// The user dismissed the sheet without adding the pass.
    case cancelled
}
