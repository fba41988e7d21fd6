import Foundation

/// What WatchConnectivity reports about the session, and whether a counterpart can receive an application context:
/// the decision ``WatchConnectivityTransport`` makes, independent of WatchConnectivity so that it is tested
/// everywhere.
///
/// The checks differ by side. On a phone (iPhone; an iPad, Mac Catalyst app or Vision Pro answer
/// `WCSession.isSupported() == false`, and `WCSession.default` must not be touched there) the session must be
/// activated, a watch paired (`isPaired`) and the watch app installed (`isWatchAppInstalled`). On a watch, the session
/// must be activated and the iPhone app installed (`isCompanionAppInstalled`; always true for a watch app that
/// depends on its iPhone app).
public struct WatchSessionState: Hashable, Sendable {
    /// Which end of the pair this code runs on.
    public enum Side: Hashable, Sendable {
        /// iOS, iPadOS, Mac Catalyst, visionOS: the counterpart is a watch.
        case phone
        /// watchOS: the counterpart is the iPhone.
        case watch
    }

    /// This end.
    public var side: Side
    /// `WCSession.isSupported()`.
    public var isSupported: Bool
    /// `activationState == .activated`.
    public var isActivated: Bool
    /// `isPaired` (phone side; `true` on a watch).
    public var isPaired: Bool
    /// `isWatchAppInstalled` on a phone, `isCompanionAppInstalled` on a watch.
    public var isCounterpartAppInstalled: Bool

    /// A snapshot of the session.
    public init(side: Side, isSupported: Bool, isActivated: Bool, isPaired: Bool, isCounterpartAppInstalled: Bool) {
        self.side = side
        self.isSupported = isSupported
        self.isActivated = isActivated
        self.isPaired = isPaired
        self.isCounterpartAppInstalled = isCounterpartAppInstalled
    }

    /// A device where WatchConnectivity is not supported.
    public static func unsupported(side: Side) -> WatchSessionState {
        WatchSessionState(
            side: side, isSupported: false, isActivated: false, isPaired: false, isCounterpartAppInstalled: false)
    }

    /// Why no counterpart can receive a context now, or `nil` when one can.
    public var unreachableReason: String? {
        guard isSupported else {
            return "WatchConnectivity is not supported on this device (an iPad, Mac or Vision Pro has no paired watch)"
        }
        guard isActivated else { return "the WatchConnectivity session is not activated: activate it first" }
        switch side {
        case .phone:
            guard isPaired else { return "no Apple Watch is paired with this iPhone" }
            guard isCounterpartAppInstalled else { return "the watch app is not installed on the paired Apple Watch" }
        case .watch:
            guard isCounterpartAppInstalled else { return "the iPhone app is not installed on the paired iPhone" }
        }
        return nil
    }

    /// Whether a counterpart can receive a context now.
    public var isReachable: Bool { unreachableReason == nil }
}

/// Why ``WatchConnectivityTransport`` did not send.
public struct WatchUnreachableError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is missing.
    public let description: String

    /// Creates the error.
    public init(_ description: String) { self.description = description }
}
