import AuditBenchmarkSupport
import Benchmark
import Foundation
import Secrets

/// What the access audit (issue 18 §2) costs a 64 B read, as the caller sees it: `SecretsStore` reads without an
/// audit and with each sink configuration (swift-log's `StreamLogHandler` writing to a file, swift-prometheus's
/// factory, the audit file buffered or synchronous, and the three together), over the encrypted file store and in
/// memory; and the synchronous `AuditedSecretsStore` read against the bare `AggregateSecretsStore` read.
///
/// Sinks are flushed after each measured sample, outside the measurement: these figures are the reading caller's
/// cost. `Benchmarks/compare-audit.sh` measures the sustained rate (flushes included), on 1 and 2 tasks, and
/// checks that no event is lost.
func auditBenchmarks(in directory: URL) {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(2),
        maxIterations: 1_000)
    for backend in AuditBackendKind.allCases {
        for sinks in AuditSinkConfiguration.allCases {
            let fixture = AuditFixture(backend: backend, configuration: sinks, directory: directory)
            Benchmark(
                "SecretsStore read 64 B, \(backend.rawValue), audit: \(sinks.rawValue)", configuration: configuration,
                closure: { benchmark in
                    let subject = try fixture.subject()
                    benchmark.startMeasurement()
                    for _ in benchmark.scaledIterations { try await subject.read() }
                    benchmark.stopMeasurement()
                    try subject.flush()
                }, setup: { try fixture.open() }, teardown: { try fixture.close() })
        }
        for sinks in [AuditSinkConfiguration.none, .all] {
            let fixture = AuditFixture(backend: backend, configuration: sinks, directory: directory)
            let name =
                sinks == .none
                ? "AggregateSecretsStore read 64 B (synchronous), \(backend.rawValue)"
                : "AuditedSecretsStore read 64 B (synchronous), \(backend.rawValue), audit: \(sinks.rawValue)"
            Benchmark(
                name, configuration: configuration,
                closure: { benchmark in
                    let subject = try fixture.subject()
                    benchmark.startMeasurement()
                    for _ in benchmark.scaledIterations { try subject.readSynchronously() }
                    benchmark.stopMeasurement()
                    try subject.flush()
                }, setup: { try fixture.open() }, teardown: { try fixture.close() })
        }
    }
}
