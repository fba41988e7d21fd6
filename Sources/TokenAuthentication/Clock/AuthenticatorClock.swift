import Foundation

/// The time the authenticator reads token lifetimes against and sleeps on (for backoff and for clearing
/// tokens): ``SystemAuthenticatorClock`` in use, ``ManualAuthenticatorClock`` in tests, which never sleep for real.
public protocol AuthenticatorClock: Sendable {
    /// Monotonic time since an arbitrary start.
    var now: Duration { get }
    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled first.
    func sleep(for duration: Duration) async throws
}

/// The system's monotonic clock (`ContinuousClock`: it keeps counting while the device sleeps).
public struct SystemAuthenticatorClock: AuthenticatorClock {
    private let start = ContinuousClock.now

    /// The clock.
    public init() {}

    /// Time since the clock was made.
    public var now: Duration { start.duration(to: .now) }

    /// Sleeps on the continuous clock until `duration` from now.
    public func sleep(for duration: Duration) async throws {
        // `sleep(until:)` rather than `Task.sleep(for:clock:)`: the same call, and it exists in every SDK since
        // iOS 16 (the other one is Swift 5.9's, which the typecheck's iOS 16.5 SDK lacks).
        let clock = ContinuousClock()
        try await clock.sleep(until: clock.now.advanced(by: duration))
    }
}
