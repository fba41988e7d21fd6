import AuditBenchmarkSupport
import Foundation
import Secrets

/// `audit-baseline <scratch> profile <backend> <configuration> [seconds]`: synchronous reads through one
/// configuration for `seconds`, then its rate and what its sinks kept.
func profile(_ arguments: [String]) throws {
    guard let backend = AuditBackendKind.allCases.first(where: { $0.slug == arguments[3] }),
        let configuration = AuditSinkConfiguration.allCases.first(where: { $0.slug == arguments[4] })
    else {
        print("usage: audit-baseline <scratch> profile <encrypted-file|in-memory> <none|log|metrics|…|all> [seconds]")
        exit(2)
    }
    let seconds = arguments.count > 5 ? Double(arguments[5]) ?? 5 : 5
    let directory = URL(fileURLWithPath: arguments[1]).appendingPathComponent("audit-profile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let subject = try AuditSubject(
        backend: backend, configuration: configuration, base: try backend.makeStore(in: directory),
        directory: directory)
    let start = DispatchTime.now().uptimeNanoseconds
    var reads = 0
    var elapsed = 0.0
    repeat {
        try subject.readSynchronously()
        reads += 1
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } while elapsed < seconds
    try subject.flush()
    elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("\(backend.rawValue), \(configuration.rawValue): \(Int(Double(reads) / elapsed)) reads/s")
    let checking = DispatchTime.now().uptimeNanoseconds
    let checks = try subject.closeAndCheck(reads: reads)
    let checked = Double(DispatchTime.now().uptimeNanoseconds - checking) / 1e9
    for check in checks { print("  \(check)") }
    print(String(format: "  closed and checked in %.2f s (AuditFileVerifier, log lines, metrics)", checked))
}
