import Dispatch
import Foundation
@_spi(Testing) import Secrets

/// A real backend behind a gate: a save to a gated account stops until the test opens the gate, and every
/// completed write is logged in the order the real backend finished it. Not a fake: every call reaches `base`.
final class GatedBackend: SecretsBackend {
    /// A write the real backend completed.
    enum Write: Hashable, Sendable {
        case save(account: String, data: Data)
        case delete(account: String, existed: Bool)

        var account: String {
            switch self {
            case .save(let account, _), .delete(let account, _): account
            }
        }
    }

    /// Holds one save until ``open()``, or until a 30-second safety valve gives way, so that a store that wrongly
    /// waits for the gated save makes its test fail (``timedOut``) instead of hang.
    final class Gate: Sendable {
        private let entered: AsyncStream<Void>
        fileprivate let enteredContinuation: AsyncStream<Void>.Continuation
        private let semaphore = DispatchSemaphore(value: 0)
        private let gaveWay = Locked(false)

        init() {
            (entered, enteredContinuation) = AsyncStream<Void>.makeStream()
        }

        /// Returns once the gated save has reached the gate (and is blocked there).
        func waitUntilEntered() async {
            for await _ in entered { return }
        }

        /// Lets the gated save through.
        func open() { semaphore.signal() }

        /// Whether the safety valve let the save through before the test opened the gate.
        var timedOut: Bool { gaveWay.withLock { $0 } }

        fileprivate func hold() {
            if semaphore.wait(timeout: .now() + .seconds(30)) == .timedOut {
                gaveWay.withLock { $0 = true }
            }
        }
    }

    private struct State {
        var gates: [String: Gate] = [:]
        var log: [Write] = []
    }

    let base: any SecretsBackend
    private let state = Locked(State())

    init(_ base: any SecretsBackend) {
        self.base = base
    }

    /// Gates the next save to `account`.
    func gate(_ account: String) -> Gate {
        let gate = Gate()
        state.withLock { $0.gates[account] = gate }
        return gate
    }

    /// The completed writes, in completion order.
    var log: [Write] { state.withLock { $0.log } }

    func save<Value>(_ data: Data, for query: SecretQuery<Value>) throws {
        if let gate = state.withLock({ $0.gates.removeValue(forKey: query.account) }) {
            gate.enteredContinuation.yield()
            gate.hold()
        }
        try base.save(data, for: query)
        state.withLock { $0.log.append(.save(account: query.account, data: data)) }
    }

    func read<Value>(_ query: SecretQuery<Value>) throws -> Data? {
        try base.read(query)
    }

    func delete<Value>(_ query: SecretQuery<Value>) throws -> Bool {
        let existed = try base.delete(query)
        state.withLock { $0.log.append(.delete(account: query.account, existed: existed)) }
        return existed
    }

    func listAccounts(service: String, accessGroup: String?) throws -> [String] {
        try base.listAccounts(service: service, accessGroup: accessGroup)
    }
}
