#if canImport(SwiftUI) && canImport(PassKit) && canImport(UIKit) && os(iOS)
    import Combine
    import PassKit
    import SwiftUI
    import UIKit

    // `AddPassToWalletButton` is in PassKit's SwiftUI overlay: named, so that a compiler that loads no cross-import
    // overlays (the iOS typecheck on Linux) finds it too.
    #if canImport(_PassKit_SwiftUI)
        import _PassKit_SwiftUI
    #endif

    /// A tag's pass in SwiftUI, as Apple's Wallet guidelines ask: Apple's "Add to Apple Wallet" button while the pass
    /// is not in Wallet, which runs the provisioning flow, and "View in Wallet" once it is.
    ///
    /// ```swift
    /// WalletPassButton(tagId: "TICKET-001", delegate: coordinator)
    /// ```
    ///
    /// While the flow runs the button shows progress; a failure shows the add button again (the delegate hears the
    /// ``ProvisioningError``), and a device that cannot add the pass shows nothing. When the server names the pass (as
    /// Coffer's does), a pass already in Wallet opens there instead of being added again; give `pass` when the app
    /// knows it, to show "View in Wallet" from the start. The labels "View in Wallet" and "Added to Apple Wallet" are
    /// looked up in the app's `Localizable.strings`. Wallet's state is read again whenever the app returns to the
    /// foreground.
    @available(iOS 16.4, *)
    @MainActor
    public struct WalletPassButton: View {
        @StateObject private var host: WalletPassButtonHost
        @Environment(\.openURL) private var openURL

        /// A button for the pass of `tagId` (whose kind `idAttribute` says), added through `wallet`; `delegate`
        /// hears how each attempt ended, on the main actor.
        public init(
            tagId: String, idAttribute: TagIdAttribute = .referenceId, pass: WalletPassIdentity? = nil,
            wallet: ProntoWallet = .shared, delegate: (any ProvisioningDelegate)? = nil
        ) {
            _host = StateObject(
                wrappedValue: WalletPassButtonHost(
                    wallet: wallet, tagId: tagId, idAttribute: idAttribute, pass: pass, delegate: delegate))
        }

        /// The button for the current state.
        public var body: some View {
            content
                .background(PresentationAnchor(controller: host.anchor))
                .onAppear { host.model.refresh() }
                .onReceive(NotificationCenter.default.publisher(for: UIApplication.willEnterForegroundNotification)) {
                    _ in host.model.refresh()
                }
        }

        @ViewBuilder private var content: some View {
            switch host.state {
            case .canAdd, .failed:
                AddPassToWalletButton { host.model.add() }
            case .adding:
                AddPassToWalletButton {}
                    .disabled(true)
                    .overlay { ProgressView() }
            case .added(let url?), .alreadyInWallet(let url):
                Button("View in Wallet") { openURL(url) }
            case .added(nil):
                Label("Added to Apple Wallet", systemImage: "checkmark.circle")
            case .unavailable:
                EmptyView()
            }
        }
    }

    /// The model of one ``WalletPassButton``, published for SwiftUI, with the view controller its sheet is presented
    /// from.
    @available(iOS 16.4, *)
    @MainActor
    private final class WalletPassButtonHost: ObservableObject {
        let anchor: UIViewController
        let model: WalletPassButtonModel
        @Published private(set) var state: WalletPassButtonState

        init(
            wallet: ProntoWallet, tagId: String, idAttribute: TagIdAttribute, pass: WalletPassIdentity?,
            delegate: (any ProvisioningDelegate)?
        ) {
            let anchor = UIViewController()
            let model = WalletPassButtonModel(
                wallet: wallet, tagId: tagId, idAttribute: idAttribute, pass: pass,
                presenter: PassKitPresenter(presentingFrom: anchor), delegate: delegate)
            self.anchor = anchor
            self.model = model
            self.state = model.state
            model.onChange = { [weak self] state in self?.state = state }
        }
    }

    /// Puts the host's view controller in the hierarchy, so that Wallet's sheet has a window to be presented in.
    private struct PresentationAnchor: UIViewControllerRepresentable {
        let controller: UIViewController

        func makeUIViewController(context: Context) -> UIViewController { controller }
        func updateUIViewController(_ controller: UIViewController, context: Context) {}
    }
#endif
