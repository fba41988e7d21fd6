#if canImport(LocalAuthentication)
    import LocalAuthentication
    import Secrets

    /// An ``Secrets/AuthenticationContext``'s `LAContext`: its reason, and whether it may prompt. Nothing else
    /// happens here.
    final class LiveAuthentication: AuthenticationSession, @unchecked Sendable {
        /// The context, configured once before it is shared; `LAContext` may then be used from any thread.
        let context: LAContext

        /// A new `LAContext` for `authentication`.
        init(_ authentication: AuthenticationContext) {
            let context = LAContext()
            context.localizedReason = authentication.reason
            context.interactionNotAllowed = authentication.interaction == .notAllowed
            self.context = context
        }

        /// `LAContext.invalidate()`: a prompt it shows is dismissed, and it never authenticates again.
        func invalidate() { context.invalidate() }
    }
#endif
