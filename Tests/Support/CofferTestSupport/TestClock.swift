import Foundation

/// A wall clock tests set and move by hand, readable from any thread: hand ``read()`` (or `{ clock.now }`) to code
/// that takes a `now` closure.
public final class TestClock: @unchecked Sendable {
    // Safety: `current` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var current: Date

    /// A clock showing `start`.
    public init(_ start: Date = Date()) { current = start }

    /// The time now.
    public var now: Date { lock.withLock { current } }
    /// The time now, as a `now` closure.
    @Sendable public func read() -> Date { now }
    /// Moves the clock `seconds` on (or back, when negative).
    public func advance(by seconds: TimeInterval) { lock.withLock { current += seconds } }
    /// Sets the clock.
    public func set(_ date: Date) { lock.withLock { current = date } }
}
