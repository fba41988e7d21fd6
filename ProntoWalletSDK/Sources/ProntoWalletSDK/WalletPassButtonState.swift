import Foundation

/// What ``WalletPassButton`` shows for a tag's pass, following Apple's guidelines: "Add to Apple Wallet" while the pass
/// is not in Wallet, "View in Wallet" once it is.
public enum WalletPassButtonState: Sendable {
    /// The pass can be added: Apple's "Add to Apple Wallet" button.
    case canAdd
    /// Asking the server for issuer data, or Wallet's sheet is up.
    case adding
    /// The pass was just added; `walletURL` opens it in Wallet, when the app may see the pass.
    case added(walletURL: URL?)
    /// The pass is in Wallet already: "View in Wallet" opens it, instead of adding it again.
    case alreadyInWallet(walletURL: URL)
    /// This device cannot add the pass, and why.
    case unavailable(WalletUnavailability)
    /// The last attempt failed; the add button shows again, to retry.
    case failed(ProvisioningError)
}

/// Why a device cannot add an account-bound pass.
public enum WalletUnavailability: Hashable, Sendable {
    /// Wallet cannot add passes here: no Wallet, a restriction, or an OS before iOS 16.4.
    case cannotAddPasses
    /// The device cannot present an NFC pass at a reader (an iPad, a Mac), and an account-bound pass is one.
    case noNFC
}
