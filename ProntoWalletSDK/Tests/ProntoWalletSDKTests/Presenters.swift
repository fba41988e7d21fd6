import Foundation
import ProntoWalletSDK

/// A presenter that answers as a user would (adds the pass, dismisses the sheet, or fails like PassKit) on an emulated
/// device with a pass library: an added pass the server named is in the library from then on.
@MainActor
final class ScriptedPresenter: PassPresenter {
    enum Behavior {
        case add
        case dismiss
        case fail(any Error)
        /// Keeps the sheet up until ``finish(with:)``, or until the task is cancelled.
        case waitForUser
    }

    let canAddPasses: Bool
    let canPresentNFCPasses: Bool
    /// The passes in the emulated Wallet that the app may see, with the URL that opens each.
    var library: [WalletPassIdentity: URL] = [:]
    private var behavior: Behavior
    private(set) var presented: [IssuerData] = []
    private var user: CheckedContinuation<Behavior, Never>?

    init(canAddPasses: Bool = true, canPresentNFCPasses: Bool = true, behavior: Behavior = .add) {
        self.canAddPasses = canAddPasses
        self.canPresentNFCPasses = canPresentNFCPasses
        self.behavior = behavior
    }

    /// Whether a sheet is up, waiting for ``finish(with:)``.
    var isWaiting: Bool { user != nil }

    /// What the user does with the sheet that is up (``Behavior/waitForUser``); later sheets do the same.
    func finish(with behavior: Behavior) {
        self.behavior = behavior
        user?.resume(returning: behavior)
        user = nil
    }

    func addPass(with issuerData: IssuerData) async throws -> ProvisioningResult {
        presented.append(issuerData)
        var behavior = self.behavior
        if case .waitForUser = behavior {
            behavior = await withTaskCancellationHandler {
                await withCheckedContinuation { user = $0 }
            } onCancel: {
                Task { @MainActor in self.finish(with: .dismiss) }
            }
            try Task.checkCancellation()
        }
        switch behavior {
        case .add, .waitForUser:
            if let pass = issuerData.pass {
                library[pass] = URL(string: "shoebox://card/\(pass.serialNumber)")
            }
            return .added
        case .dismiss: return .cancelled
        case .fail(let error): throw error
        }
    }

    func walletURL(for pass: WalletPassIdentity) -> URL? { library[pass] }
}

/// A delegate that records what it heard.
@MainActor
final class RecordingDelegate: ProvisioningDelegate {
    enum Event {
        case completed
        case failed(ProvisioningError)
        case cancelled
    }

    private(set) var events: [Event] = []

    func provisioningDidComplete() { events.append(.completed) }
    func provisioning(didFailWith error: ProvisioningError) { events.append(.failed(error)) }
    func provisioningDidCancel() { events.append(.cancelled) }
}

struct PassKitRefusal: Error {}
