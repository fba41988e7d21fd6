import Foundation

/// Runs `body` again and again for at least `seconds` and returns how many times per second it ran: the rate the
/// baseline scripts compare with outside tools.
public func measure(seconds: Double, _ body: () throws -> Void) rethrows -> Double {
    var count = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed = 0.0
    repeat {
        try body()
        count += 1
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } while elapsed < seconds
    return Double(count) / elapsed
}

/// ``measure(seconds:_:)`` for async work.
public func measure(seconds: Double, _ body: () async throws -> Void) async rethrows -> Double {
    var count = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed = 0.0
    repeat {
        try await body()
        count += 1
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } while elapsed < seconds
    return Double(count) / elapsed
}
