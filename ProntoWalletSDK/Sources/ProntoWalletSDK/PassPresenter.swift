import Foundation

/// Shows the "Add to Apple Wallet" sheet for signed issuer data and reports how it ended.
///
/// On iOS the SDK's ``PassKitPresenter`` presents `PKAddPassesViewController(issuerData:signature:)`; the
/// UIKit conveniences of ``ProntoWallet`` make one for you, and ``AddPassToWalletView`` for SwiftUI. Provide your
/// own to drive the flow elsewhere, for example in tests.
@MainActor
public protocol PassPresenter {
    /// Whether this device can add passes to Apple Wallet; ``ProntoWallet`` checks it before it calls the server.
    var canAddPasses: Bool { get }

    /// Whether this device can present an NFC pass at a reader, as an account-bound pass is presented: an iPhone can,
    /// an iPad or a Mac cannot. `true` unless the presenter says otherwise.
    var canPresentNFCPasses: Bool { get }

    /// Shows the sheet for `issuerData` and returns once it is gone.
    ///
    /// - Returns: ``ProvisioningResult/added`` when the pass was added, ``ProvisioningResult/cancelled`` when the
    ///   user dismissed the sheet.
    /// - Throws: An error from PassKit (for example issuer data it refuses); ``ProntoWallet`` reports it as
    ///   ``ProvisioningError/passKitError(_:)``.
    func addPass(with issuerData: IssuerData) async throws -> ProvisioningResult

    /// The URL that opens `pass` in Wallet ("View in Wallet"), or `nil` when this device's Wallet does not have it or
    /// the app may not see it. `nil` unless the presenter says otherwise.
    func walletURL(for pass: WalletPassIdentity) -> URL?
}

extension PassPresenter {
    /// `true`: a presenter that does not know says so.
    public var canPresentNFCPasses: Bool { true }

    /// `nil`: a presenter that cannot read the pass library finds nothing there.
    public func walletURL(for pass: WalletPassIdentity) -> URL? { nil }
}
