import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK's entry point: configure it once with your API key, then add a tag's account-bound pass to Apple Wallet.
///
/// ```swift
/// ProntoWallet.shared.configure(with: ProntoConfiguration(apiKey: token, environment: .staging))
///
/// // UIKit, with a delegate:
/// ProntoWallet.shared.provisionPass(tagId: "TICKET-001", from: viewController, delegate: self)
///
/// // Or with async/await:
/// let result = try await ProntoWallet.shared.provisionPass(tagId: "TICKET-001", from: viewController)
/// ```
///
/// The flow checks that the SDK is configured and that Wallet can add passes, asks the server for signed issuer
/// data (off the main thread), then presents Wallet's sheet. Every failure is a ``ProvisioningError``.
public final class ProntoWallet: Sendable {
    /// The instance apps use.
    public static let shared = ProntoWallet()

    private let client = Protected<APIClient?>(nil)
    private let sessionConfiguration: @Sendable () -> URLSessionConfiguration

    /// Creates an instance of its own, for an app that talks to more than one server or key, or for tests.
    public convenience init() {
        self.init(sessionConfiguration: { .ephemeral })
    }

    /// Creates an instance whose requests go through sessions made from `sessionConfiguration`.
    init(sessionConfiguration: @escaping @Sendable () -> URLSessionConfiguration) {
        self.sessionConfiguration = sessionConfiguration
    }

    deinit {
        client.withLock { $0?.invalidate() }
    }

    /// Sets (or replaces) the API key, server and timeout; requests already in flight finish with the old ones.
    public func configure(with configuration: ProntoConfiguration) {
        let replacement = APIClient(configuration: configuration, sessionConfiguration: sessionConfiguration())
        let previous = client.withLock { current in
            defer { current = replacement }
            return current
        }
        previous?.invalidate()
    }

    /// The current configuration, or `nil` before ``configure(with:)``.
    public var configuration: ProntoConfiguration? {
        client.withLock { $0?.configuration }
    }

    /// Whether this device can add passes to Apple Wallet (`PKAddPassesViewController.canAddPasses()` on iOS 16.4
    /// and later; `false` where PassKit's sheet does not exist).
    @MainActor
    public var isWalletAvailable: Bool {
        PlatformWallet.canAddPasses
    }

    /// Asks the server for signed issuer data for a tag, without presenting anything.
    ///
    /// - Parameters:
    ///   - tagId: The tag's identifier.
    ///   - idAttribute: Which identifier `tagId` is; the reference ID by default.
    /// - Throws: ``ProvisioningError`` (``ProvisioningError/notConfigured`` before ``configure(with:)``), or
    ///   `CancellationError` when the task is cancelled.
    public func issuerData(for tagId: String, idAttribute: TagIdAttribute = .referenceId) async throws -> IssuerData {
        guard let client = client.withLock({ $0 }) else { throw ProvisioningError.notConfigured }
        return try await client.issuerData(tagId: tagId, idAttribute: idAttribute)
    }

    /// Adds a tag's pass to Apple Wallet through `presenter`: checks the configuration and that Wallet can add
    /// passes, fetches issuer data, and presents the sheet.
    ///
    /// - Returns: Whether the user added the pass or dismissed the sheet.
    /// - Throws: ``ProvisioningError``, or `CancellationError` when the task is cancelled (a presenter that honours
    ///   cancellation, like ``PassKitPresenter``, dismisses the sheet first).
    @MainActor
    public func provisionPass(
        tagId: String, idAttribute: TagIdAttribute = .referenceId, presenter: any PassPresenter
    ) async throws -> ProvisioningResult {
        switch try await provision(tagId: tagId, idAttribute: idAttribute, presenter: presenter, unlessInWallet: false)
        {
        case .added, .alreadyInWallet: return .added
        case .cancelled: return .cancelled
        }
    }

    /// How ``provision(tagId:idAttribute:presenter:unlessInWallet:)`` ended.
    enum Provisioning {
        /// The user added the pass of this issuer data.
        case added(IssuerData)
        /// The pass the issuer data names is in Wallet already, at this URL; the sheet was not shown.
        case alreadyInWallet(IssuerData, URL)
        /// The user dismissed the sheet.
        case cancelled
    }

    /// The flow behind every entry point: checks the configuration and that Wallet can add passes, fetches issuer
    /// data, and presents the sheet, unless `unlessInWallet` and the pass the server names is in Wallet already.
    @MainActor
    func provision(tagId: String, idAttribute: TagIdAttribute, presenter: any PassPresenter, unlessInWallet: Bool)
        async throws -> Provisioning
    {
        guard configuration != nil else { throw ProvisioningError.notConfigured }
        guard presenter.canAddPasses else { throw ProvisioningError.walletNotAvailable }
        let issuerData = try await self.issuerData(for: tagId, idAttribute: idAttribute)
        try Task.checkCancellation()
        if unlessInWallet, let pass = issuerData.pass, let url = presenter.walletURL(for: pass) {
            return .alreadyInWallet(issuerData, url)
        }
        do {
            switch try await presenter.addPass(with: issuerData) {
            case .added: return .added(issuerData)
            case .cancelled: return .cancelled
            }
        } catch let cancellation as CancellationError {
            throw cancellation
        } catch {
            throw ProvisioningError.passKitError(error)
        }
    }

    /// Adds a tag's pass to Apple Wallet through `presenter` and tells `delegate` how it ended, on the main actor.
    ///
    /// - Returns: The task running the flow; cancelling it before the sheet shows ends the flow with
    ///   ``ProvisioningDelegate/provisioningDidCancel()``.
    @MainActor
    @discardableResult
    public func provisionPass(
        tagId: String, idAttribute: TagIdAttribute = .referenceId, presenter: any PassPresenter,
        delegate: any ProvisioningDelegate
    ) -> Task<Void, Never> {
        Task { @MainActor [weak delegate] in
            do {
                switch try await provisionPass(tagId: tagId, idAttribute: idAttribute, presenter: presenter) {
                case .added: delegate?.provisioningDidComplete()
                case .cancelled: delegate?.provisioningDidCancel()
                }
            } catch let error as ProvisioningError {
                delegate?.provisioning(didFailWith: error)
            } catch {
                delegate?.provisioningDidCancel()
            }
        }
    }
}
