import Foundation

/// How reads of items that need the user (Face ID, Touch ID, the device passcode) may prompt: the reason the prompt
/// shows, how long one prompt serves the reads after it, and whether a read may prompt at all.
///
/// A read carries a context (``SecretsStore/read(_:authentication:)``), or a whole store does
/// (``SecretsConfiguration/authentication``). On Apple platforms the Keychain is asked through one `LAContext` per
/// context, so reads made with the same context after one successful prompt do not prompt again, until
/// ``reuseDuration`` has passed or ``invalidate()`` is called. A context whose ``interaction`` is
/// ``Interaction/notAllowed`` never prompts: an item that needs the user answers
/// ``SecretsError/authenticationRequired(item:)`` instead, which is what background work wants. Items that need no
/// user authentication ignore the context, and so do stores without such items (files, the Secret Service).
///
/// ```swift
/// let unlock = AuthenticationContext(reason: "Unlock your vault", reuseDuration: .seconds(60))
/// let token = try await store.read(APIToken.id, authentication: unlock)
/// let key = try await store.read(SigningKey.id, authentication: unlock)  // no second prompt
/// unlock.invalidate()  // the user locked the vault: the next read prompts
/// ```
///
/// Equal contexts are the same instance.
public final class AuthenticationContext: Hashable, Sendable, CustomStringConvertible {
    /// Whether a read may show the user a prompt.
    public enum Interaction: Hashable, Sendable {
        /// The read prompts when the item needs the user.
        case allowed
        /// The read never prompts: an item that needs the user is ``SecretsError/authenticationRequired(item:)``.
        case notAllowed
    }

    /// What the prompt tells the user the authentication is for (`LAContext.localizedReason`).
    public let reason: String
    /// How long one successful prompt serves this context's later reads; `nil`: until ``invalidate()``.
    public let reuseDuration: Duration?
    /// Whether a read may prompt.
    public let interaction: Interaction

    private let clock: any CofferClock
    private let state = Locked(State())

    private struct State {
        /// The platform's authentication (an `LAContext`), made on first use.
        var session: (any AuthenticationSession)?
        /// When the session's prompt succeeded.
        var authenticatedAt: Duration?
    }

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - reason: what the prompt says the authentication is for; shown to the user, so never a secret.
    ///   - reuseDuration: how long one successful prompt serves later reads (`nil`: until ``invalidate()``; zero:
    ///     every read that needs the user prompts).
    ///   - interaction: whether a read may prompt.
    ///   - clock: the clock the reuse window is measured on.
    public init(
        reason: String, reuseDuration: Duration? = nil, interaction: Interaction = .allowed,
        clock: any CofferClock = SystemClock()
    ) {
        self.reason = reason
        self.reuseDuration = reuseDuration.map { max($0, .zero) }
        self.interaction = interaction
        self.clock = clock
    }

    /// A context for work the user does not see (a background refresh, an extension): it never prompts.
    public static func background() -> AuthenticationContext {
        AuthenticationContext(reason: "", interaction: .notAllowed)
    }

    /// Ends the authentication this context holds (an `LAContext` is invalidated, and a prompt it shows dismissed):
    /// the next read that needs the user prompts again.
    public func invalidate() {
        let ended = state.withLock { state in
            defer { state = State() }
            return state.session
        }
        ended?.invalidate()
    }

    /// The platform's authentication for this context: the one it holds while it serves, else a new one from `make`
    /// (the first time, after ``invalidate()``, and once ``reuseDuration`` has passed since its prompt).
    package func session<Session: AuthenticationSession>(_ make: () -> Session) -> Session {
        let now = clock.uptime
        let (session, expired) = state.withLock { state -> (Session, (any AuthenticationSession)?) in
            var expired: (any AuthenticationSession)?
            if let at = state.authenticatedAt, let reuseDuration, now - at >= reuseDuration {
                expired = state.session
                state = State()
            }
            if let held = state.session as? Session { return (held, expired) }
            let made = make()
            state = State(session: made)
            return (made, expired)
        }
        expired?.invalidate()
        return session
    }

    /// Records that the context's session has authenticated the user (an access that needed the user went through
    /// it): the reuse window starts at its first success.
    package func noteAuthenticated() {
        let now = clock.uptime
        state.withLock { state in
            guard state.session != nil, state.authenticatedAt == nil else { return }
            state.authenticatedAt = now
        }
    }

    /// The context reads on this task use when they name none, set by ``withCurrent(_:_:)``.
    package static var current: AuthenticationContext? { taskContext.get() }

    /// The task-local behind ``current``, spelled out for the iOS 16 SDK as ``SecretsCaller``'s is.
    private static let taskContext = TaskLocal<AuthenticationContext?>(wrappedValue: nil)

    /// Runs `body` with `context` as ``current`` (`nil`: unchanged).
    package static func withCurrent<Result>(
        _ context: AuthenticationContext?, _ body: () async throws -> Result
    ) async rethrows -> Result {
        guard let context else { return try await body() }
        return try await taskContext.withValue(context, operation: body)
    }

    /// Runs `body` with `context` as ``current`` (`nil`: unchanged), for synchronous code.
    package static func withCurrent<Result>(_ context: AuthenticationContext?, _ body: () throws -> Result) rethrows
        -> Result
    {
        guard let context else { return try body() }
        return try taskContext.withValue(context, operation: body)
    }

    /// Whether two contexts are the same instance.
    public static func == (lhs: AuthenticationContext, rhs: AuthenticationContext) -> Bool { lhs === rhs }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The settings, without the reason (which an app may word from the user's data).
    public var description: String {
        let reuse = reuseDuration.map { "\($0)" } ?? "until invalidated"
        return "AuthenticationContext(reuseDuration: \(reuse), interaction: \(interaction))"
    }
}

/// What a platform keeps for one ``AuthenticationContext``'s authentication: an `LAContext` on Apple platforms, the
/// emulator's record of a prompt in tests.
package protocol AuthenticationSession: AnyObject, Sendable {
    /// Ends the authentication (dismissing a prompt it shows).
    func invalidate()
}
