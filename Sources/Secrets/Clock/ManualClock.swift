import Foundation

/// A clock that moves only when told to: tests advance it past a token's expiry, a backoff delay or a rate limit's
/// window without waiting, or set its date.
public final class ManualClock: CofferClock {
    private struct Sleeper {
        let id: UUID
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var uptime: Duration = .zero
        var start: Date
        var sleepers: [Sleeper] = []
    }

    private let state: Locked<State>

    /// A clock at zero uptime, showing `start`.
    public init(_ start: Date = Date()) {
        state = Locked(State(start: start))
    }

    /// The clock's date: its start, plus how far it has moved.
    public var now: Date { state.withLock { $0.start.addingTimeInterval(Self.seconds($0.uptime)) } }

    /// How far the clock has moved since it was made.
    public var uptime: Duration { state.withLock { $0.uptime } }

    /// Sets the clock's date, without moving its uptime or waking a sleep.
    public func set(_ date: Date) {
        state.withLock { $0.start = date.addingTimeInterval(-Self.seconds($0.uptime)) }
    }

    /// Moves the clock `seconds` on.
    public func advance(by seconds: TimeInterval) {
        advance(by: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// How many sleeps are waiting for the clock to move.
    public var pendingSleeps: Int { state.withLock { $0.sleepers.count } }

    /// Moves the clock forward, waking every sleep whose deadline has come.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.uptime += duration
            let due = state.sleepers.filter { $0.deadline <= state.uptime }
            state.sleepers.removeAll { $0.deadline <= state.uptime }
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
                    state.sleepers.append(
                        Sleeper(id: id, deadline: state.uptime + duration, continuation: continuation))
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

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
