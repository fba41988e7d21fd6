#if canImport(PassKit) && canImport(UIKit) && (os(iOS) || os(visionOS))
    import PassKit
    import UIKit

    /// Presents PassKit's "Add to Apple Wallet" sheet for issuer data over a view controller.
    ///
    /// It creates `PKAddPassesViewController(issuerData:signature:)` with the base64 text of both (PassKit decodes them
    /// itself), presents it, dismisses it when it finishes, and reports ``ProvisioningResult/added`` when the pass
    /// library announced an added or replaced pass while the sheet was up (`PKPassLibraryDidChange`; the app needs the
    /// pass type in its Wallet entitlement to be told), ``ProvisioningResult/cancelled`` otherwise.
    @available(iOS 16.4, *)
    @MainActor
    public final class PassKitPresenter: NSObject, PassPresenter, PKAddPassesViewControllerDelegate {
        /// Why the sheet could not be shown.
        public enum PresentationError: Error, Sendable {
            /// The view controller to present from is gone, or is already presenting something.
            case cannotPresent
        }

        private weak var presentingViewController: UIViewController?
        private var continuation: CheckedContinuation<ProvisioningResult, Never>?
        private var library: PKPassLibrary?
        private var libraryObserver: (any NSObjectProtocol)?
        private var passWasAdded = false

        /// Creates a presenter that shows the sheet over `viewController`.
        public init(presentingFrom viewController: UIViewController) {
            self.presentingViewController = viewController
        }

        /// `PKAddPassesViewController.canAddPasses()`.
        public var canAddPasses: Bool { PKAddPassesViewController.canAddPasses() }

        /// Presents the sheet and returns once it is dismissed.
        public func addPass(with issuerData: IssuerData) async throws -> ProvisioningResult {
            guard let presenting = presentingViewController, presenting.presentedViewController == nil,
                continuation == nil
            else { throw PresentationError.cannotPresent }
            let sheet = try PKAddPassesViewController(
                issuerData: issuerData.passKitIssuerData, signature: issuerData.passKitSignature)
            sheet.delegate = self
            observePassLibrary()
            return await withCheckedContinuation { continuation in
                self.continuation = continuation
                presenting.present(sheet, animated: true)
            }
        }

        /// PassKit's call when the user finished with the sheet: dismisses it and resumes ``addPass(with:)``.
        public nonisolated func addPassesViewControllerDidFinish(_ controller: PKAddPassesViewController) {
            Task { @MainActor in
                await controller.dismiss(animated: true)
                self.finish()
            }
        }

        private func observePassLibrary() {
            passWasAdded = false
            let library = PKPassLibrary()
            self.library = library
            libraryObserver = NotificationCenter.default.addObserver(
                forName: Notification.Name(PKPassLibraryNotificationName.PKPassLibraryDidChange.rawValue),
                object: nil, queue: .main
            ) { [weak self] notification in
                let keys = [
                    PKPassLibraryNotificationKey.addedPassesUserInfoKey.rawValue,
                    PKPassLibraryNotificationKey.replacementPassesUserInfoKey.rawValue,
                ]
                let changed = keys.contains { (notification.userInfo?[$0] as? [Any])?.isEmpty == false }
                guard changed, let presenter = self else { return }
                Task { @MainActor in presenter.passWasAdded = true }
            }
        }

        private func finish() {
            if let libraryObserver { NotificationCenter.default.removeObserver(libraryObserver) }
            libraryObserver = nil
            library = nil
            let result: ProvisioningResult = passWasAdded ? .added : .cancelled
            continuation?.resume(returning: result)
            continuation = nil
        }
    }
#endif
