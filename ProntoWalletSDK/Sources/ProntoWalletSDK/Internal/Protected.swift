import Foundation

/// A value shared between threads, read and written only under a lock.
///
/// (`Synchronization.Mutex` would do, but it needs iOS 18; the SDK supports iOS 16.)
final class Protected<Value>: @unchecked Sendable {
    // Safe: `value` is private and every access to it holds `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
