import Crypto
import Foundation
import Logging

/// A tamper-evident audit file: one JSON line per event (``AuditFileRecord``), each carrying a MAC chained over the
/// previous record's under a key kept in the secret store, so that an edited, removed or reordered record is
/// detected by ``AuditFileVerifier`` (`coffer secrets audit verify`).
///
/// - ``record(_:)`` queues the event and returns: a writer thread appends queued events in batches, each batch
///   under an exclusive `flock` (so processes sharing the file extend one chain) and followed by an `fsync`.
///   With ``Durability/synchronous``, `record` instead returns once its batch is on disk.
/// - Nothing is dropped. When the writer falls ``capacity`` events behind, `record` waits for it. When a write
///   fails (a full disk), the file is cut back to its last whole record, the events stay queued and are retried,
///   ``flush()`` throws the error, and the log says so once.
/// - Every ``checkpointInterval``, and on ``close()``, the chain's last sequence number and MAC are saved in the
///   secret store (``AuditKeyStore``), so records cut from the end are detected as well.
/// - The file is created with mode 0600; a symbolic link or anything but a regular file is refused.
public final class AuditFileSink: SecretsAuditSink {
    /// When ``record(_:)`` returns.
    public enum Durability: Hashable, Sendable {
        /// At once; the record reaches the disk within a batch (milliseconds).
        case buffered
        /// Once the record is written and `fsync`ed, or its write failed (it stays queued).
        case synchronous
    }

    /// The audit file.
    public let url: URL
    /// When ``record(_:)`` returns.
    public let durability: Durability
    /// How many events may wait for the writer before ``record(_:)`` waits.
    public let capacity: Int
    private let writer: Writer

    /// Opens (creating it if needed) the audit file at `url`, with the key in `keys`, made there on first use.
    ///
    /// - Parameters:
    ///   - checkpointInterval: how often the chain's end is saved in the store while records are being written.
    ///   - logger: where a failing write is reported (never an event's content).
    /// - Throws: ``SecretsAuditError/missingKey(account:)`` when the file already holds records but the store has no
    ///   key (a new one would leave them unverifiable: open the store they were written with, or start a new file);
    ///   ``SecretsAuditError`` when the key cannot be read or made, or the file cannot be opened.
    public init(
        url: URL, keys: AuditKeyStore, durability: Durability = .buffered, capacity: Int = 65_536,
        checkpointInterval: Duration = .seconds(60), logger: Logger = Logger(label: "coffer.secrets.audit")
    ) throws(SecretsAuditError) {
        precondition(capacity >= 1, "capacity must be at least 1")
        self.url = url
        self.durability = durability
        self.capacity = capacity
        let file = try AuditFile(url: url)
        let key: SymmetricKey
        do {
            key = try file.exclusively { () throws(SecretsAuditError) -> SymmetricKey in
                if let key = try keys.key() { return key }
                // A new key would make every record already in the file unverifiable.
                guard try file.size() == 0 else { throw .missingKey(account: keys.keyAccount) }
                return try keys.keyCreatingIfMissing()
            }
        } catch {
            file.close()
            throw error
        }
        writer = Writer(
            file: file, key: key, keys: keys, capacity: capacity, checkpointInterval: checkpointInterval,
            logger: logger)
        writer.start()
    }

    /// Opens the audit file at `url` with its key kept in `keyStore` at ``AuditKeyStore/defaultKeyAccount``.
    public convenience init(
        url: URL, keyStore: any SecretsDataStoring, durability: Durability = .buffered
    ) throws(SecretsAuditError) {
        try self.init(url: url, keys: AuditKeyStore(store: keyStore), durability: durability)
    }

    deinit {
        try? writer.close()
    }

    /// Queues `event` (waiting while ``capacity`` events are queued); with ``Durability/synchronous``, returns once
    /// it is on disk or its write failed.
    public func record(_ event: SecretsAuditEvent) {
        let ticket = writer.enqueue(event)
        if durability == .synchronous, let ticket {
            writer.waitUntilAttempted(ticket)
        }
    }

    /// Returns once every event recorded so far is written and `fsync`ed.
    ///
    /// - Throws: the write's ``SecretsAuditError`` when it failed (the events stay queued and are retried).
    public func flush() throws(SecretsAuditError) {
        try writer.flush()
    }

    /// Writes every queued event, saves a checkpoint, stops the writer and closes the file. Events recorded after
    /// this are not kept; calling it again does nothing.
    ///
    /// - Throws: the ``SecretsAuditError`` that kept the last events from being written.
    public func close() throws(SecretsAuditError) {
        try writer.close()
    }

    /// How many events are queued and not yet written.
    public var queuedCount: Int { writer.queuedCount }
}

extension AuditFileSink {
    /// The queue of events and the thread that appends them.
    private final class Writer: @unchecked Sendable {
        // Safety: every mutable property below is read and written only while `condition` is locked, except `file`,
        // `chain`, `lastCheckpoint` and `reportedFailure`, which only the writer thread touches (and `close()` once
        // the writer thread has ended).
        private let condition = NSCondition()
        private var queue: [SecretsAuditEvent] = []
        private var enqueued: UInt64 = 0
        private var attempted: UInt64 = 0
        private var written: UInt64 = 0
        private var attempts: UInt64 = 0
        private var failure: SecretsAuditError?
        private var closing = false
        private var finished = false

        private let file: AuditFile
        private let key: SymmetricKey
        private let keys: AuditKeyStore
        private let capacity: Int
        private let checkpointInterval: Duration
        private let logger: Logger
        private var chain = AuditFile.Chain()
        private var lastCheckpoint = ContinuousClock.now
        private var checkpointed = AuditCheckpoint(sequence: 0, mac: Data())
        private var reportedFailure = false

        init(
            file: AuditFile, key: SymmetricKey, keys: AuditKeyStore, capacity: Int, checkpointInterval: Duration,
            logger: Logger
        ) {
            self.file = file
            self.key = key
            self.keys = keys
            self.capacity = capacity
            self.checkpointInterval = checkpointInterval
            self.logger = logger
        }

        func start() {
            let thread = Thread { [self] in run() }
            thread.name = "coffer.secrets.audit-file"
            thread.start()
        }

        var queuedCount: Int { condition.withLock { queue.count } }

        /// Queues `event`; its ticket, or `nil` when the writer is closed.
        func enqueue(_ event: SecretsAuditEvent) -> UInt64? {
            condition.withLock {
                while queue.count >= capacity, !closing { condition.wait() }
                guard !closing else { return nil }
                queue.append(event)
                enqueued += 1
                condition.broadcast()
                return enqueued
            }
        }

        func waitUntilAttempted(_ ticket: UInt64) {
            condition.withLock {
                while attempted < ticket, !finished { condition.wait() }
            }
        }

        func flush() throws(SecretsAuditError) {
            let outcome: SecretsAuditError? = condition.withLock {
                let target = enqueued
                let attemptsBefore = attempts
                while written < target, !finished {
                    if failure != nil, attempts > attemptsBefore { break }
                    condition.wait()
                }
                return written < target ? (failure ?? .closed) : nil
            }
            if let outcome { throw outcome }
        }

        func close() throws(SecretsAuditError) {
            let alreadyClosing = condition.withLock {
                defer {
                    closing = true
                    condition.broadcast()
                }
                return closing
            }
            condition.withLock {
                while !finished { condition.wait() }
            }
            guard !alreadyClosing else { return }
            let unwritten: SecretsAuditError? = condition.withLock { queue.isEmpty ? nil : (failure ?? .closed) }
            saveCheckpoint()
            file.close()
            if let unwritten { throw unwritten }
        }

        /// The writer thread: appends what is queued, retrying a failed batch every second, until closed and empty
        /// (or closed after a failed last attempt).
        private func run() {
            while true {
                let batch: [SecretsAuditEvent]? = condition.withLock {
                    while queue.isEmpty, !closing { condition.wait() }
                    return queue.isEmpty ? nil : queue
                }
                guard let batch else { break }
                let result = append(batch)
                let stop: Bool = condition.withLock {
                    attempted = max(attempted, written + UInt64(batch.count))
                    attempts += 1
                    switch result {
                    case .success:
                        queue.removeFirst(batch.count)
                        written += UInt64(batch.count)
                        failure = nil
                    case .failure(let error):
                        failure = error
                    }
                    condition.broadcast()
                    if case .failure = result {
                        if closing { return true }
                        _ = condition.wait(until: Date(timeIntervalSinceNow: 1))
                    }
                    return false
                }
                report(result)
                if stop { break }
                if ContinuousClock.now - lastCheckpoint >= checkpointInterval { saveCheckpoint() }
            }
            condition.withLock {
                finished = true
                condition.broadcast()
            }
        }

        private func append(_ batch: [SecretsAuditEvent]) -> Result<Void, SecretsAuditError> {
            do {
                try file.exclusively { () throws(SecretsAuditError) in try file.append(batch, key: key, to: &chain) }
                return .success(())
            } catch {
                return .failure(error)
            }
        }

        /// Logs the first failure of a run of failures, and the recovery after it.
        private func report(_ result: Result<Void, SecretsAuditError>) {
            switch result {
            case .failure(let error) where !reportedFailure:
                reportedFailure = true
                logger.error(
                    "the audit file cannot be written; its records are kept and retried",
                    metadata: ["file": "\(file.path)", "error": "\(error)"])
            case .success where reportedFailure:
                reportedFailure = false
                logger.notice("the audit file is written again", metadata: ["file": "\(file.path)"])
            default: break
            }
        }

        /// Saves the chain's end in the store, if it moved since the last checkpoint. The file stays locked while
        /// it does, so that a checkpoint never goes back behind another process's.
        private func saveCheckpoint() {
            lastCheckpoint = .now
            do {
                try file.exclusively { () throws(SecretsAuditError) in
                    try file.refresh(&chain)
                    guard let firstMAC = chain.firstMAC, chain.sequence != checkpointed.sequence else { return }
                    let checkpoint = AuditCheckpoint(sequence: chain.sequence, mac: chain.mac)
                    try keys.saveCheckpoint(checkpoint, ofChainStartingWith: firstMAC)
                    checkpointed = checkpoint
                }
            } catch {
                logger.warning("the audit file's checkpoint could not be saved", metadata: ["error": "\(error)"])
            }
        }
    }
}
