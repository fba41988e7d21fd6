// An iOS app that adds a ticket to Apple Wallet with ProntoWalletSDK. Build it in Xcode (iOS 16.4+), with the
// ProntoWalletSDK folder added as a local package and the Wallet capability enabled; it is not built on Linux.
#if canImport(UIKit) && canImport(PassKit)
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

    /// A ticket with "Add to Apple Wallet", which becomes "View in Wallet" once the pass is there; the button shows
    /// nothing where the pass cannot be added, and the status line says how the last attempt ended.
    @MainActor
    struct TicketView: View {
        let tagId: String
        @StateObject private var status = ProvisioningStatus()

        var body: some View {
            VStack(spacing: 24) {
                Text("Ticket \(tagId)").font(.title)
                WalletPassButton(tagId: tagId, delegate: status)
                    .frame(height: 50)
                Text(status.message).foregroundStyle(.secondary)
            }
            .padding()
        }
    }

    /// What the ticket's status line says: the SDK's delegate, published for SwiftUI.
    @MainActor
    final class ProvisioningStatus: ObservableObject, ProvisioningDelegate {
        @Published private(set) var message = ""

        func provisioningDidComplete() { message = "In Apple Wallet." }
        func provisioning(didFailWith error: ProvisioningError) { message = error.localizedDescription }
        func provisioningDidCancel() { message = "" }
    }
#endif
