/// The label of the code whose accesses a store is serving (`"background-refresh"`, `"checkout"`…), carried with
/// each access onto the thread that runs it, for a store that records who accessed what (the `SecretsAudit`
/// module's `SecretsAudit.withCaller(_:_:)` sets it).
package enum SecretsCaller {
    /// The label set for the current task or thread, or `nil`.
    package static var current: String? { label.get() }

    /// The task-local behind ``current``, spelled out rather than through `@TaskLocal` so that it also typechecks
    /// against the iOS 16 SDK's concurrency library, whose property wrapper Swift 6 reads as mutable global state.
    private static let label = TaskLocal<String?>(wrappedValue: nil)

    /// Runs `body` with the label `caller` (`nil`: none).
    package static func with<Result>(_ caller: String?, _ body: () async throws -> Result) async rethrows -> Result {
        try await label.withValue(caller, operation: body)
    }

    /// Runs `body` with the label `caller` (`nil`: none), for synchronous code.
    package static func with<Result>(_ caller: String?, _ body: () throws -> Result) rethrows -> Result {
        try label.withValue(caller, operation: body)
    }
}
