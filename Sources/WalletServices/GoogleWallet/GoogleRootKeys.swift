import Crypto
import Foundation
import Secrets
import WalletGoogle

/// Google's root keys for callbacks, fetched from ``GoogleWalletConfiguration/callbackKeysURL`` and kept for an
/// hour; fetched again sooner only when a callback does not verify under them (Google rotated its keys), and then at
/// most every five minutes, so that forged callbacks cannot make the server fetch without end.
package actor GoogleRootKeys {
    /// How long fetched keys are used.
    static let lifetime: TimeInterval = 3600
    /// The least time between two fetches.
    static let minimumInterval: TimeInterval = 300

    private let fetch: @Sendable () async throws -> Data
    private let clock: any CofferClock
    private var keys: [P256.Signing.PublicKey] = []
    private var fetchedAt: Date?
    private var pending: Task<[P256.Signing.PublicKey], any Error>?

    /// Keys read through `fetch` (the body of Google's keys document), dated by `clock`.
    package init(clock: any CofferClock = SystemClock(), fetch: @escaping @Sendable () async throws -> Data) {
        self.fetch = fetch
        self.clock = clock
    }

    /// The keys: those kept, unless they are older than ``lifetime`` or `refresh` asks for new ones (and the last
    /// fetch is at least ``minimumInterval`` old).
    ///
    /// - Throws: the fetch's error, or `GoogleWalletCallback.Failure` when the document holds no usable key; the
    ///   keys kept stay in use.
    package func current(refresh: Bool = false) async throws -> [P256.Signing.PublicKey] {
        let now = clock.now
        if let fetchedAt, !keys.isEmpty {
            let age = now.timeIntervalSince(fetchedAt)
            if age < Self.lifetime, !refresh || age < Self.minimumInterval { return keys }
        }
        if let fetchedAt, keys.isEmpty, now.timeIntervalSince(fetchedAt) < Self.minimumInterval { return keys }
        if let pending { return try await pending.value }
        let (fetch, clock) = (fetch, clock)
        let task = Task { try GoogleWalletCallback.rootKeys(json: try await fetch(), now: clock.now) }
        pending = task
        defer { pending = nil }
        fetchedAt = now
        keys = try await task.value
        return keys
    }
}
