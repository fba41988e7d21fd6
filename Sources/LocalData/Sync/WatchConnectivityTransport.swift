#if canImport(WatchConnectivity)
    import Foundation
    import WatchConnectivity

    /// Sends values with `WCSession.updateApplicationContext(_:)`. The app owns the session: it sets the
    /// delegate, activates it, and applies what the counterpart receives.
    public final class WatchConnectivityTransport: SyncTransport, @unchecked Sendable {
        // Safety: `session` is never reassigned, and WCSession's methods and properties may be used from any
        // thread (Apple's documentation: its delegate callbacks arrive on a background queue for this reason).
        private let session: WCSession

        /// A transport over `session` (the default session unless given).
        public init(session: WCSession = .default) {
            self.session = session
        }

        /// Whether the session is supported and activated (and, on iOS, a paired watch has the app).
        public var isReachable: Bool {
            guard WCSession.isSupported(), session.activationState == .activated else { return false }
            #if os(iOS)
                return session.isPaired && session.isWatchAppInstalled
            #else
                return true
            #endif
        }

        /// Replaces the counterpart's application context.
        public func updateApplicationContext(_ context: [String: Data]) async throws {
            try session.updateApplicationContext(context)
        }
    }
#endif
