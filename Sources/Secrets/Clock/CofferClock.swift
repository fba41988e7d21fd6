import Foundation

/// The time Coffer's components read and sleep on, injected so that tests move it by hand: ``SystemClock`` in use,
/// ``ManualClock`` in tests, which never sleeps for real.
public protocol CofferClock: Sendable {
    /// The wall-clock time, for what is stored or shown (an expiry date, a timestamp).
    var now: Date { get }
    /// Monotonic time since an arbitrary start, for intervals (a token's lifetime, a rate limit's window).
    var uptime: Duration { get }
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled first.
    func sleep(for duration: Duration) async throws
}

/// The system's clocks: `Date` for the wall-clock time, `ContinuousClock` (which keeps counting while the device
/// sleeps) for intervals and sleeps.
public struct SystemClock: CofferClock {
    private let start = ContinuousClock.now

    /// The clock.
    public init() {}

    /// The time now.
    public var now: Date { Date() }

    /// Time since the clock was made.
    public var uptime: Duration { start.duration(to: .now) }

    /// Sleeps on the continuous clock until `duration` from now.
    public func sleep(for duration: Duration) async throws {
        // `sleep(until:)` rather than `Task.sleep(for:clock:)`: the same call, and it exists in every SDK since
        // iOS 16 (the other one is Swift 5.9's, which the typecheck's iOS 16.5 SDK lacks).
        let clock = ContinuousClock()
        try await clock.sleep(until: clock.now.advanced(by: duration))
    }
}
