#if canImport(PassKit) && canImport(UIKit) && (os(iOS) || os(visionOS))
    import PassKit
    import UIKit

    /// Presents PassKit's "Add to Apple Wallet" sheet for issuer data over a view controller.
    ///
    /// It creates `PKAddPassesViewController(issuerData:signature:)` with the base64 text of both (PassKit decodes them
    /// itself), presents it, dismisses it when it finishes, and returns once it is gone: ``ProvisioningResult/added``
    /// when the pass library reported an added or replaced pass (`PKPassLibraryDidChange`, awaited up to a second
    /// after the sheet is gone; the app needs the pass type in its Wallet entitlement to be told) or shows a pass it
    /// did not have before, ``ProvisioningResult/cancelled`` otherwise. Cancelling the task dismisses the sheet and
    /// throws `CancellationError`. The flow itself is ``AddPassSheetFlow``; this type is its UIKit side.
    @available(iOS 16.4, *)
    @MainActor
    public final class PassKitPresenter: NSObject, PassPresenter, PKAddPassesViewControllerDelegate {
        /// Why the sheet could not be shown.
        public typealias PresentationError = PassPresentationError

        private weak var presentingViewController: UIViewController?
        private let flow = AddPassSheetFlow()

        /// Creates a presenter that shows the sheet over `viewController`.
        public init(presentingFrom viewController: UIViewController) {
            self.presentingViewController = viewController
        }

        /// `PKAddPassesViewController.canAddPasses()`.
        public var canAddPasses: Bool { PKAddPassesViewController.canAddPasses() }

        /// Whether this is an iPhone, the device that presents NFC passes at readers (an iPad or a Mac does not).
        public var canPresentNFCPasses: Bool { UIDevice.current.userInterfaceIdiom == .phone }

        /// The `passURL` of the pass in `PKPassLibrary`, which lists only passes of the pass types in the app's
        /// Wallet entitlement.
        public func walletURL(for pass: WalletPassIdentity) -> URL? {
            PKPassLibrary().pass(withPassTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber)?
                .passURL
        }

        /// Presents the sheet and returns once it is dismissed.
        ///
        /// - Throws: ``PassPresentationError/cannotPresent`` when the view controller is gone, not in a window, or
        ///   presenting something, or a sheet of this presenter is up; PassKit's error for issuer data it refuses;
        ///   `CancellationError` when the task is cancelled (the sheet is dismissed first).
        public func addPass(with issuerData: IssuerData) async throws -> ProvisioningResult {
            guard !flow.isRunning, let presenting = presentingViewController else {
                throw PresentationError.cannotPresent
            }
            let sheet = try PKAddPassesViewController(
                issuerData: issuerData.passKitIssuerData, signature: issuerData.passKitSignature)
            sheet.delegate = self
            let host = SheetHost(presenting: presenting, sheet: sheet)
            // An instance of PKPassLibrary (the host's) must exist for PassKit to post PKPassLibraryDidChange.
            let flow = flow
            let observer = NotificationCenter.default.addObserver(
                forName: Notification.Name(PKPassLibraryNotificationName.PKPassLibraryDidChange.rawValue),
                object: nil, queue: nil
            ) { notification in
                let keys = [
                    PKPassLibraryNotificationKey.addedPassesUserInfoKey.rawValue,
                    PKPassLibraryNotificationKey.replacementPassesUserInfoKey.rawValue,
                ]
                let changed = keys.contains { (notification.userInfo?[$0] as? [Any])?.isEmpty == false }
                // Posted on an arbitrary queue: hop to the main actor.
                Task { @MainActor in flow.passLibraryDidChange(addedOrReplaced: changed) }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            return try await flow.present(on: host)
        }

        /// PassKit's call when the user finished with the sheet: the flow dismisses it and settles the result.
        public nonisolated func addPassesViewControllerDidFinish(_ controller: PKAddPassesViewController) {
            Task { @MainActor in self.flow.sheetDidFinish() }
        }
    }

    /// The UIKit calls of one presentation.
    @available(iOS 16.4, *)
    @MainActor
    private final class SheetHost: AddPassSheetHost {
        private let presenting: UIViewController
        private let sheet: PKAddPassesViewController
        private let library = PKPassLibrary()

        init(presenting: UIViewController, sheet: PKAddPassesViewController) {
            self.presenting = presenting
            self.sheet = sheet
        }

        func presentSheet(shown: @escaping @MainActor () -> Void) -> Bool {
            // UIKit only logs "not in the window hierarchy" and never calls the completion: check first.
            guard presenting.viewIfLoaded?.window != nil, presenting.presentedViewController == nil else {
                return false
            }
            presenting.present(sheet, animated: true) { shown() }
            // Set at once when UIKit started the presentation.
            return sheet.presentingViewController != nil
        }

        func dismissSheet(dismissed: @escaping @MainActor () -> Void) {
            guard sheet.presentingViewController != nil else { return dismissed() }
            sheet.dismiss(animated: true) { dismissed() }
        }

        func visiblePasses() -> Set<String> {
            Set(library.passes().map { "\($0.passTypeIdentifier) \($0.serialNumber)" })
        }
    }
#endif
