import Crypto
import Foundation
import Secrets

/// An open audit file: appends batches of records under an exclusive `flock`, continuing the chain the file
/// already holds (which other processes may have extended since this one last wrote).
final class AuditFile: @unchecked Sendable {
    // Safety: `descriptor` never changes after `init` (`close()` is called once the writer thread has ended), and
    // every append or refresh runs on one thread at a time (the writer's), under an exclusive `flock`.

    /// Where the chain ends, as far as this process knows.
    struct Chain {
        /// The last record's sequence number (0: none).
        var sequence: UInt64 = 0
        /// The last record's MAC (empty: none).
        var mac = Data()
        /// The first record's MAC: the chain's name for its checkpoints.
        var firstMAC: Data?
        /// The file's size after this process last read or wrote it; -1 before the first look.
        var knownSize: Int64 = -1
    }

    let path: String
    private let descriptor: Int32

    /// How much of the file's end is read to find its last record.
    static let tailLength = 64 * 1024

    /// Opens the file at `url` for appending, creating it with mode 0600; refuses symbolic links and anything but
    /// a regular file.
    init(url: URL) throws(SecretsAuditError) {
        path = url.path
        descriptor = try Self.openRegularFile(path, flags: O_RDWR | O_APPEND | O_CREAT)
    }

    /// Reads the whole file at `url` under a shared `flock` (so that no writer is midway through a batch), and runs
    /// `body` with its bytes while still holding the lock.
    static func readLocked<Result>(
        _ url: URL, _ body: (Data) throws(SecretsAuditError) -> Result
    ) throws(SecretsAuditError) -> Result {
        let path = url.path
        let descriptor = try openRegularFile(path, flags: O_RDONLY)
        defer { Foundation.close(descriptor) }
        try lock(descriptor, LOCK_SH, path: path)
        defer { flock(descriptor, LOCK_UN) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .io(operation: "fstat", path: path, code: errno) }
        return try body(try read(descriptor, path: path, from: 0, count: Int(status.st_size)))
    }

    func close() {
        Foundation.close(descriptor)
    }

    /// Runs `body` holding the file's exclusive lock, which every Coffer process writing it takes.
    func exclusively<Result>(_ body: () throws(SecretsAuditError) -> Result) throws(SecretsAuditError) -> Result {
        try Self.lock(descriptor, LOCK_EX, path: path)
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Appends `events` as the records after `chain`'s end (then `fsync`s, if `sync`); on failure the file is cut
    /// back to its size before and `chain` is unchanged. Call it inside ``exclusively(_:)``.
    func append(_ events: [SecretsAuditEvent], encoder: AuditRecordEncoder, to chain: inout Chain, sync: Bool)
        throws(SecretsAuditError)
    {
        try refresh(&chain, key: encoder.key)
        guard chain.sequence + UInt64(events.count) <= AuditFileRecord.maximumSequence else {
            throw .chainLost(path: path, reason: "its chain has reached the highest sequence number; start a new file")
        }
        let size = chain.knownSize
        var next = chain
        var bytes: [UInt8] = []
        bytes.reserveCapacity(events.count * 384 + 1)
        if size > 0, try byte(at: size - 1) != UInt8(ascii: "\n") {
            bytes.append(UInt8(ascii: "\n"))  // end a line cut short, so that the new records start a line
        }
        let processID = getpid()
        for event in events {
            next.sequence += 1
            let record = AuditFileRecord(
                sequence: next.sequence, previousMAC: next.mac, processID: processID, event: event)
            let mac = encoder.append(record, to: &bytes)
            next.mac = mac
            if next.firstMAC == nil { next.firstMAC = mac }
        }
        do throws(SecretsAuditError) {
            try write(bytes)
            if sync { try self.sync() }
        } catch {
            _ = ftruncate(descriptor, off_t(size))
            throw error
        }
        next.knownSize = size + Int64(bytes.count)
        chain = next
    }

    /// Waits until everything written to the file is on stable storage.
    func sync() throws(SecretsAuditError) {
        guard FileFlusher.system.flush(descriptor, .durable) else {
            throw .io(operation: "fsync", path: path, code: errno)
        }
    }

    /// Brings `chain` up to the file's end if the file changed since this process last looked: its last record is
    /// the last line of the file's tail that reads as a record authentic under `key` (a forged line, one with an
    /// enormous sequence number say, is never continued from). Call it inside ``exclusively(_:)``.
    func refresh(_ chain: inout Chain, key: SymmetricKey) throws(SecretsAuditError) {
        let size = try size()
        guard size != chain.knownSize else { return }
        var refreshed = Chain(knownSize: size)
        if size > 0 {
            func authentic(_ line: some DataProtocol) -> AuditFileRecord.Parsed? {
                AuditFileRecord.parse(line).flatMap { $0.isAuthentic(under: key) ? $0 : nil }
            }
            let start = max(0, size - Int64(Self.tailLength))
            let tail = try read(from: start, count: Int(size - start))
            var lines = tail.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
            if start > 0, !lines.isEmpty { lines.removeFirst() }  // it may begin mid-line
            if let last = lines.reversed().lazy.compactMap(authentic).first {
                refreshed.sequence = last.record.sequence
                refreshed.mac = last.mac
            }
            let head = try read(from: 0, count: Int(min(size, Int64(AuditFileRecord.maximumLineLength))))
            if let firstLine = head.split(separator: UInt8(ascii: "\n"), maxSplits: 1).first {
                refreshed.firstMAC = authentic(firstLine)?.mac
            }
        }
        chain = refreshed
    }

    /// The file's size in bytes.
    func size() throws(SecretsAuditError) -> Int64 {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .io(operation: "fstat", path: path, code: errno) }
        return Int64(status.st_size)
    }

    private func byte(at offset: Int64) throws(SecretsAuditError) -> UInt8? {
        try read(from: offset, count: 1).first
    }

    private func read(from offset: Int64, count: Int) throws(SecretsAuditError) -> Data {
        try Self.read(descriptor, path: path, from: offset, count: count)
    }

    /// Opens `path` with `flags` (and mode 0600 if it creates it), refusing a symbolic link or anything but a
    /// regular file.
    private static func openRegularFile(_ path: String, flags: Int32) throws(SecretsAuditError) -> Int32 {
        let descriptor = open(path, flags | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP { throw .notARegularFile(path: path) }
            throw .io(operation: "open", path: path, code: errno)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            Foundation.close(descriptor)
            throw .notARegularFile(path: path)
        }
        return descriptor
    }

    /// Takes the `flock` `operation` (`LOCK_SH`, `LOCK_EX`) on `descriptor`, waiting for it.
    private static func lock(_ descriptor: Int32, _ operation: Int32, path: String) throws(SecretsAuditError) {
        while flock(descriptor, operation) != 0 {
            guard errno == EINTR else { throw .io(operation: "flock", path: path, code: errno) }
        }
    }

    /// Up to `count` bytes of `descriptor` from `offset` (fewer at the end of the file).
    private static func read(_ descriptor: Int32, path: String, from offset: Int64, count: Int)
        throws(SecretsAuditError) -> Data
    {
        var data = Data(count: count)
        var done = 0
        while done < count {
            let result = data.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else { throw .io(operation: "read", path: path, code: errno) }
            if result == 0 { break }
            done += result
        }
        return data.prefix(done)
    }

    private func write(_ bytes: [UInt8]) throws(SecretsAuditError) {
        if let code = bytes.withUnsafeBytes({ Descriptors.writeAll($0, to: descriptor) }) {
            throw .io(operation: "write", path: path, code: code)
        }
    }
}
