import Foundation

/// The logic of ``WalletPassButton``, apart from SwiftUI: which state the button is in, and the add flow that moves it.
///
/// The state comes from the presenter: "already in Wallet" when the pass (given, or named by the server's last answer)
/// is in the pass library, "unavailable" when the device cannot add or present it, "can add" otherwise. Adding runs
/// ``ProntoWallet``'s flow, except that a pass the server names and Wallet already has is not added again; the
/// delegate hears how each attempt ended, as with ``ProntoWallet/provisionPass(tagId:idAttribute:presenter:delegate:)``.
@MainActor
final class WalletPassButtonModel {
    /// What the button shows; ``onChange`` hears every change.
    private(set) var state: WalletPassButtonState {
        didSet { onChange?(state) }
    }
    /// Called on every change of ``state``.
    var onChange: ((WalletPassButtonState) -> Void)?

    private let wallet: ProntoWallet
    private let tagId: String
    private let idAttribute: TagIdAttribute
    private let presenter: any PassPresenter
    private weak var delegate: (any ProvisioningDelegate)?
    /// The tag's pass, once known: given by the app, or named by the server's answer.
    private var pass: WalletPassIdentity?
    private var attempt: Task<Void, Never>?

    /// A model for the pass of `tagId`; `pass` names it when the app knows it, so that a pass already in Wallet shows
    /// as such before anything is fetched.
    init(
        wallet: ProntoWallet, tagId: String, idAttribute: TagIdAttribute, pass: WalletPassIdentity?,
        presenter: any PassPresenter, delegate: (any ProvisioningDelegate)?
    ) {
        self.wallet = wallet
        self.tagId = tagId
        self.idAttribute = idAttribute
        self.pass = pass
        self.presenter = presenter
        self.delegate = delegate
        self.state = .canAdd
        self.state = settled()
    }

    /// Reads the pass library and the device again (the view appeared, the app came back to the foreground): a pass
    /// removed from Wallet can be added again, one added elsewhere shows as in Wallet. Nothing changes while adding.
    func refresh() {
        guard attempt == nil else { return }
        // A pass just added stays "added" unless the library showed it and no longer does (the user removed it).
        if case .added(let url) = state {
            guard url != nil, let pass, presenter.walletURL(for: pass) == nil else { return }
        }
        state = settled()
    }

    /// Starts adding the pass, when the button offers it (``WalletPassButtonState/canAdd`` or
    /// ``WalletPassButtonState/failed(_:)``); returns the attempt, or `nil` when none started.
    @discardableResult
    func add() -> Task<Void, Never>? {
        switch state {
        case .canAdd, .failed: break
        default: return nil
        }
        state = .adding
        let attempt = Task { await run() }
        self.attempt = attempt
        return attempt
    }

    /// Cancels an attempt in progress: Wallet's sheet is dismissed, and the button offers to add again.
    func cancel() {
        attempt?.cancel()
    }

    private func run() async {
        defer { attempt = nil }
        do {
            switch try await wallet.provision(
                tagId: tagId, idAttribute: idAttribute, presenter: presenter, unlessInWallet: true)
            {
            case .added(let issuerData):
                pass = issuerData.pass ?? pass
                state = .added(walletURL: pass.flatMap(presenter.walletURL(for:)))
                delegate?.provisioningDidComplete()
            case .alreadyInWallet(let issuerData, let url):
                pass = issuerData.pass
                state = .alreadyInWallet(walletURL: url)
                delegate?.provisioningDidComplete()
            case .cancelled:
                state = settled()
                delegate?.provisioningDidCancel()
            }
        } catch let error as ProvisioningError {
            state = .failed(error)
            delegate?.provisioning(didFailWith: error)
        } catch {
            state = settled()
            delegate?.provisioningDidCancel()
        }
    }

    /// The state the device and the pass library call for, outside an attempt.
    private func settled() -> WalletPassButtonState {
        if let pass, let url = presenter.walletURL(for: pass) { return .alreadyInWallet(walletURL: url) }
        guard presenter.canAddPasses else { return .unavailable(.cannotAddPasses) }
        guard presenter.canPresentNFCPasses else { return .unavailable(.noNFC) }
        return .canAdd
    }
}
