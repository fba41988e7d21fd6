import Foundation

/// A peer's `Retry-After` header, as the outbox's senders read it.
enum RetryAfter {
    /// The seconds `header` asks to wait (its delta-seconds form), at most a day; `nil` when absent or not a
    /// non-negative number.
    static func seconds(_ header: String?) -> TimeInterval? {
        guard let header, let seconds = TimeInterval(header.trimmingCharacters(in: .whitespaces)), seconds.isFinite,
            seconds >= 0
        else { return nil }
        return min(seconds, 86_400)
    }
}
