#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Secrets
import WalletServices

/// Watches a SQLite file's directory with Linux's inotify: every commit, by this process or another, writes the
/// file or its write-ahead log, and the kernel queues that write's event before the commit returns.
///
/// Its position is a generation of the whole file: reading it reads the queued events (one non-blocking `read`) and
/// moves on when one names the database's files; a lost event (the queue overflowed) or a lost watch moves it too,
/// and a lost watch moves it on every call from then on, so that nothing is answered from memory without the watch.
final class SQLiteChangeWatch: DatabaseChangeWatch {
    private struct State {
        var generation: UInt64 = 0
        /// Set once the watch is gone: every generation is new from then on.
        var lost = false
    }

    private let descriptor: Int32
    /// The database file's name and its journals' names.
    private let names: Set<String>
    private let state = Locked(State())

    /// A watch over the database at `path`, or `nil` where inotify is not available.
    static func watching(databaseAt path: String) -> SQLiteChangeWatch? {
        #if canImport(Glibc)
            let file = URL(fileURLWithPath: path)
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            // Writes and files replaced; not attributes, which SQLite changes whenever a connection opens a journal.
            let events = IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF
            guard inotify_add_watch(descriptor, file.deletingLastPathComponent().path, UInt32(events)) >= 0 else {
                close(descriptor)
                return nil
            }
            let name = file.lastPathComponent
            return SQLiteChangeWatch(descriptor: descriptor, names: [name, name + "-wal", name + "-journal"])
        #else
            return nil
        #endif
    }

    private init(descriptor: Int32, names: Set<String>) {
        self.descriptor = descriptor
        self.names = names
    }

    deinit {
        close(descriptor)
    }

    func position() -> UInt64? { generation() }

    /// The commit's event is queued before the commit returns: reading the queue catches up.
    func catchUp() async -> UInt64? { generation() }

    /// Any change to the file may change any pass.
    func mayHaveChanged(passID: UUID, since position: UInt64) -> Bool {
        state.withLock { $0.generation != position || $0.lost }
    }

    /// A number that changes whenever the file may have changed since it was last returned.
    func generation() -> UInt64 {
        state.withLock { state in
            // Under the lock: a caller that finds the queue empty because another took its events waits until that
            // caller has moved the generation.
            if !state.lost {
                let events = readEvents()
                state.lost = events?.lost ?? true
                if events?.changed == true { state.generation &+= 1 }
            }
            if state.lost { state.generation &+= 1 }
            return state.generation
        }
    }

    /// Reads every queued event: whether one names the database's files (or events were lost), and whether the
    /// watch itself is gone; `nil` when the queue cannot be read.
    private func readEvents() -> (changed: Bool, lost: Bool)? {
        #if canImport(Glibc)
            var changed = false
            var lost = false
            let capacity = 4096
            return withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 8) { buffer -> (Bool, Bool)? in
                while true {
                    let count = read(descriptor, buffer.baseAddress, capacity)
                    if count < 0 { return errno == EAGAIN || errno == EWOULDBLOCK ? (changed, lost) : nil }
                    if count == 0 { return nil }
                    var offset = 0
                    let header = MemoryLayout<inotify_event>.size
                    while offset + header <= count {
                        let event = buffer.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                        let mask = Int32(bitPattern: event.mask)
                        if mask & (IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF) != 0 { changed = true }
                        if mask & IN_IGNORED != 0 { lost = true }
                        if event.len > 0 {
                            let start = offset + header
                            let bytes = UnsafeRawBufferPointer(
                                rebasing: buffer[start..<min(start + Int(event.len), count)])
                            let name = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                            if names.contains(name) { changed = true }
                        }
                        offset += header + Int(event.len)
                    }
                }
            }
        #else
            return nil
        #endif
    }
}
