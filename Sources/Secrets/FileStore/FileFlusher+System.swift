import Foundation

extension FileFlusher {
    /// `F_BARRIERFSYNC` for ordering and `F_FULLFSYNC` for durability on Apple systems (falling back to `fsync` on
    /// file systems without them); `fsync` for both elsewhere.
    package static let system = FileFlusher { descriptor, strength in
        #if canImport(Darwin)
            if fcntl(descriptor, strength == .ordering ? F_BARRIERFSYNC : F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(descriptor) == 0
    }
}

extension WriteActivity {
    /// A background task assertion (`ProcessInfo.performExpiringActivity`, which needs no UIKit and works in app
    /// extensions) on iOS, iPadOS, Mac Catalyst, watchOS, tvOS and visionOS; nothing on macOS and Linux.
    static let system: WriteActivity = {
        #if canImport(Darwin) && !os(macOS)
            return WriteActivity { reason in
                let finished = Semaphore()
                ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
                    // Called on a background thread: hold the assertion until the write ends. Called with `true`
                    // when no assertion could be taken, or when it expires: nothing to hold then.
                    if !expired { finished.wait() }
                }
                return { finished.signal() }
            }
        #else
            return .none
        #endif
    }()
}

#if canImport(Darwin) && !os(macOS)
    /// A semaphore that may be shared between threads.
    private final class Semaphore: @unchecked Sendable {
        // Safety: DispatchSemaphore is made for use from many threads at once (its wait and signal are atomic);
        // older SDKs only lack the annotation.
        private let semaphore = DispatchSemaphore(value: 0)

        func wait() { semaphore.wait() }
        func signal() { semaphore.signal() }
    }
#endif
