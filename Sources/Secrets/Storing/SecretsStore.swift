import Dispatch
import Foundation

/// An `async` front door to a ``SecretsDataStoring`` that many tasks can share: one write at a time per item,
/// reads that never wait behind a write, and a stream of ``SecretsStoreChange``s.
///
/// - Writes (saves and deletes) to the same account run one at a time, in the order they reach the store;
///   writes to different accounts overlap.
/// - Reads and ``listAccounts()`` take no lock: a read of one item while another is being written returns as soon
///   as the backend answers. A read that starts after a write to the same item has returned sees that write.
/// - Every backend call (which may touch the disk or D-Bus, and block) runs on a thread of its own from
///   Dispatch's overcommitting pool, never on the Swift cooperative pool, so a slow backend cannot starve other
///   tasks and a blocked write cannot hold up a read.
/// - ``changes()`` tells subscribers which accounts changed and how, never the values.
///
/// Over an audited store (the `SecretsAudit` module), every access is recorded with the caller label set in the
/// calling task, which follows the call onto the thread that runs it.
///
/// Errors are ``SecretsError``s, exactly as the underlying store threw them. Operations are not cancellable: a
/// write that has started completes, so a cancelled caller cannot leave an item half-written.
///
/// ```swift
/// let store = SecretsStore(backend: try EncryptedFileBackend(directory: url, key: .passphrase(passphrase)))
/// try await store.save(OpenAIKey(value: key))
/// for await change in store.changes() { print(change) }  // "saved 'ai/openai'"
/// ```
public actor SecretsStore {
    /// The store every operation ends in.
    public nonisolated let base: any SecretsDataStoring

    /// Per account that is being written, the writers waiting for it, in arrival order.
    private var waitingWriters: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// The live subscribers of ``changes()``, by subscription number.
    private nonisolated let subscribers = Locked(Subscribers())

    /// How many changes ``changes()`` keeps for a subscriber that is not keeping up.
    public nonisolated let changeBufferSize: Int

    /// What tells a read waiting for the device to be unlocked that it is (`nil`: such reads do not wait).
    public nonisolated let protectedData: (any ProtectedDataMonitor)?

    /// Creates a store over `base`.
    ///
    /// - Parameters:
    ///   - changeBufferSize: how many changes a slow subscriber may fall behind by; beyond that its oldest unread
    ///     changes are dropped (`bufferingNewest`). At least 1.
    ///   - protectedData: what tells reads that wait for the device to be unlocked that it is; `nil`: a locked
    ///     store is answered at once.
    public init(
        _ base: any SecretsDataStoring, changeBufferSize: Int = 256, protectedData: (any ProtectedDataMonitor)? = nil
    ) {
        precondition(changeBufferSize >= 1, "changeBufferSize must be at least 1")
        self.base = base
        self.changeBufferSize = changeBufferSize
        self.protectedData = protectedData
    }

    /// Creates a store over a single backend, through an ``AggregateSecretsStore``.
    public init(
        backend: any SecretsBackend, configuration: SecretsConfiguration = SecretsConfiguration(),
        protectedData: (any ProtectedDataMonitor)? = nil
    ) {
        self.init(AggregateSecretsStore(backend: backend, configuration: configuration), protectedData: protectedData)
    }

    // MARK: Typed access

    /// Encodes `secret` and saves it at `C.id`, after any earlier write to that item.
    public func save<C: SecretCoder>(_ secret: C) async throws(SecretsError) {
        let base = base
        try await write(account: C.id.path, change: .saved) { try base.save(secret) }
    }

    /// Reads and decodes the secret at `id`, or returns `nil` when there is none. Never waits for a write.
    ///
    /// - Parameters:
    ///   - authentication: how the read may prompt when the item needs the user; `nil`: as the store's
    ///     configuration says.
    ///   - waitingForUnlock: how long the read may wait, when it finds the device locked, for the user to unlock it
    ///     (``protectedData`` tells when); `nil`, or a store without ``protectedData``, answers `locked` at once.
    public nonisolated func read<C: SecretCoder>(
        _ id: ServiceID<C>, authentication: AuthenticationContext? = nil, waitingForUnlock: Duration? = nil
    ) async throws(SecretsError) -> C? {
        let base = base
        return try await retryingAfterUnlock(within: waitingForUnlock) { () async throws(SecretsError) -> C? in
            try await Self.offload(authentication) { try base.read(id) }
        }
    }

    /// Deletes the secret at `id`, after any earlier write to that item; returns whether there was one.
    @discardableResult
    public func delete<C: SecretCoder>(_ id: ServiceID<C>) async throws(SecretsError) -> Bool {
        try await delete(account: id.path)
    }

    // MARK: Byte access

    /// Saves raw bytes at `account`, after any earlier write to that item.
    public func save(_ data: Data, account: String) async throws(SecretsError) {
        let base = base
        try await write(account: account, change: .saved) { try base.saveData(data, account: account) }
    }

    /// Reads the raw bytes at `account`, or `nil`. Never waits for a write.
    ///
    /// - Parameters:
    ///   - authentication: how the read may prompt when the item needs the user; `nil`: as the store's
    ///     configuration says.
    ///   - waitingForUnlock: how long the read may wait for the device to be unlocked, as in
    ///     ``read(_:authentication:waitingForUnlock:)``.
    public nonisolated func read(
        account: String, authentication: AuthenticationContext? = nil, waitingForUnlock: Duration? = nil
    ) async throws(SecretsError) -> Data? {
        let base = base
        return try await retryingAfterUnlock(within: waitingForUnlock) { () async throws(SecretsError) -> Data? in
            try await Self.offload(authentication) { try base.readData(account: account) }
        }
    }

    /// Runs `read`; when it finds the store locked and `timeout` is given, waits up to `timeout` for
    /// ``protectedData`` to say the device is unlocked, then reads once more.
    private nonisolated func retryingAfterUnlock<Result>(
        within timeout: Duration?, _ read: () async throws(SecretsError) -> Result
    ) async throws(SecretsError) -> Result {
        do {
            return try await read()
        } catch .locked(let what) {
            guard let timeout, let protectedData, await protectedData.waitUntilAvailable(timeout: timeout) else {
                throw .locked(what)
            }
            return try await read()
        }
    }

    /// Deletes the item at `account`, after any earlier write to it; returns whether there was one.
    @discardableResult
    public func delete(account: String) async throws(SecretsError) -> Bool {
        let base = base
        return try await serializedWrite(account: account, change: { $0 ? .deleted : nil }) {
            try base.deleteData(account: account)
        }
    }

    /// Reads the bytes at `account` and does what `decide` makes of them, holding the item's write lock from the
    /// read to the write: no other write to the item through this store comes between, so a compare-and-swap (save
    /// only if the stored value is still the one expected) is exact, however many tasks share the store.
    ///
    /// `decide` runs once, on the backend call's thread; an error it throws is passed on and nothing is written.
    /// A save or a delete is reported to ``changes()`` like any other.
    ///
    /// - Returns: What was done: ``SecretsStoreUpdate/keep`` when `decide` kept the item, or asked to delete an
    ///   item that was not there.
    @discardableResult
    public func update(
        account: String, _ decide: @escaping @Sendable (_ current: Data?) throws(SecretsError) -> SecretsStoreUpdate
    ) async throws(SecretsError) -> SecretsStoreUpdate {
        let base = base
        return try await serializedWrite(account: account, change: \.change) {
            switch try decide(try base.readData(account: account)) {
            case .keep:
                return .keep
            case .save(let data):
                try base.saveData(data, account: account)
                return .save(data)
            case .delete:
                return try base.deleteData(account: account) ? .delete : .keep
            }
        }
    }

    /// The paths of every stored secret, sorted. Never waits for a write.
    public nonisolated func listAccounts() async throws(SecretsError) -> [String] {
        let base = base
        return try await Self.offload { try base.listAccounts() }
    }

    // MARK: Changes

    /// A stream of the changes this store makes from now on, one element per successful save or delete (a delete
    /// of a missing item changes nothing and is not reported), in the order each item's writes happened.
    ///
    /// Any number of tasks may subscribe. A subscriber that falls more than ``changeBufferSize`` changes behind
    /// loses the oldest ones (`bufferingNewest`); one that stops iterating (its task is cancelled, or the stream
    /// is released) is removed. Changes made through other stores or processes sharing the backend are not seen.
    public nonisolated func changes() -> AsyncStream<SecretsStoreChange> {
        // The closure-based initializer, not `makeStream` (iOS 17's SDK and later only): it runs the closure at once.
        var made: AsyncStream<SecretsStoreChange>.Continuation?
        let stream = AsyncStream<SecretsStoreChange>(bufferingPolicy: .bufferingNewest(changeBufferSize)) {
            made = $0
        }
        guard let continuation = made else { preconditionFailure("AsyncStream runs its build closure at once") }
        let number = subscribers.withLock { subscribers in
            subscribers.next += 1
            subscribers.continuations[subscribers.next] = continuation
            return subscribers.next
        }
        continuation.onTermination = { [subscribers] _ in
            _ = subscribers.withLock { $0.continuations.removeValue(forKey: number) }
        }
        return stream
    }

    /// How many subscribers ``changes()`` has.
    @_spi(Testing) public nonisolated var subscriberCount: Int {
        subscribers.withLock { $0.continuations.count }
    }

    /// How many writes to `account` are waiting for an earlier one to finish.
    @_spi(Testing) public func waitingWriteCount(for account: String) -> Int {
        waitingWriters[account]?.count ?? 0
    }

    // MARK: Implementation

    private struct Subscribers {
        var next = 0
        var continuations: [Int: AsyncStream<SecretsStoreChange>.Continuation] = [:]
    }

    private func write(
        account: String, change: SecretsStoreChange.Kind,
        _ body: @escaping @Sendable () throws -> Void
    ) async throws(SecretsError) {
        try await serializedWrite(account: account, change: { _ in change }, body)
    }

    /// Runs `body` once every earlier write to `account` has finished, then reports the change `change` names.
    private func serializedWrite<Result: Sendable>(
        account: String, change: (Result) -> SecretsStoreChange.Kind?,
        _ body: @escaping @Sendable () throws -> Result
    ) async throws(SecretsError) -> Result {
        await acquire(account)
        defer { release(account) }
        let result = try await Self.offload(nil, body)
        if let kind = change(result) {
            publish(SecretsStoreChange(account: account, kind: kind))
        }
        return result
    }

    private func acquire(_ account: String) async {
        guard waitingWriters[account] != nil else {
            waitingWriters[account] = []
            return
        }
        await withCheckedContinuation { waitingWriters[account]!.append($0) }
    }

    private func release(_ account: String) {
        guard var waiting = waitingWriters[account], !waiting.isEmpty else {
            waitingWriters[account] = nil
            return
        }
        let next = waiting.removeFirst()
        waitingWriters[account] = waiting
        next.resume()
    }

    private nonisolated func publish(_ change: SecretsStoreChange) {
        let continuations = subscribers.withLock { Array($0.continuations.values) }
        for continuation in continuations {
            continuation.yield(change)
        }
    }

    /// Runs a blocking store call on a thread outside the cooperative pool. A serial queue of its own targets
    /// Dispatch's overcommitting pool, which starts a new thread when the others are blocked, so one blocked
    /// backend call cannot hold up another (a shared concurrent queue is limited to the core count on Linux).
    /// The task's caller label and authentication context (`authentication`, when given) go with the call.
    private static func offload<Result: Sendable>(
        _ authentication: AuthenticationContext? = nil, _ body: @escaping @Sendable () throws -> Result
    ) async throws(SecretsError) -> Result {
        let caller = SecretsCaller.current
        let authentication = authentication ?? AuthenticationContext.current
        let result: Swift.Result<Result, SecretsError> = await withCheckedContinuation { continuation in
            DispatchQueue(label: "coffer.secrets-store.call").async {
                continuation.resume(
                    returning: SecretsCaller.with(caller) {
                        AuthenticationContext.withCurrent(authentication) { () -> Swift.Result<Result, SecretsError> in
                            do throws(SecretsError) {
                                return .success(try SecretsError.catching(body))
                            } catch {
                                return .failure(error)
                            }
                        }
                    })
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }
}
