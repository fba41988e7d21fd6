import AuditBenchmarkSupport
import Foundation
import Secrets

/// `audit-baseline <scratch> profile <backend> <configuration> [seconds] [tasks]`: reads through one configuration
/// for `seconds` (synchronous reads, or reads through `SecretsStore` on `tasks` tasks), then its rate and what its
/// sinks kept.
func profile(_ arguments: [String]) async throws {
    guard let backend = AuditBackendKind.allCases.first(where: { $0.slug == arguments[3] }),
        let configuration = AuditSinkConfiguration.allCases.first(where: { $0.slug == arguments[4] })
    else {
        print("usage: audit-baseline <scratch> profile <encrypted-file|in-memory> <none|…|all> [seconds] [tasks]")
        exit(2)
    }
    let seconds = arguments.count > 5 ? Double(arguments[5]) ?? 5 : 5
    let directory = URL(fileURLWithPath: arguments[1]).appendingPathComponent("audit-profile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let subject = try AuditSubject(
        backend: backend, configuration: configuration, base: try backend.makeStore(in: directory),
        directory: directory)
    let tasks = arguments.count > 6 ? Int(arguments[6]) ?? 0 : 0
    let start = DispatchTime.now().uptimeNanoseconds
    let deadline = start + UInt64(seconds * 1e9)
    var reads = 0
    if tasks > 0 {
        reads = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var reads = 0
                    repeat {
                        try await subject.read()
                        reads += 1
                    } while DispatchTime.now().uptimeNanoseconds < deadline
                    return reads
                }
            }
            return try await group.reduce(0, +)
        }
    } else {
        repeat {
            try subject.readSynchronously()
            reads += 1
        } while DispatchTime.now().uptimeNanoseconds < deadline
    }
    try subject.settle()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let path = tasks > 0 ? "SecretsStore, \(tasks) task(s)" : "synchronous"
    print("\(backend.rawValue), \(configuration.rawValue), \(path): \(Int(Double(reads) / elapsed)) reads/s")
    if let line = AuditThreadTime.perRead(reads) { print(line) }
    let checking = DispatchTime.now().uptimeNanoseconds
    let checks = try subject.closeAndCheck(reads: reads)
    let checked = Double(DispatchTime.now().uptimeNanoseconds - checking) / 1e9
    for check in checks { print("  \(check)") }
    print(String(format: "  closed and checked in %.2f s (AuditFileVerifier, log lines, metrics)", checked))
}
