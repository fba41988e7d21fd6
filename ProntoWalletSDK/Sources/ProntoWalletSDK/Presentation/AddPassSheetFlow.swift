import Foundation

/// Why the Wallet sheet could not be shown.
public enum PassPresentationError: Error, Sendable {
    /// The view controller to present from is gone, is not in a window, or is already presenting something; or
    /// another sheet of the same presenter is still up.
    case cannotPresent
}

/// What ``AddPassSheetFlow`` needs from the UI toolkit: the UIKit shim inside ``PassKitPresenter`` on iOS, a
/// stand-in in tests.
@MainActor
protocol AddPassSheetHost: AnyObject {
    /// Starts presenting the sheet and calls `shown` once it is on screen (the presentation's completion).
    ///
    /// - Returns: `false` when the sheet could not be presented (the presenting view controller is not in a window,
    ///   is presenting something else, or UIKit did not start the presentation); `shown` is then never called.
    func presentSheet(shown: @escaping @MainActor () -> Void) -> Bool
    /// Dismisses the sheet and calls `dismissed` once it is gone (at once when it is not up).
    func dismissSheet(dismissed: @escaping @MainActor () -> Void)
    /// The passes of the library this app can see, as `passTypeIdentifier serialNumber` strings.
    func visiblePasses() -> Set<String>
}

/// The add-pass flow's state machine, independent of UIKit: present, wait for the user to finish (or for the task to
/// be cancelled), dismiss and wait until the sheet is gone, then settle whether a pass was added.
///
/// A pass counts as added when the pass library reported an added or replaced pass, at any time until the result is
/// settled, or when the library shows a pass it did not have before the sheet. `PKPassLibraryDidChange` arrives on
/// an arbitrary queue, possibly after the sheet finished, and only for the pass types in the app's entitlement, so
/// after the sheet is gone the flow waits up to ``gracePeriod`` for it before it compares the library.
@MainActor
final class AddPassSheetFlow {
    /// How long to wait after the sheet is gone for the pass library to report the pass.
    let gracePeriod: Duration
    private var run: Run?

    /// A flow whose result waits `gracePeriod` at most for the pass library's notification.
    init(gracePeriod: Duration = .seconds(1)) {
        self.gracePeriod = gracePeriod
    }

    /// Whether a sheet of this flow is up (or being settled).
    var isRunning: Bool { run != nil }

    /// PassKit's delegate call: the user finished with the sheet.
    func sheetDidFinish() {
        run?.update { $0.finished = true }
    }

    /// The pass library changed; `addedOrReplaced` when it added or replaced at least one pass.
    func passLibraryDidChange(addedOrReplaced: Bool) {
        guard addedOrReplaced else { return }
        run?.update { $0.libraryReportedAdd = true }
    }

    /// Presents the sheet through `host` and returns how it ended, once the sheet is gone.
    ///
    /// - Throws: ``PassPresentationError/cannotPresent`` when the sheet cannot be shown (nothing is left pending:
    ///   the next call starts afresh); `CancellationError` when the task is cancelled, after the sheet is dismissed.
    func present(on host: any AddPassSheetHost) async throws -> ProvisioningResult {
        guard run == nil else { throw PassPresentationError.cannotPresent }
        try Task.checkCancellation()
        let run = Run()
        self.run = run
        defer { self.run = nil }
        let before = host.visiblePasses()
        guard host.presentSheet(shown: { run.update { $0.shown = true } }) else {
            throw PassPresentationError.cannotPresent
        }
        await withTaskCancellationHandler {
            // Cancelled before the sheet is on screen: let the presentation complete before dismissing it.
            await run.wait { $0.finished || ($0.cancelled && $0.shown) }
        } onCancel: {
            Task { @MainActor in run.update { $0.cancelled = true } }
        }
        host.dismissSheet { run.update { $0.dismissed = true } }
        await run.wait { $0.dismissed }
        if run.state.cancelled || Task.isCancelled { throw CancellationError() }
        if !run.state.libraryReportedAdd && gracePeriod > .zero {
            let gracePeriod = gracePeriod
            let timer = Task { @MainActor in
                try? await Task.sleep(for: gracePeriod)
                run.update { $0.graceOver = true }
            }
            // Cancelled now, the sheet is gone: stop waiting and report what the library shows.
            await withTaskCancellationHandler {
                await run.wait { $0.libraryReportedAdd || $0.graceOver || $0.cancelled }
            } onCancel: {
                Task { @MainActor in run.update { $0.cancelled = true } }
            }
            timer.cancel()
        }
        if run.state.libraryReportedAdd { return .added }
        return host.visiblePasses().isSubset(of: before) ? .cancelled : .added
    }

    /// One presentation: its state, and the one task waiting for it to change.
    @MainActor
    private final class Run {
        struct State {
            var shown = false
            var finished = false
            var dismissed = false
            var cancelled = false
            var libraryReportedAdd = false
            var graceOver = false
        }

        private(set) var state = State()
        private var waiter: CheckedContinuation<Void, Never>?

        func update(_ change: (inout State) -> Void) {
            change(&state)
            let waiter = waiter
            self.waiter = nil
            waiter?.resume()
        }

        func wait(until condition: (State) -> Bool) async {
            while !condition(state) {
                await withCheckedContinuation { waiter = $0 }
            }
        }
    }
}
