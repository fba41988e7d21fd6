import Foundation
import Testing

@testable import ProntoWalletSDK

/// A stand-in for UIKit and the pass library: records what the flow asks, and lets the test decide when the sheet
/// appears and disappears.
@MainActor
final class StandInSheetHost: AddPassSheetHost {
    enum Call: Equatable {
        case present
        case dismiss
    }

    /// Whether `presentSheet` starts a presentation (a view controller in a window) or refuses.
    var canPresent = true
    /// Whether the presentation and dismissal complete at once, or wait for the test.
    var completesAtOnce = true
    /// The passes the library shows.
    var passes: Set<String> = ["pass.example old-1"]
    private(set) var calls: [Call] = []
    private var pendingShown: (@MainActor () -> Void)?
    private var pendingDismissed: (@MainActor () -> Void)?

    func presentSheet(shown: @escaping @MainActor () -> Void) -> Bool {
        calls.append(.present)
        guard canPresent else { return false }
        if completesAtOnce { shown() } else { pendingShown = shown }
        return true
    }

    func dismissSheet(dismissed: @escaping @MainActor () -> Void) {
        calls.append(.dismiss)
        if completesAtOnce { dismissed() } else { pendingDismissed = dismissed }
    }

    func visiblePasses() -> Set<String> { passes }

    /// UIKit finishes the presentation animation.
    func completePresentation() {
        pendingShown?()
        pendingShown = nil
    }

    /// UIKit finishes the dismissal animation.
    func completeDismissal() {
        pendingDismissed?()
        pendingDismissed = nil
    }

    var isDismissalPending: Bool { pendingDismissed != nil }
}

/// Keeps a flow's outcome for the test to look at while the flow runs.
@MainActor
final class OutcomeBox {
    var outcome: Result<ProvisioningResult, any Error>?
}

@MainActor
@Suite("Add-pass sheet flow (PassKitPresenter's logic)")
struct AddPassSheetFlowTests {
    /// Lets the flow's task run until `condition` holds (bounded, so a broken flow fails instead of hanging).
    private func settle(_ condition: () -> Bool) async {
        for _ in 0..<1000 where !condition() { await Task.yield() }
    }

    private func start(_ flow: AddPassSheetFlow, on host: StandInSheetHost) -> (Task<Void, Never>, OutcomeBox) {
        let box = OutcomeBox()
        let task = Task { @MainActor in
            do { box.outcome = .success(try await flow.present(on: host)) } catch { box.outcome = .failure(error) }
        }
        return (task, box)
    }

    @Test("a pass reported while the sheet is up is added, and the result comes only after the sheet is gone")
    func addedAfterDismissal() async throws {
        let host = StandInSheetHost()
        host.completesAtOnce = false
        let flow = AddPassSheetFlow(gracePeriod: .seconds(30))
        let (task, box) = start(flow, on: host)
        await settle { host.calls == [.present] }
        host.completePresentation()
        flow.passLibraryDidChange(addedOrReplaced: true)
        flow.sheetDidFinish()
        await settle { host.isDismissalPending }
        #expect(host.calls == [.present, .dismiss])
        // The sheet is still on screen: the flow has not answered yet.
        #expect(box.outcome == nil)
        host.completeDismissal()
        await task.value
        #expect(try box.outcome?.get() == .added)
        #expect(!flow.isRunning)
    }

    @Test("the library's notification that arrives after the sheet finished still counts")
    func lateNotification() async throws {
        let host = StandInSheetHost()
        let flow = AddPassSheetFlow(gracePeriod: .seconds(30))
        let (task, box) = start(flow, on: host)
        await settle { host.calls == [.present] }
        flow.sheetDidFinish()
        await settle { host.calls == [.present, .dismiss] }
        #expect(box.outcome == nil)
        flow.passLibraryDidChange(addedOrReplaced: true)
        await task.value
        #expect(try box.outcome?.get() == .added)
    }

    @Test("without a notification, a pass the library did not show before counts as added")
    func addedByLibraryQuery() async throws {
        let host = StandInSheetHost()
        let flow = AddPassSheetFlow(gracePeriod: .milliseconds(20))
        let (task, box) = start(flow, on: host)
        await settle { host.calls == [.present] }
        host.passes.insert("pass.example new-2")
        flow.sheetDidFinish()
        await task.value
        #expect(try box.outcome?.get() == .added)
    }

    @Test("nothing added, or only a removal reported: cancelled")
    func cancelledByUser() async throws {
        let host = StandInSheetHost()
        let flow = AddPassSheetFlow(gracePeriod: .milliseconds(20))
        let (task, box) = start(flow, on: host)
        await settle { host.calls == [.present] }
        flow.passLibraryDidChange(addedOrReplaced: false)
        host.passes.remove("pass.example old-1")
        flow.sheetDidFinish()
        await task.value
        #expect(try box.outcome?.get() == .cancelled)
        #expect(host.calls == [.present, .dismiss])
    }

    @Test("a sheet that cannot be presented throws cannotPresent, and the next call presents normally")
    func presentationFailureDoesNotWedge() async throws {
        let host = StandInSheetHost()
        host.canPresent = false
        let flow = AddPassSheetFlow(gracePeriod: .zero)
        await #expect(throws: PassPresentationError.cannotPresent) { try await flow.present(on: host) }
        #expect(!flow.isRunning)

        host.canPresent = true
        let (task, box) = start(flow, on: host)
        await settle { host.calls.count == 2 }
        flow.sheetDidFinish()
        await task.value
        #expect(try box.outcome?.get() == .cancelled)
    }

    @Test("a second presentation while one is up is refused")
    func oneAtATime() async throws {
        let host = StandInSheetHost()
        let flow = AddPassSheetFlow(gracePeriod: .zero)
        let (task, box) = start(flow, on: host)
        await settle { host.calls == [.present] }
        await #expect(throws: PassPresentationError.cannotPresent) { try await flow.present(on: host) }
        flow.sheetDidFinish()
        await task.value
        #expect(try box.outcome?.get() == .cancelled)
    }

    @Test("cancelling the task dismisses the sheet and throws CancellationError")
    func cancellation() async throws {
        let host = StandInSheetHost()
        host.completesAtOnce = false
        let flow = AddPassSheetFlow(gracePeriod: .seconds(30))
        let (task, box) = start(flow, on: host)
        await settle { host.calls == [.present] }
        task.cancel()
        // Not dismissed before the presentation completed.
        for _ in 0..<20 { await Task.yield() }
        #expect(host.calls == [.present])
        host.completePresentation()
        await settle { host.isDismissalPending }
        #expect(host.calls == [.present, .dismiss])
        host.completeDismissal()
        await task.value
        #expect(throws: CancellationError.self) { try box.outcome?.get() }
        #expect(!flow.isRunning)
    }

    @Test("a task cancelled before the flow starts presents nothing")
    func cancelledBeforeStart() async throws {
        let host = StandInSheetHost()
        let flow = AddPassSheetFlow(gracePeriod: .zero)
        let task = Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await flow.present(on: host)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(host.calls.isEmpty)
    }
}

@MainActor
@Suite("Cancellation through ProntoWallet")
struct PresenterCancellationTests {
    @Test("a presenter's CancellationError reaches the caller as it is, not as a passKitError")
    func cancellationIsNotAPassKitError() async throws {
        let host = StubURLProtocol.host { _ in Answers.success() }
        await #expect(throws: CancellationError.self) {
            _ = try await ProntoWallet.stubbed(host: host).provisionPass(
                tagId: "t", presenter: ScriptedPresenter(behavior: .fail(CancellationError())))
        }
    }
}
