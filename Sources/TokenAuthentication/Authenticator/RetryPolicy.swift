import Foundation

/// How often, and how patiently, a token request is retried when the server fails (5xx, 429) or cannot be reached.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts in all, the first included (1: never retry).
    public var maximumAttempts: Int
    /// The wait before the first retry; each later one doubles it.
    public var initialDelay: Duration
    /// The longest wait between attempts.
    public var maximumDelay: Duration

    /// A policy; the default tries 4 times, waiting 0.5 s, 1 s and 2 s.
    public init(
        maximumAttempts: Int = 4, initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(8)
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait after failed attempt number `attempt` (1-based), or the server's `Retry-After` when it is longer
    /// (still capped at ``maximumDelay``).
    func delay(after attempt: Int, retryAfter: Duration? = nil) -> Duration {
        var delay = initialDelay
        for _ in 1..<max(1, attempt) where delay < maximumDelay { delay *= 2 }
        if let retryAfter, retryAfter > delay { delay = retryAfter }
        return min(delay, maximumDelay)
    }
}
