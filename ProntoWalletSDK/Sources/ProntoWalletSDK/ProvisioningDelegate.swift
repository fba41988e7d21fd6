/// Hears how a ``ProntoWallet/provisionPass(tagId:idAttribute:presenter:delegate:)`` flow ended: exactly one of its
/// methods is called, once, on the main actor.
///
/// The SDK keeps a weak reference to the delegate; keep it alive (a view controller usually is) until it hears back.
@MainActor
public protocol ProvisioningDelegate: AnyObject {
    /// The pass was added to Apple Wallet.
    func provisioningDidComplete()
    /// The flow failed; `error` says why.
    func provisioning(didFailWith error: ProvisioningError)
    /// The user dismissed the Wallet sheet without adding the pass, or the app cancelled the flow.
    func provisioningDidCancel()
}
