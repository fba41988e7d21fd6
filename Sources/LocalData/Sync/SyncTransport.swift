import Foundation

/// What carries values to the paired watch: WatchConnectivity's application context on Apple platforms
/// (``WatchConnectivityTransport``), an ``InMemorySyncTransport`` in tests and on other platforms.
///
/// An application context replaces the previous one, so each call carries every synced value, keyed by key name.
public protocol SyncTransport: Sendable {
    /// Whether a counterpart can receive values now (a paired watch with the app installed, an activated
    /// session).
    var isReachable: Bool { get async }
    /// Replaces the counterpart's application context with `context`.
    func updateApplicationContext(_ context: [String: Data]) async throws
}

/// A transport that keeps what it is sent: for tests, previews and platforms without a watch.
public actor InMemorySyncTransport: SyncTransport {
    /// Every context sent, oldest first.
    public private(set) var sentContexts: [[String: Data]] = []
    /// Whether a counterpart is reachable; tests turn it off to check that nothing is sent.
    public var isReachable: Bool
    private var failure: (any Error)?

    /// A transport that is reachable unless told otherwise.
    public init(isReachable: Bool = true) {
        self.isReachable = isReachable
    }

    /// The last context sent: what the counterpart now has.
    public var currentContext: [String: Data]? { sentContexts.last }

    /// Makes the counterpart reachable or not.
    public func setReachable(_ reachable: Bool) {
        isReachable = reachable
    }

    /// Makes the next sends fail with `error` (`nil`: succeed again).
    public func failSends(with error: (any Error)?) {
        failure = error
    }

    /// Records `context`, or throws the error set by ``failSends(with:)``.
    public func updateApplicationContext(_ context: [String: Data]) async throws {
        if let failure { throw failure }
        sentContexts.append(context)
    }
}
