import Foundation
import Testing

@testable import ProntoWalletSDK

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The Wallet pass button: add while the pass is not in Wallet, view it once it is, and say why not")
@MainActor
struct WalletPassButtonTests {
    static let pass = WalletPassIdentity(passTypeIdentifier: "pass.dev.coffer.server", serialNumber: "PASS-001")
    static let walletURL = URL(string: "shoebox://card/PASS-001")!

    /// A model for tag T-1 against a stub server that names `named` as the tag's pass (or answers `answer`).
    static func model(
        presenter: ScriptedPresenter, pass: WalletPassIdentity? = nil, named: WalletPassIdentity? = Self.pass,
        answer: StubURLProtocol.Answer? = nil, delegate: RecordingDelegate? = nil
    ) -> (WalletPassButtonModel, host: String) {
        let host = StubURLProtocol.host { _ in answer ?? Answers.success(tagId: "T-1", pass: named) }
        let model = WalletPassButtonModel(
            wallet: ProntoWallet.stubbed(host: host), tagId: "T-1", idAttribute: .referenceId, pass: pass,
            presenter: presenter, delegate: delegate)
        return (model, host)
    }

    @Test("a device that can add, without the pass, offers to add it")
    func canAdd() {
        let (model, host) = Self.model(presenter: ScriptedPresenter())
        guard case .canAdd = model.state else { Issue.record("\(model.state)"); return }
        #expect(StubURLProtocol.requests(to: host).isEmpty, "nothing is fetched to decide")
    }

    @Test("adding shows progress, then the pass just added, with the URL that opens it in Wallet")
    func adding() async throws {
        let presenter = ScriptedPresenter(behavior: .waitForUser)
        let delegate = RecordingDelegate()
        let (model, _) = Self.model(presenter: presenter, delegate: delegate)
        var seen: [String] = []
        model.onChange = { seen.append("\($0)") }
        let attempt = try #require(model.add())
        guard case .adding = model.state else { Issue.record("\(model.state)"); return }
        #expect(model.add() == nil, "a second tap while adding starts nothing")
        while !presenter.isWaiting { await Task.yield() }
        presenter.finish(with: .add)
        await attempt.value
        guard case .added(let url) = model.state else { Issue.record("\(model.state)"); return }
        #expect(url == Self.walletURL)
        #expect(seen.count == 2, "adding, then added: \(seen)")
        guard case .completed = delegate.events.first else { Issue.record("\(delegate.events)"); return }
        model.refresh()
        guard case .added = model.state else { Issue.record("refresh keeps it added: \(model.state)"); return }
    }

    @Test("a pass the app names that is in Wallet shows as such at once, without a request")
    func alreadyInWalletFromTheStart() {
        let presenter = ScriptedPresenter()
        presenter.library[Self.pass] = Self.walletURL
        let (model, host) = Self.model(presenter: presenter, pass: Self.pass)
        guard case .alreadyInWallet(let url) = model.state else { Issue.record("\(model.state)"); return }
        #expect(url == Self.walletURL)
        #expect(model.add() == nil, "it is not added again")
        #expect(StubURLProtocol.requests(to: host).isEmpty)
    }

    @Test("when the server names a pass Wallet already has, the sheet is not shown and it opens in Wallet")
    func alreadyInWalletNamedByTheServer() async throws {
        let presenter = ScriptedPresenter()
        presenter.library[Self.pass] = Self.walletURL
        let delegate = RecordingDelegate()
        let (model, _) = Self.model(presenter: presenter, delegate: delegate)
        guard case .canAdd = model.state else { Issue.record("the app did not name it: \(model.state)"); return }
        await model.add()?.value
        guard case .alreadyInWallet(let url) = model.state else { Issue.record("\(model.state)"); return }
        #expect(url == Self.walletURL)
        #expect(presenter.presented.isEmpty)
        guard case .completed = delegate.events.first else { Issue.record("\(delegate.events)"); return }
    }

    @Test("a pass removed from Wallet can be added again once the button looks again")
    func removedFromWallet() {
        let presenter = ScriptedPresenter()
        presenter.library[Self.pass] = Self.walletURL
        let (model, _) = Self.model(presenter: presenter, pass: Self.pass)
        presenter.library = [:]
        model.refresh()
        guard case .canAdd = model.state else { Issue.record("\(model.state)"); return }
    }

    @Test(
        "a device that cannot add passes, or cannot present NFC passes, cannot add it and says why",
        arguments: [(false, true, WalletUnavailability.cannotAddPasses), (true, false, .noNFC)])
    func unavailable(canAddPasses: Bool, nfc: Bool, reason: WalletUnavailability) {
        let (model, _) = Self.model(
            presenter: ScriptedPresenter(canAddPasses: canAddPasses, canPresentNFCPasses: nfc))
        guard case .unavailable(let why) = model.state else { Issue.record("\(model.state)"); return }
        #expect(why == reason)
        #expect(model.add() == nil)
    }

    @Test("a pass in Wallet can be viewed even where it could not be added")
    func viewableWhereNotAddable() {
        let presenter = ScriptedPresenter(canAddPasses: false, canPresentNFCPasses: false)
        presenter.library[Self.pass] = Self.walletURL
        let (model, _) = Self.model(presenter: presenter, pass: Self.pass)
        guard case .alreadyInWallet = model.state else { Issue.record("\(model.state)"); return }
    }

    @Test("a failure is the SDK's typed error, the delegate hears it, and the button offers to try again")
    func failedThenRetried() async throws {
        let presenter = ScriptedPresenter()
        let delegate = RecordingDelegate()
        let (failing, _) = Self.model(
            presenter: presenter, answer: Answers.json(404, #"{"error":{"message":"no pass"}}"#), delegate: delegate)
        await failing.add()?.value
        guard case .failed(.notFound) = failing.state else { Issue.record("\(failing.state)"); return }
        guard case .failed(.notFound) = delegate.events.first else { Issue.record("\(delegate.events)"); return }
        #expect(presenter.presented.isEmpty)

        let (model, _) = Self.model(presenter: ScriptedPresenter(behavior: .fail(PassKitRefusal())))
        await model.add()?.value
        guard case .failed(.passKitError) = model.state else { Issue.record("\(model.state)"); return }
        #expect(model.add() != nil, "a failed attempt can be retried")
    }

    @Test("dismissing the sheet, or cancelling the attempt, offers to add again and tells the delegate")
    func dismissedOrCancelled() async throws {
        let delegate = RecordingDelegate()
        let (dismissed, _) = Self.model(presenter: ScriptedPresenter(behavior: .dismiss), delegate: delegate)
        await dismissed.add()?.value
        guard case .canAdd = dismissed.state else { Issue.record("\(dismissed.state)"); return }

        let presenter = ScriptedPresenter(behavior: .waitForUser)
        let (cancelled, _) = Self.model(presenter: presenter, delegate: delegate)
        let attempt = try #require(cancelled.add())
        while !presenter.isWaiting { await Task.yield() }
        cancelled.cancel()
        await attempt.value
        guard case .canAdd = cancelled.state else { Issue.record("\(cancelled.state)"); return }
        #expect(presenter.library.isEmpty)
        #expect(delegate.events.count == 2)
        #expect(delegate.events.allSatisfy { if case .cancelled = $0 { true } else { false } })
    }

    @Test("without a pass named by the server or the app, an added pass shows as added without a link")
    func addedWithoutIdentity() async throws {
        let (model, _) = Self.model(presenter: ScriptedPresenter(), named: nil)
        await model.add()?.value
        guard case .added(nil) = model.state else { Issue.record("\(model.state)"); return }
        model.refresh()
        guard case .added(nil) = model.state else { Issue.record("it stays added: \(model.state)"); return }
    }
}
