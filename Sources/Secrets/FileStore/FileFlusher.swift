import Foundation

/// How ``StoreDirectory`` flushes a descriptor: the system's calls in use, a recorder in tests.
package struct FileFlusher: Sendable {
    /// What a flush must guarantee.
    package enum Strength: Hashable, Sendable {
        /// The data reaches stable storage before anything written after the flush (a write barrier).
        case ordering
        /// The data is on stable storage when the call returns.
        case durable
    }

    /// Flushes `descriptor`; `false` with `errno` set when it failed.
    package let flush: @Sendable (_ descriptor: Int32, _ strength: Strength) -> Bool
}

/// What keeps the process from being suspended while ``StoreDirectory`` holds its lock.
struct WriteActivity: Sendable {
    /// Begins an activity for `reason` and returns what ends it.
    let begin: @Sendable (_ reason: String) -> @Sendable () -> Void

    /// No activity: where the system does not suspend processes holding file locks.
    static let none = WriteActivity { _ in {} }
}
