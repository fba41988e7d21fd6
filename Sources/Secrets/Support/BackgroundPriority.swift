import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lowers the priority of the calling thread, for work that must never compete with the application's own (the
/// audit's writer threads): it runs on cores the application leaves idle, and yields to it elsewhere.
enum BackgroundPriority {
    /// Makes the calling thread a background thread: `nice` 19 on Linux (where the nice value, and `setpriority` of
    /// process 0, are per thread), the utility quality of service on Apple
    /// platforms. Failures are ignored: the thread then keeps the normal priority.
    static func lowerCurrentThread() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #elseif canImport(Darwin)
            _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }
}
