import Foundation
import Secrets

/// A clock that moves only when told to: tests advance it past a token's expiry or a backoff delay without
/// waiting.
public final class ManualAuthenticatorClock: AuthenticatorClock {
    private struct Sleeper {
        let id: UUID
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Duration = .zero
        var sleepers: [Sleeper] = []
    }

    private let state = Locked(State())

    /// A clock at zero.
    public init() {}

    /// The clock's time.
    public var now: Duration { state.withLock { $0.now } }

    /// How many sleeps are waiting for the clock to move.
    public var pendingSleeps: Int { state.withLock { $0.sleepers.count } }

    /// Moves the clock forward, waking every sleep whose deadline has come.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now += duration
            let due = state.sleepers.filter { $0.deadline <= state.now }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Waits until at least `count` sleeps are pending (checking every millisecond of real time).
    public func waitForSleeps(_ count: Int = 1) async {
        while pendingSleeps < count { try? await Task.sleep(for: .milliseconds(1)) }
    }

    /// Suspends until the clock reaches now + `duration`, or the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if Task.isCancelled || duration <= .zero { return true }
                    state.sleepers.append(Sleeper(id: id, deadline: state.now + duration, continuation: continuation))
                    return false
                }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }
}
