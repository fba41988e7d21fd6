import NIOCore

/// One deadline for a whole outbound call, the answer's body included: a client's own timeouts stop counting once
/// the headers arrive, so a peer that trickles its body would otherwise hold the caller for as long as it likes.
package struct OverallDeadline: Sendable {
    /// The time the call may take.
    package let duration: Duration

    /// The deadline `seconds` long.
    package init(seconds: Double) {
        duration = .milliseconds(Int64((max(0, seconds) * 1000).rounded()))
    }

    /// Runs `operation`, cancelling it when the deadline passes.
    ///
    /// - Throws: ``Passed`` when it did, or `operation`'s own error.
    package func run<Result: Sendable>(_ operation: @escaping @Sendable () async throws -> Result) async throws
        -> Result
    {
        let duration = duration
        return try await withThrowingTaskGroup(of: Result.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: duration)
                throw Passed()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw CancellationError() }
            return first
        }
    }

    /// The call did not finish in time.
    package struct Passed: Error, CustomStringConvertible {
        package var description: String { "the call did not finish within its deadline" }
    }
}

extension Duration {
    /// The duration as NIO's `TimeAmount`, for a client's own timeouts.
    package var timeAmount: TimeAmount {
        .nanoseconds(components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000)
    }
}
