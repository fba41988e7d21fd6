#if canImport(PassKit) && canImport(UIKit) && (os(iOS) || os(visionOS))
    import UIKit

    extension ProntoWallet {
        /// Adds a tag's pass to Apple Wallet, presenting the sheet over `presentingViewController`, and tells
        /// `delegate` how it ended (the SDK's main entry point).
        ///
        /// On iOS before 16.4 the delegate hears ``ProvisioningError/walletNotAvailable``.
        @MainActor
        @discardableResult
        public func provisionPass(
            tagId: String, idAttribute: TagIdAttribute = .referenceId, from presentingViewController: UIViewController,
            delegate: any ProvisioningDelegate
        ) -> Task<Void, Never> {
            provisionPass(
                tagId: tagId, idAttribute: idAttribute, presenter: Self.presenter(for: presentingViewController),
                delegate: delegate)
        }

        /// Adds a tag's pass to Apple Wallet, presenting the sheet over `presentingViewController`.
        ///
        /// - Returns: Whether the user added the pass or dismissed the sheet.
        /// - Throws: ``ProvisioningError``, or `CancellationError` when the task is cancelled before the sheet shows.
        @MainActor
        public func provisionPass(
            tagId: String, idAttribute: TagIdAttribute = .referenceId, from presentingViewController: UIViewController
        ) async throws -> ProvisioningResult {
            try await provisionPass(
                tagId: tagId, idAttribute: idAttribute, presenter: Self.presenter(for: presentingViewController))
        }

        @MainActor
        private static func presenter(for viewController: UIViewController) -> any PassPresenter {
            if #available(iOS 16.4, *) { return PassKitPresenter(presentingFrom: viewController) }
            return UnavailableWallet()
        }
    }

    /// The presenter before iOS 16.4, where PassKit cannot add a pass from issuer data.
    @MainActor
    private struct UnavailableWallet: PassPresenter {
        var canAddPasses: Bool { false }
        func addPass(with issuerData: IssuerData) async throws -> ProvisioningResult { .cancelled }
    }
#endif
