#if canImport(WatchConnectivity)
    import Foundation
    import WatchConnectivity

    /// Sends values with `WCSession.updateApplicationContext(_:)`. The app owns the session: it sets the
    /// delegate, activates it, and applies what the counterpart receives.
    ///
    /// It touches `WCSession.default` only where `WCSession.isSupported()` (an iPhone or a watch; not an iPad, a Mac
    /// Catalyst app or a Vision Pro), and decides reachability with ``WatchSessionState`` for this platform's side.
    public final class WatchConnectivityTransport: SyncTransport, @unchecked Sendable {
        // Safety: `session` is never reassigned, and WCSession's methods and properties may be used from any
        // thread (Apple's documentation: its delegate callbacks arrive on a background queue for this reason).
        private let session: WCSession?

        /// A transport over `session` (the default session unless given); none where WatchConnectivity is not
        /// supported.
        public init(session: WCSession? = nil) {
            self.session = WCSession.isSupported() ? (session ?? .default) : nil
        }

        /// The session as ``WatchSessionState`` sees it.
        public var state: WatchSessionState {
            #if os(watchOS)
                let side = WatchSessionState.Side.watch
            #else
                let side = WatchSessionState.Side.phone
            #endif
            guard let session else { return .unsupported(side: side) }
            let activated = session.activationState == .activated
            #if os(watchOS)
                return WatchSessionState(
                    side: side, isSupported: true, isActivated: activated, isPaired: true,
                    isCounterpartAppInstalled: session.isCompanionAppInstalled)
            #else
                return WatchSessionState(
                    side: side, isSupported: true, isActivated: activated, isPaired: session.isPaired,
                    isCounterpartAppInstalled: session.isWatchAppInstalled)
            #endif
        }

        /// Whether the counterpart can receive a context now (``WatchSessionState/isReachable``).
        public var isReachable: Bool { state.isReachable }

        /// Replaces the counterpart's application context.
        ///
        /// - Throws: ``WatchUnreachableError`` where WatchConnectivity is not supported; WatchConnectivity's error
        ///   otherwise.
        public func updateApplicationContext(_ context: [String: Data]) async throws {
            guard let session else { throw WatchUnreachableError(state.unreachableReason ?? "no session") }
            try session.updateApplicationContext(context)
        }
    }
#endif
