import AuditBenchmarkSupport
import Foundation
import Secrets

/// `audit-baseline <scratch> latency [pairs] [reads per second] [seconds]`: how long one read through `SecretsStore`
/// takes on the encrypted file store, with no audit and with log + file buffered + metrics, when reads come at a
/// steady rate, as an application's do, instead of back to back (where the sinks' work on the other core competes
/// with reads for the whole machine). Plain and audited turns alternate, in pairs; each read is timed on its own,
/// and the percentiles of all of them are compared.
func latency(_ arguments: [String]) async throws {
    let pairs = arguments.count > 3 ? max(1, Int(arguments[3]) ?? 20) : 20
    let rate = arguments.count > 4 ? max(1, Double(arguments[4]) ?? 2000) : 2000
    let seconds = arguments.count > 5 ? max(0.05, Double(arguments[5]) ?? 1) : 1
    let configuration =
        arguments.count > 6 ? AuditSinkConfiguration.allCases.first { $0.slug == arguments[6] } ?? .all : .all
    let directory = URL(fileURLWithPath: arguments[1]).appendingPathComponent("audit-latency-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let base = try AuditBackendKind.encryptedFile.makeStore(in: directory)
    let plain = try AuditSubject(backend: .encryptedFile, configuration: .none, base: base, directory: directory)
    let audited = try AuditSubject(
        backend: .encryptedFile, configuration: configuration, base: base, directory: directory)
    var plainTimes: [Double] = []
    var auditedTimes: [Double] = []
    let warmUpReads = try await pacedReads(through: audited, rate: rate, seconds: 0.1).count  // not timed
    _ = try await pacedReads(through: plain, rate: rate, seconds: 0.1)
    for pair in 0..<pairs {
        for subject in pair.isMultiple(of: 2) ? [plain, audited] : [audited, plain] {
            let timed = try await pacedReads(through: subject, rate: rate, seconds: seconds)
            if subject === audited { auditedTimes += timed } else { plainTimes += timed }
        }
    }
    plainTimes.sort()
    auditedTimes.sort()
    let auditedReads = warmUpReads + auditedTimes.count
    print(
        "audit-baseline latency: encrypted file, SecretsStore, 1 task, \(Int(rate)) reads/s, \(pairs) pairs of \(seconds) s"
    )
    for (label, times) in [("no audit", plainTimes), (configuration.rawValue, auditedTimes)] {
        let line = [0.5, 0.9, 0.99].map { String(format: "p%g %6.1f us", $0 * 100, percentile($0, of: times) * 1e6) }
        print("  \(label.padding(toLength: 30, withPad: " ", startingAt: 0)) \(line.joined(separator: "  "))")
    }
    let ratio = percentile(0.5, of: plainTimes) / percentile(0.5, of: auditedTimes)
    print(String(format: "latency-goal-ratio %.3f (plain median read / audited median read)", ratio))
    if let line = AuditThreadTime.perRead(auditedReads) { print(line) }
    for check in try audited.closeAndCheck(reads: auditedReads) { print("  \(check)") }
}

/// Reads through `subject` at `rate` reads a second for `seconds` (a read that is late starts at once, and the
/// schedule moves on from it rather than catching up), then settles it: each read's duration, in seconds.
private func pacedReads(through subject: AuditSubject, rate: Double, seconds: Double) async throws -> [Double] {
    let interval = 1 / rate
    let start = now()
    var next = start
    var durations: [Double] = []
    durations.reserveCapacity(Int(rate * seconds) + 1)
    while next < start + seconds {
        let wait = next - now()
        if wait > 0 { usleep(useconds_t(wait * 1e6)) }
        let began = now()
        try await subject.read()
        durations.append(now() - began)
        next = max(next + interval, began)
    }
    try subject.settle()
    return durations
}

/// The `fraction` percentile of `sorted` (nearest rank).
private func percentile(_ fraction: Double, of sorted: [Double]) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}
