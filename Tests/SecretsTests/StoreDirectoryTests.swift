import CofferTestSupport
import Foundation
import Testing

@testable import Secrets

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Records what a store directory asks of the system, in order.
final class FileSystemRecorder: Sendable {
    enum Event: Hashable, Sendable {
        case flush(FileFlusher.Strength)
        case activityBegan
        case activityEnded(lockWasFree: Bool)
    }

    private let log = Locked<[Event]>([])
    var events: [Event] { log.withLock { $0 } }

    func flusher() -> FileFlusher {
        FileFlusher { [log] descriptor, strength in
            log.withLock { $0.append(.flush(strength)) }
            return fsync(descriptor) == 0
        }
    }

    /// An activity that, when it ends, checks that the store's lock is already released.
    func activity(lockFile: URL) -> WriteActivity {
        WriteActivity { [log] _ in
            log.withLock { $0.append(.activityBegan) }
            return {
                let descriptor = open(lockFile.path, O_RDWR)
                defer { if descriptor >= 0 { close(descriptor) } }
                let free = descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0
                if free { flock(descriptor, LOCK_UN) }
                log.withLock { $0.append(.activityEnded(lockWasFree: free)) }
            }
        }
    }
}

@Suite("Store directory: one full flush per write, locked writes inside a background activity")
struct StoreDirectoryTests {
    let directory: TemporaryDirectory
    let recorder = FileSystemRecorder()
    let store: StoreDirectory

    init() throws {
        directory = try TemporaryDirectory()
        let root = directory.appending("store")
        store = StoreDirectory(
            root: root, flusher: recorder.flusher(),
            activity: recorder.activity(lockFile: root.appendingPathComponent(StoreDirectory.lockFileName)))
        try store.create(subdirectories: [])
    }

    @Test("a write flushes the file for ordering, then the directory for durability: one durable flush")
    func writeFlushes() throws {
        try store.write(Data("v".utf8), to: "item")
        #expect(recorder.events == [.flush(.ordering), .flush(.durable)])
        #expect(try store.read("item", limit: 10) == Data("v".utf8))
    }

    @Test("a removal flushes the directory durably")
    func removeFlushes() throws {
        try store.write(Data("v".utf8), to: "item")
        #expect(try store.remove("item"))
        #expect(recorder.events == [.flush(.ordering), .flush(.durable), .flush(.durable)])
    }

    @Test("the lock is taken inside the activity and released before it ends")
    func lockInsideActivity() throws {
        let seenInside = try store.withExclusiveLock { recorder.events }
        #expect(seenInside == [.activityBegan])
        #expect(recorder.events == [.activityBegan, .activityEnded(lockWasFree: true)])
    }

    @Test("the activity ends even when the locked body throws")
    func activityEndsOnError() throws {
        struct Failure: Error {}
        #expect(throws: Failure.self) { try store.withExclusiveLock { throw Failure() } }
        #expect(recorder.events == [.activityBegan, .activityEnded(lockWasFree: true)])
    }

    @Test("a new key file is flushed, and then its directory, so a crash cannot lose the name of the key")
    func keyFileIsDurable() throws {
        let directory = try TemporaryDirectory()
        let flushedDirectories = Locked<[Bool]>([])
        let flusher = FileFlusher { descriptor, _ in
            var status = stat()
            fstat(descriptor, &status)
            flushedDirectories.withLock { $0.append(status.st_mode & S_IFMT == S_IFDIR) }
            return fsync(descriptor) == 0
        }
        try EncryptedFileBackend.createKeyFile(at: directory.appending("secrets.key"), flusher: flusher)
        #expect(flushedDirectories.withLock { $0 } == [false, true])
    }
}
