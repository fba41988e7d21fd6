import Foundation

/// Shows the "Add to Apple Wallet" sheet for signed issuer data and reports how it ended.
///
/// On iOS the SDK's ``PassKitPresenter`` presents `PKAddPassesViewController(issuerData:signature:)`; the
/// UIKit conveniences of ``ProntoWallet`` make one for you. Provide your own to drive the flow elsewhere, for
/// example in tests.
@MainActor
public protocol PassPresenter {
    /// Whether this device can add passes to Apple Wallet; ``ProntoWallet`` checks it before it calls the server.
    var canAddPasses: Bool { get }

    /// Shows the sheet for `issuerData` and returns once it is gone.
    ///
    /// - Returns: ``ProvisioningResult/added`` when the pass was added, ``ProvisioningResult/cancelled`` when the
    ///   user dismissed the sheet.
    /// - Throws: An error from PassKit (for example issuer data it refuses); ``ProntoWallet`` reports it as
    ///   ``ProvisioningError/passKitError(_:)``.
    func addPass(with issuerData: IssuerData) async throws -> ProvisioningResult
}
