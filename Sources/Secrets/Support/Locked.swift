import Foundation

/// A value guarded by a lock, for state that synchronous, `Sendable` types share between threads.
///
/// `Synchronization.Mutex` needs macOS 15 and iOS 18; Coffer supports macOS 14 and iOS 17, so this small box
/// over `NSLock` plays the same role with the same `withLock` shape.
package final class Locked<State>: @unchecked Sendable {
    // Safety: `state` is only ever read or written inside `withLock`, which holds `lock` for the whole access,
    // so no two threads touch it at once.
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
