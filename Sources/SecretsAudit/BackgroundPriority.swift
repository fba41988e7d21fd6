import Foundation
import Secrets

#if canImport(Glibc)
    import Glibc
#endif

/// Lowers the priority of the calling thread, for work that must never compete with the application's own (the
/// audit's writer threads): it runs on cores the application leaves idle, and yields to it elsewhere.
enum BackgroundPriority {
    /// Makes the calling thread a background thread: the idle scheduling class on Linux (where scheduling policy
    /// and nice value are per thread, and process 0 is the calling thread), the utility quality of service on Apple
    /// platforms. Failures are ignored: the thread then keeps the normal priority.
    static func lowerCurrentThread() {
        #if os(Linux)
            // SCHED_IDLE (5 in <sched.h>, which Swift's Glibc module does not export): the thread runs only where no
            // normal thread wants the core, and a normal thread that wakes takes the core from it at once. Nice 19
            // if the kernel refuses it.
            var parameters = sched_param(sched_priority: 0)
            if sched_setscheduler(0, 5, &parameters) != 0 {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            }
        #elseif canImport(Darwin)
            _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }
}
