import Foundation
import ProntoWalletSDK

/// A presenter that answers as a user would: adds the pass, dismisses the sheet, or fails like PassKit.
@MainActor
final class ScriptedPresenter: PassPresenter {
    enum Behavior {
        case add
        case dismiss
        case fail(any Error)
    }

    let canAddPasses: Bool
    private let behavior: Behavior
    private(set) var presented: [IssuerData] = []

    init(canAddPasses: Bool = true, behavior: Behavior = .add) {
        self.canAddPasses = canAddPasses
        self.behavior = behavior
    }

    func addPass(with issuerData: IssuerData) async throws -> ProvisioningResult {
        presented.append(issuerData)
        switch behavior {
        case .add: return .added
        case .dismiss: return .cancelled
        case .fail(let error): throw error
        }
    }
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
