// An iOS app that adds a ticket to Apple Wallet with ProntoWalletSDK. Build it in Xcode (iOS 16.4+), with the
// ProntoWalletSDK folder added as a local package and the Wallet capability enabled; it is not built on Linux.
#if canImport(UIKit) && canImport(PassKit)
    import PassKit
    import ProntoWalletSDK
    import SwiftUI

    @main
    struct ProntoWalletExampleApp: App {
        init() {
            // `coffer serve` on the Mac running the simulator; `coffer admin seed-demo` prints a key and a tag.
            ProntoWallet.shared.configure(
                with: ProntoConfiguration(
                    apiKey: "paste-the-api-token", environment: .development(host: "localhost:8080")))
        }

        var body: some Scene {
            WindowGroup { TicketView(tagId: "DEMO-TAG") }
        }
    }

    /// A ticket with an "Add to Apple Wallet" button, shown only where Wallet can add passes.
    ///
    /// `@MainActor` for the whole view (as iOS 18's `View` is): the task that runs the flow updates its state.
    @MainActor
    struct TicketView: View {
        let tagId: String
        @State private var status = ""
        @State private var isAdding = false

        var body: some View {
            VStack(spacing: 24) {
                Text("Ticket \(tagId)").font(.title)
                if ProntoWallet.shared.isWalletAvailable {
                    AddToWalletButton(isAdding: $isAdding, action: addToWallet)
                        .frame(height: 50)
                        .disabled(isAdding)
                } else {
                    Text("Apple Wallet is not available on this device.")
                }
                Text(status).foregroundStyle(.secondary)
            }
            .padding()
        }

        private func addToWallet(from viewController: UIViewController) {
            isAdding = true
            Task {
                defer { isAdding = false }
                do {
                    switch try await ProntoWallet.shared.provisionPass(tagId: tagId, from: viewController) {
                    case .added: status = "Added to Apple Wallet."
                    case .cancelled: status = ""
                    }
                } catch {
                    status = error.localizedDescription
                }
            }
        }
    }

    /// PassKit's "Add to Apple Wallet" button, handing its view controller to the action so that the SDK can present
    /// the Wallet sheet over it.
    struct AddToWalletButton: UIViewControllerRepresentable {
        @Binding var isAdding: Bool
        let action: (UIViewController) -> Void

        func makeUIViewController(context: Context) -> UIViewController {
            let controller = UIViewController()
            let button = PKAddPassButton(addPassButtonStyle: .black)
            button.translatesAutoresizingMaskIntoConstraints = false
            button.addAction(UIAction { [weak controller] _ in controller.map(action) }, for: .touchUpInside)
            controller.view.addSubview(button)
            NSLayoutConstraint.activate([
                button.centerXAnchor.constraint(equalTo: controller.view.centerXAnchor),
                button.centerYAnchor.constraint(equalTo: controller.view.centerYAnchor),
            ])
            return controller
        }

        func updateUIViewController(_ controller: UIViewController, context: Context) {}
    }
#endif
