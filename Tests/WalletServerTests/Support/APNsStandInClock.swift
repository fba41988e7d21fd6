import Foundation
import NIOConcurrencyHelpers

/// A clock the APNs and push tests set and move by hand, read through ``read()`` (a `now` closure).
final class SettableClock: Sendable {
    private let box: NIOLockedValueBox<Date>

    /// A clock showing `start`.
    init(_ start: Date) { box = NIOLockedValueBox(start) }

    /// The time now.
    @Sendable func read() -> Date { box.withLockedValue { $0 } }
    /// Moves the clock `seconds` on (or back, when negative).
    func advance(by seconds: TimeInterval) { box.withLockedValue { $0.addTimeInterval(seconds) } }
    /// Sets the clock.
    func set(_ date: Date) { box.withLockedValue { $0 = date } }
}
