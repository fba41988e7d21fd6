import Foundation

/// Sends values whose key has a ``SyncPolicy`` other than ``SyncPolicy/never`` to the paired watch, as one
/// application context that holds every synced value.
///
/// ``SyncPolicy/automaticSmall`` values are sent on every write and must be at most
/// ``automaticSmallMaximumSize`` bytes; ``SyncPolicy/manual`` ones when the app calls
/// ``StorageRouter/sync(_:)``. A context over ``maximumContextSize`` is refused before it is sent.
public actor WatchSyncStore {
    /// The largest value an ``SyncPolicy/automaticSmall`` key may sync: 16 KiB.
    public static let automaticSmallMaximumSize = 16 * 1024
    /// The largest application context sent: 64 KiB, what WatchConnectivity accepts in one context.
    public static let maximumContextSize = 64 * 1024

    private let transport: (any SyncTransport)?
    private var context: [String: Data] = [:]

    /// A store sending through `transport` (`nil`: there is no counterpart, and syncing fails).
    public init(transport: (any SyncTransport)?) {
        self.transport = transport
    }

    /// The values sent so far, by key name.
    public var syncedValues: [String: Data] { context }

    /// Sends `data` as the value of `name` along with every value synced before.
    ///
    /// - Throws: ``StorageError/payloadTooLarge(key:byteCount:limit:)`` for an automatic value over
    ///   ``automaticSmallMaximumSize`` or a context over ``maximumContextSize``; ``StorageError/syncFailed(key:reason:)``
    ///   when there is no transport, no reachable counterpart, or the transport fails. The value stays queued
    ///   for the next successful send unless it was refused for its size.
    public func send(_ data: Data, for name: String, policy: SyncPolicy) async throws(StorageError) {
        try check(data, for: name, policy: policy)
        context[name] = data
        try await push(for: name)
    }

    /// Throws what ``send(_:for:policy:)`` would throw for the size of `data`, without sending it.
    public func check(_ data: Data, for name: String, policy: SyncPolicy) throws(StorageError) {
        if policy == .automaticSmall, data.count > Self.automaticSmallMaximumSize {
            throw .payloadTooLarge(key: name, byteCount: data.count, limit: Self.automaticSmallMaximumSize)
        }
        var next = context
        next[name] = data
        let size = next.reduce(0) { $0 + $1.key.utf8.count + $1.value.count }
        guard size <= Self.maximumContextSize else {
            throw .payloadTooLarge(key: name, byteCount: size, limit: Self.maximumContextSize)
        }
    }

    /// Removes `name` from the context and sends the rest; does nothing when it was never synced.
    public func remove(_ name: String) async throws(StorageError) {
        guard context.removeValue(forKey: name) != nil else { return }
        try await push(for: name)
    }

    private func push(for name: String) async throws(StorageError) {
        guard let transport else { throw .syncFailed(key: name, reason: "no sync transport is configured") }
        guard await transport.isReachable else {
            throw .syncFailed(key: name, reason: "no paired watch is reachable (is the session activated?)")
        }
        do {
            try await transport.updateApplicationContext(context)
        } catch {
            throw .syncFailed(key: name, reason: "\(error)")
        }
    }
}
