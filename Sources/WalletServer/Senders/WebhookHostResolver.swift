import Foundation
import Secrets
import WalletServices

/// Looks up webhook endpoints' host names, each lookup on a thread of its own.
///
/// `getaddrinfo` cannot be cancelled, so an attempt whose deadline passes abandons its lookup and goes on. A name
/// server that never answers then holds only threads of its own client's lookups, and at most ``perClient`` of them,
/// abandoned ones included: another client's lookups never wait behind them.
package final class WebhookHostResolver: Sendable {
    /// The most unfinished lookups one client's endpoints may have.
    package let perClient: Int
    private let lookUp: @Sendable (String) throws -> [IPAddress]
    private let unfinished = Locked<[UUID: Int]>([:])

    /// Creates a resolver that runs `lookUp` (the system's resolver unless a test gives its own).
    package init(
        perClient: Int = DeliveryDispatcher.webhooksPerClient,
        lookUp: @escaping @Sendable (String) throws -> [IPAddress] = IPAddress.resolve
    ) {
        self.perClient = perClient
        self.lookUp = lookUp
    }

    /// The addresses `host` resolves to, for an endpoint of `client`.
    ///
    /// - Throws: ``Busy`` when the client already has ``perClient`` lookups unfinished, `CancellationError` when the
    ///   task is cancelled first (the lookup finishes on its thread, unheard), or the lookup's own error.
    package func addresses(of host: String, for client: UUID) async throws -> [IPAddress] {
        try Task.checkCancellation()
        let admitted = unfinished.withLock { counts in
            guard counts[client, default: 0] < perClient else { return false }
            counts[client, default: 0] += 1
            return true
        }
        guard admitted else { throw Busy() }
        let answer = Answer()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.wait(with: continuation)
                Thread { [lookUp, unfinished] in
                    let result = Result { try lookUp(host) }
                    unfinished.withLock { counts in
                        counts[client, default: 1] -= 1
                        if counts[client] == 0 { counts[client] = nil }
                    }
                    answer.resume(with: result)
                }.start()
            }
        } onCancel: {
            answer.resume(with: .failure(CancellationError()))
        }
    }

    /// The client's earlier lookups have not finished: its name server is slow or silent.
    package struct Busy: Error {}

    /// The one answer a lookup's caller gets: the first of the lookup's result and a cancellation.
    private final class Answer: Sendable {
        private struct State {
            var continuation: CheckedContinuation<[IPAddress], any Error>?
            var result: Result<[IPAddress], any Error>?
        }
        private let state = Locked(State())

        /// Waits with `continuation`, resumed at once when the answer is already known.
        func wait(with continuation: CheckedContinuation<[IPAddress], any Error>) {
            let known = state.withLock { state in
                if state.result == nil { state.continuation = continuation }
                return state.result
            }
            if let known { continuation.resume(with: known) }
        }

        /// Gives `result` as the answer, unless there is one already.
        func resume(with result: Result<[IPAddress], any Error>) {
            let waiting = state.withLock { state -> CheckedContinuation<[IPAddress], any Error>? in
                guard state.result == nil else { return nil }
                state.result = result
                defer { state.continuation = nil }
                return state.continuation
            }
            waiting?.resume(with: result)
        }
    }
}
