import Crypto
import Foundation
import Logging
import Secrets

/// A tamper-evident audit file: one JSON line per event (``AuditFileRecord``), each carrying a MAC chained over the
/// previous record's under a key kept in the secret store, so that an edited, removed or reordered record is
/// detected by ``AuditFileVerifier`` (`coffer secrets audit verify`).
///
/// - ``record(_:)`` queues the event and returns: the audit's background thread (shared by every sink) appends
///   queued events in batches (what 100 ms of accesses record), each batch with one `write` under an exclusive
///   `flock`, so that processes sharing the file extend one chain. A record is in the file (safe from a crash of the
///   process) within about a tenth of a second, and on disk
///   (safe from a power failure) within ``syncInterval``: the writer `fsync`s at most that often, because an `fsync`
///   per batch costs the machine's other threads more than the records themselves. With
///   ``Durability/synchronous``, `record` instead returns once its batch is written and `fsync`ed.
/// - Nothing is dropped. When the writer falls ``capacity`` events behind, `record` waits for it. When a write
///   fails (a full disk), the file is cut back to its last whole record, the events stay queued and are retried,
///   ``flush()`` throws the error, and the log says so once.
/// - Every ``checkpointInterval``, and on ``close()``, the chain's first and last MACs and last sequence number are
///   saved in the secret store (``AuditKeyStore``), so records cut from the end, an emptied, deleted or replaced file
///   are detected as well; a file that lost records since its checkpoint is not continued
///   (``SecretsAuditError/chainLost(path:reason:)``).
/// - The file is created with mode 0600; a symbolic link or anything but a regular file is refused.
public final class AuditFileSink: SecretsAuditSink {
    /// When ``record(_:)`` returns.
    public enum Durability: Hashable, Sendable {
        /// At once; the record reaches the file within a batch (about 100 ms), the disk within ``syncInterval``.
        case buffered
        /// Once the record is written and `fsync`ed, or its write failed (it stays queued).
        case synchronous
    }

    /// The audit file.
    public let url: URL
    /// When ``record(_:)`` returns.
    public let durability: Durability
    /// How long a buffered record may wait in the file for an `fsync`.
    public let syncInterval: Duration
    /// How many events may wait for the writer before ``record(_:)`` waits.
    public var capacity: Int { queue.capacity }
    private let writer: Writer
    private let queue: AuditQueue

    /// Opens (creating it if needed) the audit file at `url`, with the key in `keys`, made there on first use.
    ///
    /// - Parameters:
    ///   - syncInterval: with ``Durability/buffered``, the longest a written record waits for an `fsync` (a power
    ///     failure can lose what was written since the last one).
    ///   - checkpointInterval: how often the chain's end is saved in the store while records are being written.
    ///   - logger: where a failing write is reported (never an event's content).
    /// - Throws: ``SecretsAuditError/missingKey(account:)`` when the file already holds records but the store has no
    ///   key (a new one would leave them unverifiable: open the store they were written with, or start a new file);
    ///   ``SecretsAuditError`` when the key cannot be read or made, or the file cannot be opened.
    public init(
        url: URL, keys: AuditKeyStore, durability: Durability = .buffered, capacity: Int = 65_536,
        syncInterval: Duration = .seconds(1), checkpointInterval: Duration = .seconds(60),
        logger: Logger = Logger(label: "coffer.secrets.audit")
    ) throws(SecretsAuditError) {
        self.url = url
        self.durability = durability
        self.syncInterval = durability == .synchronous ? .zero : syncInterval
        let file = try AuditFile(url: url)
        let key: SymmetricKey
        do {
            key = try file.exclusively { () throws(SecretsAuditError) -> SymmetricKey in
                if let key = try keys.key() {
                    try Self.checkContinuable(file, url: url, key: key, keys: keys)
                    return key
                }
                // A new key would make every record already in the file unverifiable.
                guard try file.size() == 0 else { throw .missingKey(account: keys.keyAccount) }
                return try keys.keyCreatingIfMissing()
            }
        } catch {
            file.close()
            throw error
        }
        let writer = Writer(
            file: file, url: url, encoder: AuditRecordEncoder(key: key), keys: keys, syncInterval: self.syncInterval,
            checkpointInterval: checkpointInterval, logger: logger)
        self.writer = writer
        // Buffered, a batch gathers what the queue's default linger of accesses record. Synchronous, the accessing
        // thread is waiting, and the accesses that arrive while a batch is being synced share the next one.
        queue = AuditQueue(
            capacity: capacity, linger: durability == .buffered ? AuditQueue.defaultLinger : .zero,
            handle: { writer.append($0) }, idle: { writer.idle() })
    }

    /// Refuses to continue a file that lost what its checkpoint says was written: emptied, cut before the
    /// checkpoint, holding another chain, or whose checkpoint was removed from the store. Writing on would bury the
    /// loss under new records.
    private static func checkContinuable(_ file: AuditFile, url: URL, key: SymmetricKey, keys: AuditKeyStore)
        throws(SecretsAuditError)
    {
        guard let checkpoint = try keys.checkpoint(forFileAt: url) else {
            if let saved = try keys.savedCheckpointCount(forFileAt: url) {
                throw .chainLost(
                    path: file.path, reason: "its checkpoint is missing from the store (\(saved) were saved)")
            }
            return
        }
        var chain = AuditFile.Chain()
        try file.refresh(&chain, key: key)
        if let firstMAC = checkpoint.firstMAC, chain.firstMAC != firstMAC {
            throw .chainLost(
                path: file.path,
                reason: chain.firstMAC == nil
                    ? "it holds no records, but record \(checkpoint.sequence) was written"
                    : "it holds another chain than the one written here")
        }
        if chain.sequence < checkpoint.sequence {
            throw .chainLost(
                path: file.path,
                reason: "it ends at record \(chain.sequence), but record \(checkpoint.sequence) was written")
        }
    }

    /// Opens the audit file at `url` with its key kept in `keyStore` at ``AuditKeyStore/defaultKeyAccount``.
    public convenience init(
        url: URL, keyStore: any SecretsDataStoring, durability: Durability = .buffered
    ) throws(SecretsAuditError) {
        try self.init(url: url, keys: AuditKeyStore(store: keyStore), durability: durability)
    }

    deinit {
        try? close()
    }

    /// Queues `event` (waiting while ``capacity`` events are queued); with ``Durability/synchronous``, returns once
    /// it is on disk or its write failed.
    public func record(_ event: SecretsAuditEvent) {
        let ticket = queue.enqueue(event)
        if durability == .synchronous, let ticket {
            queue.waitUntilAttempted(ticket)
        }
    }

    /// Returns once every event recorded so far is written and `fsync`ed.
    ///
    /// - Throws: the write's ``SecretsAuditError`` when it failed (the events stay queued and are retried).
    public func flush() throws(SecretsAuditError) {
        try queue.flush()
        try writer.sync()
    }

    /// Writes every queued event, saves a checkpoint, stops the writer and closes the file. Events recorded after
    /// this are not kept; calling it again does nothing.
    ///
    /// - Throws: the ``SecretsAuditError`` that kept the last events from being written.
    public func close() throws(SecretsAuditError) {
        let unwritten = queue.close()
        writer.finish()
        if let unwritten { throw unwritten }
    }

    /// How many events are queued and not yet written.
    public var queuedCount: Int { queue.count }
}

extension AuditFileSink {
    /// What the queue's thread does with each batch: append it to the file, checkpoint now and then, and report
    /// failures.
    private final class Writer: @unchecked Sendable {
        // Safety: the file, the only member that is not Sendable, is used only inside `state.withLock`.
        private let file: AuditFile
        private let url: URL
        private let encoder: AuditRecordEncoder
        private let keys: AuditKeyStore
        private let syncInterval: Duration
        private let checkpointInterval: Duration
        private let logger: Logger
        private let state = Locked(State())

        /// What changes as batches are written.
        private struct State {
            var chain = AuditFile.Chain()
            var unsynced = false
            var lastSync = ContinuousClock.now
            var lastCheckpoint = ContinuousClock.now
            var checkpointed = AuditCheckpoint(sequence: 0, mac: Data())
            var reportedFailure = false
            var closed = false
        }

        init(
            file: AuditFile, url: URL, encoder: AuditRecordEncoder, keys: AuditKeyStore, syncInterval: Duration,
            checkpointInterval: Duration, logger: Logger
        ) {
            self.file = file
            self.url = url
            self.encoder = encoder
            self.keys = keys
            self.syncInterval = syncInterval
            self.checkpointInterval = checkpointInterval
            self.logger = logger
        }

        /// Appends `batch`: `nil`, or the error that kept it out of the file (which is then as it was).
        func append(_ batch: [SecretsAuditEvent]) -> SecretsAuditError? {
            state.withLock { state -> SecretsAuditError? in
                do throws(SecretsAuditError) {
                    let syncing = syncInterval == .zero
                    try file.exclusively { () throws(SecretsAuditError) in
                        try file.append(batch, encoder: encoder, to: &state.chain, sync: syncing)
                    }
                    if !syncing { state.unsynced = true }
                    if state.reportedFailure {
                        state.reportedFailure = false
                        logger.notice("the audit file is written again", metadata: ["file": "\(file.path)"])
                    }
                    if ContinuousClock.now - state.lastCheckpoint >= checkpointInterval { saveCheckpoint(&state) }
                    return nil
                } catch {
                    if !state.reportedFailure {
                        state.reportedFailure = true
                        logger.error(
                            "the audit file cannot be written; its records are kept and retried",
                            metadata: ["file": "\(file.path)", "error": "\(error)"])
                    }
                    return error
                }
            }
        }

        /// `fsync`s what was written since the last one, if the interval has passed: how long until it should be
        /// asked again, or `nil`.
        func idle() -> Duration? {
            state.withLock { state in
                guard state.unsynced, !state.closed else { return nil }
                let waited = ContinuousClock.now - state.lastSync
                guard waited >= syncInterval else { return syncInterval - waited }
                return syncReportingFailure(&state) ? nil : syncInterval
            }
        }

        /// `fsync`s what was written since the last one.
        func sync() throws(SecretsAuditError) {
            let failure = state.withLock { state -> SecretsAuditError? in
                do throws(SecretsAuditError) {
                    try sync(&state)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
        }

        /// ``sync(_:)``, logging a failure: whether it succeeded.
        private func syncReportingFailure(_ state: inout State) -> Bool {
            do {
                try sync(&state)
                return true
            } catch {
                logger.error("the audit file cannot be synced", metadata: ["error": "\(error)"])
                return false
            }
        }

        private func sync(_ state: inout State) throws(SecretsAuditError) {
            guard state.unsynced, !state.closed else { return }
            try file.sync()
            state.unsynced = false
            state.lastSync = .now
        }

        /// Syncs, saves a last checkpoint and closes the file; later calls do nothing.
        func finish() {
            state.withLock { state in
                guard !state.closed else { return }
                _ = syncReportingFailure(&state)
                saveCheckpoint(&state)
                state.closed = true
                file.close()
            }
        }

        /// Saves the chain's end in the store, if it moved since the last checkpoint. The file stays locked while it
        /// does, so that a checkpoint never goes back behind another process's, and is synced first (whoever wrote
        /// its last records): a checkpoint must never name a record a power failure could still take.
        private func saveCheckpoint(_ state: inout State) {
            state.lastCheckpoint = .now
            do {
                try file.exclusively { () throws(SecretsAuditError) in
                    try file.refresh(&state.chain, key: encoder.key)
                    guard let firstMAC = state.chain.firstMAC, state.chain.sequence != state.checkpointed.sequence
                    else { return }
                    try file.sync()
                    state.unsynced = false
                    state.lastSync = .now
                    let checkpoint = AuditCheckpoint(
                        sequence: state.chain.sequence, mac: state.chain.mac, firstMAC: firstMAC)
                    try keys.saveCheckpoint(checkpoint, forFileAt: url)
                    state.checkpointed = checkpoint
                }
            } catch {
                logger.warning("the audit file's checkpoint could not be saved", metadata: ["error": "\(error)"])
            }
        }
    }
}
